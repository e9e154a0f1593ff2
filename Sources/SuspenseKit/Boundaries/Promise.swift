/// Thrown by a component to suspend it until a query resolves.
///
/// The nearest ``Suspense`` above the component shows its fallback and runs the query together
/// with every other query discovered under it. Prefer ``resolveValue(key:query:)``, which
/// throws a keyed promise for you and reads the result back from the render's ``QueryCache``.
public struct Promise<Value: Sendable>: Error {
    /// The cache key of the query, or `nil` for a promise whose value only a typed ``Suspense``
    /// can deliver.
    public let key: String?
    let query: @Sendable () async throws -> Value

    init(key: String?, query: @escaping @Sendable () async throws -> Value) {
        self.key = key
        self.query = query
    }

    /// A promise without a key, as in `throw Promise<User>.pending(query: { try await getUser() })`.
    ///
    /// Its value reaches the component only through a typed `Suspense { (user: User?) in … }`.
    public static func pending(query: @escaping @Sendable () async throws -> Value) -> Promise {
        Promise(key: nil, query: query)
    }

    /// A promise whose result is stored in the render's ``QueryCache`` under `key`.
    public static func pending(key: String, query: @escaping @Sendable () async throws -> Value) -> Promise {
        Promise(key: key, query: query)
    }
}

/// Lets the resolver catch any `Promise<Value>` without knowing `Value`.
protocol AnyPromise: Error {
    var key: String? { get }
    var valueType: any Any.Type { get }
    var valueTypeName: String { get }
    func run() async throws -> any Sendable
}

extension Promise: AnyPromise {
    var valueType: any Any.Type { Value.self }
    var valueTypeName: String { "Promise<\(Value.self)>" }
    func run() async throws -> any Sendable { try await query() }
}
