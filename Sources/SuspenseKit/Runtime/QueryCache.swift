/// Where query results live: one per render by default, or shared between renders when the
/// caller passes one to ``render(_:as:cache:options:isolation:)``.
///
/// Renders sharing a cache share its queries too: a key already running for one render is
/// joined by the others, so it runs once however many renders wait on it.
///
/// Tests can fix a key's outcome before rendering: ``store(_:for:)`` gives it a value and
/// ``storeFailure(_:for:)`` a failure, found at once, so the component never suspends.
/// ``stub(_:with:)`` instead replaces the query itself: the component suspends, the fallback is
/// shown, and the stubbed outcome arrives through the normal query path, as a real result
/// would; `.pending` leaves the key pending for good.
///
/// How long results are used is the cache's choice: ``FailureRetention`` says whether a failure
/// is kept for later renders, and a `lifetime` makes values and failures expire on the cache's
/// clock, after which the next reader runs the query again. ``removeValue(for:)`` and
/// ``removeAll()`` forget results by hand.
public final class QueryCache: Sendable {
    /// Whether a failed query's error is kept for later renders.
    public enum FailureRetention: Sendable {
        /// Kept like a value: later renders with this cache rethrow it without running the
        /// query again (the default).
        case keep
        /// Kept only while the renders that met it run: once one of them ends, the failure is
        /// forgotten and the next render runs the query again.
        case dropAfterRender
    }

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
        /// without suspending, with their result: their starter takes it from here.
        var finishedAtOnce: [UInt64: Entry] = [:]
        /// While there are stubs: every key and label a render asked for, and each stubbed
        /// value that was not of the type its reader asked for.
        var asked: Set<String> = []
        var stubMismatches: [QueryTypeMismatch] = []
        /// How long a stored value or failure is used; nil: until removed.
        let lifetime: Duration?
        /// When each value or failure was stored, on the cache's clock, while there is a lifetime.
        var storedAt: [String: Duration] = [:]

        /// What is stored under `key` at `now` (nil when the cache has no lifetime), forgetting
        /// a result that outlived the lifetime.
        mutating func entry(_ key: String, now: Duration?) -> Entry? {
            if let now, let lifetime, let stored = storedAt[key], now - stored >= lifetime {
                entries[key] = nil
                storedAt[key] = nil
                return nil
            }
            return entries[key]
        }

        /// Stores a result at `now`.
        mutating func store(_ entry: Entry, for key: String, now: Duration?) {
            entries[key] = entry
            if let now { storedAt[key] = now }
        }
    }

    let state: Locked<State>
    /// What becomes of failures.
    let failureRetention: FailureRetention
    /// The cache's clock, when results expire.
    private let clock: RenderClock?

    /// Creates an empty cache.
    /// - Parameters:
    ///   - failures: Whether a failure is kept for later renders (default `.keep`).
    ///   - lifetime: How long a stored value or failure is used before the next reader runs the
    ///     query again (default: until removed).
    ///   - clock: The clock the lifetime is measured on (default `ContinuousClock()`; tests pass a
    ///     `TestClock`).
    public init(
        failures: FailureRetention = .keep,
        lifetime: Duration? = nil,
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        state = Locked(State(lifetime: lifetime))
        failureRetention = failures
        self.clock = lifetime == nil ? nil : RenderClock(clock)
    }

    /// How many results are stored.
    var storedCount: Int {
        state.withLock { $0.entries.count }
    }

    /// Reserves room for `count` results in an empty cache (a capacity hint), so that a render
    /// storing thousands of results does not rehash its table as it grows.
    func reserveIfEmpty(_ count: Int) {
        guard count > 0 else { return }
        state.withLock { state in
            if state.entries.isEmpty { state.entries.reserveCapacity(count) }
        }
    }

    /// The time on the cache's clock, when results expire; nil when they do not.
    func now() -> Duration? {
        clock?.elapsed()
    }

    func entry(for key: String) -> Entry? {
        let now = now()
        return state.withLock { $0.entry(key, now: now) }
    }

    /// Stores a value under `key`: `resolveValue(key:)` returns it without running a query.
    public func store(_ value: some Sendable, for key: String) {
        let now = now()
        state.withLock { $0.store(.value(value), for: key, now: now) }
    }

    /// Stores a failure under `key`: `resolveValue(key:)` rethrows it at the component.
    public func storeFailure(_ error: any Error, for key: String) {
        let now = now()
        state.withLock { $0.store(.failure(error), for: key, now: now) }
    }

    /// Leaves `key` pending for good: its query never runs, and the ``Suspense`` waiting on it
    /// keeps showing its fallback when the render ends.
    @available(*, deprecated, message: "use stub(key, with: .pending), which also matches a keyless promise's label")
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
        let now = now()
        return state.withLock { state in
            if !state.stubs.isEmpty { state.asked.insert(stubLabel) }
            return (state.entry(key, now: now), state.stubs[stubLabel])
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

    /// Forgets what is stored or stubbed under `key` (a value, a failure, or an outcome fixed
    /// with ``stub(_:with:)``), so that the next reader runs its query again. A run of the key
    /// in flight is not stopped: its result is stored when it arrives.
    public func removeValue(for key: String) {
        state.withLock {
            $0.entries.removeValue(forKey: key)
            $0.storedAt.removeValue(forKey: key)
            $0.stubs.removeValue(forKey: key)
        }
    }

    /// Forgets every stored result and every stub; runs in flight go on.
    public func removeAll() {
        state.withLock {
            $0.entries.removeAll()
            $0.storedAt.removeAll()
            $0.stubs.removeAll()
        }
    }

    /// Forgets the failures stored under `keys` (`.dropAfterRender`, when a render that met
    /// them ends); a key that holds a value by now keeps it.
    func dropFailures(_ keys: Set<String>) {
        guard !keys.isEmpty else { return }
        state.withLock { state in
            for key in keys {
                if case .failure? = state.entries[key] {
                    state.entries[key] = nil
                    state.storedAt[key] = nil
                }
            }
        }
    }
}
