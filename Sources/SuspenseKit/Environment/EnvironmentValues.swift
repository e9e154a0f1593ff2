/// A key for a value in ``EnvironmentValues``, with the value read where none was set.
///
/// ```swift
/// private struct LocaleKey: EnvironmentKey {
///     static let defaultValue = "en"
/// }
///
/// extension EnvironmentValues {
///     var locale: String {
///         get { self[LocaleKey.self] }
///         set { self[LocaleKey.self] = newValue }
///     }
/// }
/// ```
public protocol EnvironmentKey {
    /// The type of the value. It must be `Sendable`: query closures run on other tasks and
    /// capture values read from the environment, and the environment itself is read on the
    /// render's task and on the thread that continues a deep subtree. A default value held in a
    /// `static let` must be `Sendable` in Swift 6 anyway.
    associatedtype Value: Sendable

    /// The value read where no ancestor set one.
    static var defaultValue: Value { get }
}

/// Values that flow down a component tree: set on a subtree with
/// ``Component/environment(_:_:)``, read with ``Environment``.
///
/// Extend it with a computed property per ``EnvironmentKey``, as in SwiftUI.
public struct EnvironmentValues: Sendable {
    // A copy-on-write dictionary: copying or capturing the values is one retain, and setting a
    // value copies only the few entries set above it. Keyed by the key's type.
    private var values: [ObjectIdentifier: any Sendable] = [:]

    /// Creates values where every key has its default value.
    public init() {}

    /// The value for `key`: the one set nearest above, or the key's default value.
    public subscript<K: EnvironmentKey>(key: K.Type) -> K.Value {
        get {
            guard let value = values[ObjectIdentifier(key)] else { return K.defaultValue }
            // Only the setter below stores under this key, always a `K.Value`.
            return value as! K.Value
        }
        set {
            values[ObjectIdentifier(key)] = newValue
        }
    }
}
