/// Where query results live: one per render by default, or shared between renders when the
/// caller passes one to ``render(_:as:cache:options:)``.
///
/// Renders sharing a cache share its queries too: a key already running for one render is
/// joined by the others, so it runs once however many renders wait on it.
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

    /// What is stored, and what is running: one lock, so that a read or a join takes it once.
    struct State {
        var entries: [String: Entry] = [:]
        /// Queries running for one or more renders, by key.
        var inFlight: [String: InFlightQuery] = [:]
        var nextRun: UInt64 = 0
        /// Outcomes a test fixed in place of running the query, by key or keyless-promise label.
        var stubs: [String: QueryOutcome] = [:]
        /// Runs started on the immediate path that finished before their start returned,
        /// without suspending: their starter takes the value from `entries`.
        var finishedAtOnce: Set<UInt64> = []
        /// While there are stubs: every key and label a render asked for, and each stubbed
        /// value that was not of the type its reader asked for.
        var asked: Set<String> = []
        var stubMismatches: [QueryTypeMismatch] = []
    }

    let state = Locked(State())

    /// Creates an empty cache.
    public init() {}

    func entry(for key: String) -> Entry? {
        state.withLock { $0.entries[key] }
    }

    /// Stores a value under `key`: `resolveValue(key:)` returns it without running a query.
    public func store(_ value: some Sendable, for key: String) {
        state.withLock { $0.entries[key] = .value(value) }
    }

    /// Stores a failure under `key`: `resolveValue(key:)` rethrows it at the component.
    public func storeFailure(_ error: any Error, for key: String) {
        state.withLock { $0.entries[key] = .failure(error) }
    }

    /// Leaves `key` pending for good: its query never runs, and the ``Suspense`` waiting on it
    /// keeps showing its fallback when the render ends.
    public func suspendForever(_ key: String) {
        state.withLock { $0.entries[key] = .pendingForever }
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
        state.withLock { $0.stubs[key] = outcome }
    }

    /// The stubbed outcome for a query key or keyless-promise label, if a test gave one.
    func stubbedOutcome(for key: String) -> QueryOutcome? {
        state.withLock { state in
            if !state.stubs.isEmpty { state.asked.insert(key) }
            return state.stubs[key]
        }
    }

    /// What is stored under `key` and the outcome a test stubbed for it (by key or label), in
    /// one acquisition of the lock.
    func entryAndStub(for key: String, stubLabel: String) -> (Entry?, QueryOutcome?) {
        state.withLock { state in
            if !state.stubs.isEmpty { state.asked.insert(stubLabel) }
            return (state.entries[key], state.stubs[stubLabel])
        }
    }

    /// The query keys and keyless-promise labels that renders with this cache asked for, once
    /// it has stubs (a cache without stubs records nothing): what a test compares with the
    /// outcomes it fixed, to find one that no query used.
    public var askedQueries: Set<String> {
        state.withLock { $0.asked }
    }

    /// Each stubbed value that a component read as another type than the stub's, in order.
    public var stubTypeMismatches: [QueryTypeMismatch] {
        state.withLock { $0.stubMismatches }
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
        _ = state.withLock { $0.entries.removeValue(forKey: key) }
    }

    /// Forgets everything, stubs included.
    public func removeAll() {
        state.withLock {
            $0.entries.removeAll()
            $0.stubs.removeAll()
        }
    }
}
