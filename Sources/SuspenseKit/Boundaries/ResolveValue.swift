/// Returns `value` if it is not `nil`; otherwise suspends the component with a promise that
/// runs `query`. The form of the swiftui-suspense article, for use under a typed ``Suspense``.
public func resolveValue<Value: Sendable>(
    _ value: Value?,
    query: @escaping @Sendable () async throws -> Value
) throws -> Value {
    if let value { return value }
    throw Promise<Value>.pending(query: query)
}

/// Returns the value stored under `key` in the render's ``QueryCache``, rethrows the failure
/// stored there, or suspends the component until `query` has run.
///
/// Identical keys anywhere in one render share one execution of the query. Inside a render, a
/// key neither stored nor running starts its query at once: when the query finishes without
/// suspending, its value is returned here and the component never suspends (its ``Suspense``
/// shows no fallback); otherwise the component suspends while the query runs.
/// - Parameters:
///   - key: Identifies the query's result in the cache.
///   - query: Loads the value; called at most once per key per cache.
public func resolveValue<Value: Sendable>(
    key: String,
    query: @escaping @Sendable () async throws -> Value
) throws -> Value {
    guard let scope = RenderScope.current else {
        throw Promise<Value>.pending(key: key, query: query)
    }
    if let value = try scope.cache.read(key, mailbox: scope.mailbox, query: query) { return value }
    throw Promise<Value>.pending(key: key, query: query)
}

/// Two reads of one key asked for different value types.
public struct QueryTypeMismatch: Error, CustomStringConvertible {
    /// The key read.
    public let key: String
    /// The type the reader asked for.
    public let expected: String
    /// The type stored under the key.
    public let found: String

    public var description: String {
        "query key \"\(key)\" holds a value of type \(found), but resolveValue asked for \(expected)"
    }
}
