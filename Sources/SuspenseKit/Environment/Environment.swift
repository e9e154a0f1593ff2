/// Reads a value of the environment: `@Environment(\.locale) var locale`.
///
/// The value is read when the component is made, from the environment of the place the
/// resolver makes it in, so it can be used in `body`, in the initializer, and in a query closure
/// that captures it. An initializer that has not set every stored property yet can read it as a
/// local, `@Environment(\.locale) var locale`. A component made outside a render, such as the
/// root passed to `render`, reads the default values.
@propertyWrapper
public struct Environment<Value> {
    /// The value read when the component was made.
    public let wrappedValue: Value

    /// Reads the value at `keyPath` in the current environment.
    /// - Parameter keyPath: A property of ``EnvironmentValues``, such as `\.locale`.
    public init(_ keyPath: KeyPath<EnvironmentValues, Value>) {
        wrappedValue = EnvironmentValues.current[keyPath: keyPath]
    }
}

extension Environment: Sendable where Value: Sendable {}
