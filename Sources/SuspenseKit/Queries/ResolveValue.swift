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
    if let value = try _readOrStart(key: key, query: query) { return value }
    throw Promise<Value>.pending(key: key, query: query)
}

/// Reads several keys as ``resolveValue(key:query:)`` reads one, but starts every query before
/// the component suspends on any, so that independent loads run side by side, not one after
/// the other:
///
/// ```swift
/// let (user, posts) = try resolveValues(
///     ("user/\(id)", { try await API.user(id) }),
///     ("posts/\(id)", { try await API.posts(id) })
/// )
/// ```
///
/// Each key keeps the semantics of `resolveValue(key:query:)` (cache, one run per key, a query
/// that answers at once never suspends). The outcome is the one the same keys read one after
/// the other in argument order would give: the values when all are there; otherwise the first
/// key in argument order that has no value decides, throwing its failure or suspending on it.
/// The queries after it are running meanwhile, so the component evaluated again finds them
/// finished or suspends on the next one still running.
/// - Parameter queries: Each a key and the query that loads its value.
@inlinable
public func resolveValues<each Value: Sendable>(
    _ queries: repeat (key: String, query: @Sendable () async throws -> each Value)
) throws -> (repeat each Value) {
    // The first key without a value: its failure, or the promise to suspend on.
    var blocking: (any Error)?
    let values = (repeat _readOrStartNoting(each queries, blocking: &blocking))
    if let blocking { throw blocking }
    return (repeat (each values)!)
}

/// One key of `resolveValues`: its value, or nil after noting in `blocking`, unless a key
/// before it did already, its failure or the promise to suspend on. Not API.
@inlinable
func _readOrStartNoting<Value: Sendable>(
    _ entry: (key: String, query: @Sendable () async throws -> Value),
    blocking: inout (any Error)?
) -> Value? {
    do {
        if let value = try _readOrStart(key: entry.key, query: entry.query) { return value }
        if blocking == nil { blocking = Promise<Value>.pending(key: entry.key, query: entry.query) }
    } catch {
        if blocking == nil { blocking = error }
    }
    return nil
}

/// The value of `key` in the render's ``QueryCache``, starting its query at once when it is
/// neither stored nor running; nil when the component has to suspend on it. Not API.
@inlinable
func _readOrStart<Value: Sendable>(
    key: String,
    query: @escaping @Sendable () async throws -> Value
) throws -> Value? {
    // Inlined, so that running the query and handing back its value are specialized for
    // `Value` in the caller's module; the lookup and the bookkeeping stay out of line.
    switch try QueryCache._readNotingFailures(key) {
    case .value(let value):
        return try QueryCache._cast(value, key: key, as: Value.self)
    case .start(let start):
        // The run starts here, on this thread until it first suspends, where the platform has
        // immediate tasks (elsewhere as a task scheduled at once; see `_startImmediately`). The
        // closure is made as the task takes it, with no thunk around it. Not detached: the task
        // keeps the render's task-local values, all but its scope. A run that finishes at once
        // leaves its value in `value`, typed: no cast.
        var value: Value?
        let saved = QueryCache._begin(start)
        let task = withUnsafeMutablePointer(to: &value) { pointer in
            let slot = _StarterSlot(pointer)
            return QueryCache._outsideRender {
                _startImmediately { await _run(query, for: start, leavingValueIn: slot) }
            }
        }
        if try QueryCache._end(start, task: task, restoring: saved), let value { return value }
        return nil
    case .refresh(let value, let refresh):
        // A stale value: served now, while one refresh of the key runs in the background.
        QueryCache._startRefresh(refresh) { try await query() }
        return try QueryCache._cast(value, key: key, as: Value.self)
    case .suspend:
        return nil
    }
}

/// `resolveValue(key:query:)`, noting `tags` on `key` in the render's ``QueryCache``, so that
/// ``QueryCache/invalidate(tag:)`` forgets its result (a write to a user invalidating every key
/// that read that user, whatever its key).
/// - Parameters:
///   - key: Identifies the query's result in the cache.
///   - tags: Names under which the key can be invalidated together with others.
///   - query: Loads the value; called at most once per key per cache.
@inlinable
public func resolveValue<Value: Sendable>(
    key: String,
    tags: [String],
    query: @escaping @Sendable () async throws -> Value
) throws -> Value {
    QueryCache._tag(key, with: tags)
    return try resolveValue(key: key, query: query)
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
