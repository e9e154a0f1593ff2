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
///
/// The query runs with the task-local values of the render that started it (a request id, a
/// locale, a tracing context bound around ``render(_:as:cache:options:isolation:)``) and at its
/// priority, but outside the render: a `resolveValue` inside the query does not read the
/// render's cache. A run shared by several renders keeps the values of the one that started it.
/// - Parameters:
///   - key: Identifies the query's result in the cache.
///   - query: Loads the value; called at most once per key per cache.
@inlinable
public func resolveValue<Value: Sendable>(
    key: String,
    query: @escaping @Sendable () async throws -> Value
) throws -> Value {
    // Inlined, so that running the query and handing back its value are specialized for
    // `Value` in the caller's module; the lookup and the bookkeeping stay out of line.
    switch try QueryCache._readNotingFailures(key) {
    case .value(let value):
        return try QueryCache._cast(value, key: key, as: Value.self)
    case .start(let start):
        // The run starts here, on this thread until it first suspends, where the platform has
        // immediate tasks (elsewhere as a task scheduled at once): written out here rather than
        // passed to a helper, so that the closure is made as the task takes it, with no thunk
        // around it. Not detached: the task keeps the render's task-local values, all but its
        // scope. A run that finishes at once leaves its value in `value`, typed: no cast.
        var value: Value?
        let saved = QueryCache._begin(start)
        let task = withUnsafeMutablePointer(to: &value) { pointer in
            let slot = _StarterSlot(pointer)
            return QueryCache._outsideRender {
                if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
                    return Task.immediate { await _run(query, for: start, leavingValueIn: slot) }
                }
                return Task { await _run(query, for: start, leavingValueIn: slot) }
            }
        }
        if try QueryCache._end(start, task: task, restoring: saved), let value { return value }
    case .suspend:
        break
    }
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

    /// A description for messages and logs.
    public var description: String {
        "query key \"\(key)\" holds a value of type \(found), but resolveValue asked for \(expected)"
    }
}
