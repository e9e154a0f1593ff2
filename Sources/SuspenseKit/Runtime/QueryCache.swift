/// Where query results live: one per render by default, or shared between renders when the
/// caller passes one to ``render(_:as:cache:options:)``.
///
/// Tests can fix a key's outcome before rendering: ``store(_:for:)`` gives it a value,
/// ``storeFailure(_:for:)`` a failure, and ``suspendForever(_:)`` leaves it pending for good.
/// Those are found at once, so the component never suspends. ``stub(_:with:)`` instead
/// replaces the query itself: the component suspends, the fallback is shown, and the stubbed
/// outcome arrives through the normal query path, as a real result would.
public final class QueryCache: Sendable {
    enum Entry: Sendable {
        case value(any Sendable)
        case failure(any Error)
        case pendingForever
    }

    private let entries = Locked<[String: Entry]>([:])
    private let stubs = Locked<[String: QueryOutcome]>([:])

    /// Creates an empty cache.
    public init() {}

    /// The cache of the render whose components are being evaluated on this task.
    @TaskLocal static var current: QueryCache?

    func entry(for key: String) -> Entry? {
        entries.withLock { $0[key] }
    }

    func record(_ result: Result<any Sendable, any Error>, for key: String) {
        entries.withLock { entries in
            switch result {
            case .success(let value): entries[key] = .value(value)
            case .failure(let error): entries[key] = .failure(error)
            }
        }
    }

    /// Stores a value under `key`: `resolveValue(key:)` returns it without running a query.
    public func store(_ value: some Sendable, for key: String) {
        entries.withLock { $0[key] = .value(value) }
    }

    /// Stores a failure under `key`: `resolveValue(key:)` rethrows it at the component.
    public func storeFailure(_ error: any Error, for key: String) {
        entries.withLock { $0[key] = .failure(error) }
    }

    /// Leaves `key` pending for good: its query never runs, and the ``Suspense`` waiting on it
    /// keeps showing its fallback when the render ends.
    public func suspendForever(_ key: String) {
        entries.withLock { $0[key] = .pendingForever }
    }

    /// Runs no query for `key`: when a component suspends on it, `outcome` is delivered instead,
    /// through the same path as a real result, so the fallback is rendered first.
    ///
    /// A keyless promise (`Promise<User>.pending(query:)`) is matched by its label in the
    /// `.tree` format, such as `"Promise<User>"`. Once delivered, a value or failure is stored
    /// like any result, so a later render with the same cache finds it at once.
    /// - Parameters:
    ///   - key: The query's key, or the label of a keyless promise.
    ///   - outcome: A value, a failure, or `.pending` to leave the query unfinished.
    public func stub(_ key: String, with outcome: QueryOutcome) {
        stubs.withLock { $0[key] = outcome }
    }

    /// The stubbed outcome for a query key or keyless-promise label, if a test gave one.
    func stubbedOutcome(for key: String) -> QueryOutcome? {
        stubs.withLock { $0[key] }
    }

    /// The value stored under `key`, if there is one of that type.
    public func value<Value: Sendable>(for key: String, as type: Value.Type = Value.self) -> Value? {
        if case .value(let value) = entry(for: key) { return value as? Value }
        return nil
    }

    /// Whether `key` has a stored value or failure.
    public func contains(_ key: String) -> Bool {
        switch entry(for: key) {
        case .value, .failure: return true
        case .pendingForever, nil: return false
        }
    }

    /// Forgets what is stored under `key`, so that the next render runs its query again.
    public func removeValue(for key: String) {
        _ = entries.withLock { $0.removeValue(forKey: key) }
    }

    /// Forgets everything, stubs included.
    public func removeAll() {
        entries.withLock { $0.removeAll() }
        stubs.withLock { $0.removeAll() }
    }
}
