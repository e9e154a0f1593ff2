import Synchronization

/// Where query results live: one per render by default, or shared between renders when the
/// caller passes one to ``render(_:as:cache:options:isolation:)``.
///
/// Renders sharing a cache share its queries too: a key already running for one render is
/// joined by the others, so it runs once however many renders wait on it.
///
/// Tests can fix a key's outcome before rendering: ``store(_:for:)`` gives it a value and
/// ``storeFailure(_:for:)`` a failure, found at once, so the component never suspends.
/// ``stub(_:for:)`` instead replaces the query itself: the component suspends, the fallback is
/// shown, and the stubbed outcome arrives through the normal query path, as a real result
/// would; `.pending` leaves the key pending for good.
///
/// How long results are used is the cache's choice: a `capacity` bounds how many are kept (the
/// least recently used evicted first), ``FailureRetention`` says whether a failure is kept for
/// later renders, and a `lifetime` makes values and failures expire on the cache's clock, after
/// which the next reader runs the query again. With `freshFor:staleFor:`, a value past its fresh
/// time is still served at once for a while, as one refresh runs in the background (stale while
/// revalidate); a refresh that fails keeps the stale value served. Either way, a result delivered
/// to a render (and a failure it met) is what that render's components read until it ends.
/// ``removeValue(for:)`` and ``removeAll()`` forget results by hand, and win over a run in flight.
public final class QueryCache: Sendable {
    /// Whether a failed query's error is kept for later renders.
    public enum FailureRetention: Sendable {
        /// Kept like a value: later renders with this cache rethrow it without running the
        /// query again.
        case keep
        /// Kept only while the renders that met it run: once one of them ends, the failure is
        /// forgotten and the next render runs the query again (a render that met it still
        /// reads it until it ends). The default: a transient failure is not served to every
        /// later request.
        case dropAfterRender
    }

    enum Entry: Sendable {
        case value(any Sendable)
        case failure(any Error)

        /// A run's result as it is stored.
        init(_ result: consuming Result<any Sendable, any Error>) {
            switch consume result {
            case .success(let value): self = .value(value)
            case .failure(let error): self = .failure(error)
            }
        }

        /// Whether it is a failure.
        var isFailure: Bool {
            if case .failure = self { return true }
            return false
        }

        /// The entry as a run's result, as renders are handed it.
        var result: Result<any Sendable, any Error> {
            switch self {
            case .value(let value): .success(value)
            case .failure(let error): .failure(error)
            }
        }
    }

    /// What the table holds under a key: a result, or the run of its query in flight.
    enum Cell {
        case stored(Entry)
        case running(InFlightQuery)
    }

    let state: Locked<State>
    /// Set once the cache is given a stub, never cleared: a suspending component of a cache
    /// without stubs takes no lock to learn it has none.
    private let mayHoldStubs = Atomic<Bool>(false)
    /// Hits served from a value the render was applying (`RenderScope.delivered`), not from the
    /// table: added to `Statistics.hits`.
    private let deliveredHits = Atomic<Int>(0)
    var deliveredHitCount: Int { deliveredHits.load(ordering: .relaxed) }
    /// What becomes of failures.
    let failureRetention: FailureRetention
    /// The cache's clock, when results expire.
    let clock: RenderClock?
    /// Whether the cache may forget a result while a render that was handed it still runs
    /// (results expire, or failures are dropped when a render ends): each render then keeps
    /// what it was delivered, and the failures it met, for its own components to read until it
    /// ends (`QueryMailbox.kept`). False by default: nothing is kept twice.
    let rendersKeepResults: Bool
    /// The second tier, for a cache made with a ``QueryStore`` (QueryCache+Store.swift).
    let shared = SharedTierSlot()

    /// How many results a cache keeps by default: enough for the hot keys of a server, small
    /// enough that a cache shared for months stays a few megabytes of bookkeeping.
    public static let defaultCapacity = 10_000

    /// Creates an empty cache. The defaults suit a cache shared by a server's renders: at most
    /// ``defaultCapacity`` results, the least recently used evicted first, and failures not kept
    /// past the renders that met them.
    /// - Parameters:
    ///   - capacity: How many results are kept at most (default ``defaultCapacity``; nil: no
    ///     bound). Storing one more evicts the least recently used; a query in flight is never
    ///     evicted, and a result delivered to a render stays readable by it until it ends.
    ///   - failures: Whether a failure is kept for later renders (default `.dropAfterRender`).
    ///   - lifetime: How long a stored value or failure is used before the next reader runs the
    ///     query again (default: until removed or evicted). Expired results are freed as they
    ///     are met, and a few at a time as new ones are stored.
    ///   - clock: The clock the lifetime is measured on (default `ContinuousClock()`; tests pass a
    ///     `TestClock`).
    public convenience init(
        capacity: Int? = QueryCache.defaultCapacity,
        failures: FailureRetention = .dropAfterRender,
        lifetime: Duration? = nil,
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.init(capacity: capacity, failures: failures, lifetime: lifetime, freshness: nil, clock: clock)
    }

    /// The one initializer the public ones call.
    init(
        capacity: Int?, failures: FailureRetention, lifetime: Duration?, freshness: Freshness?,
        clock: any Clock<Duration>, countsBytes: Bool = true, isRendersOwn: Bool = false
    ) {
        precondition(capacity.map { $0 > 0 } ?? true, "a QueryCache's capacity must be positive")
        // No stale window: a lifetime of `freshFor`, as with `lifetime:`.
        let refreshes = freshness.flatMap { $0.staleFor > .zero ? $0 : nil }
        state = Locked(
            State(lifetime: lifetime, staleAfter: refreshes?.freshFor, capacity: capacity, countsBytes: countsBytes))
        failureRetention = failures
        self.refreshes = refreshes
        self.clock = lifetime == nil ? nil : RenderClock(clock)
        keepsEveryResult = lifetime != nil || capacity != nil
        rendersKeepResults = keepsEveryResult || failures == .dropAfterRender
        self.isRendersOwn = isRendersOwn
    }

    /// How stale values are refreshed; nil when values never go stale.
    let refreshes: Freshness?

    /// The cache a render makes when it is given none: it lives as long as the render, so it
    /// needs no bound, and what it keeps is the render's alone. Not API.
    @usableFromInline
    static func _perRender() -> QueryCache {
        // Nobody reads its statistics: it does not size its values.
        QueryCache(
            capacity: nil, failures: .keep, lifetime: nil, freshness: nil, clock: ContinuousClock(), countsBytes: false,
            isRendersOwn: true)
    }

    /// Whether this is the cache a render made for itself (`_perRender()`): nobody reads it once
    /// the render's loop ends.
    let isRendersOwn: Bool

    /// Called when a render's loop ended: returns how many results the cache stores, and, for
    /// a render's own cache with no run left in flight, forgets them all and frees their table,
    /// so that they are not held while the final tree and the output are made (at 100,000
    /// items, about 130 bytes an item). A cache passed in is left as it is.
    func renderEnded() -> Int {
        state.withLock { state in
            let count = state.storedCount
            if isRendersOwn, state.runningCount == 0, count > 0 { state.removeAllStored() }
            return count
        }
    }

    /// Whether the cache may forget any result while a render that was handed it still runs
    /// (it expires, or is evicted).
    private let keepsEveryResult: Bool

    /// Whether a render delivered `result` keeps it for its components until it ends: any
    /// result when results expire or are evicted, a failure when failures are dropped after a
    /// render.
    func rendersKeep(_ result: Result<any Sendable, any Error>) -> Bool {
        guard rendersKeepResults else { return false }
        if keepsEveryResult { return true }
        if case .failure = result { return true }
        return false
    }

    /// How many results are kept at most; nil: no bound.
    var capacity: Int? { state.withLock { $0.capacity } }

    /// The keys of the stored results, least recently used first, with a capacity or lifetime.
    var keysByRecency: [String] { state.withLock { $0.table.keysByRecency() } }

    /// How many results the cache's table holds before its storage grows.
    var tableCapacity: Int { state.withLock { $0.table.capacity } }

    /// How many results are stored.
    var storedCount: Int {
        state.withLock { $0.storedCount }
    }

    /// Reserves room for `count` results in an empty cache (a capacity hint), so that a render
    /// storing thousands of results does not rehash its table as it grows.
    func reserveIfEmpty(_ count: Int) {
        guard count > 0 else { return }
        state.withLock { state in
            if state.table.isEmpty { state.table.reserveCapacity(count) }
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

    /// Runs no query for `key`: when a component suspends on it, `outcome` is delivered instead,
    /// through the same path as a real result, so the fallback is rendered first.
    ///
    /// A keyless promise (`Promise<User>.pending(query:)`) is matched by its label in the
    /// `.tree` format, such as `"Promise<User>"`. Once delivered, a value or failure is stored
    /// like any result, so a later render with the same cache finds it at once.
    /// - Parameters:
    ///   - outcome: A value, a failure, or `.pending` to leave the query unfinished.
    ///   - key: The query's key, or the label of a keyless promise.
    public func stub(_ outcome: QueryOutcome, for key: String) {
        mayHoldStubs.store(true, ordering: .releasing)
        state.withLock { $0.stubs[key] = outcome }
    }

    /// Whether a render applying a value this cache delivered may hand it to the components it
    /// evaluates again without reading it back (`RenderScope.delivered`): the value is the one
    /// stored, nothing expires or goes stale, and no stub is to be noted as asked for.
    var servesDeliveredValues: Bool {
        clock == nil && !mayHoldStubs.load(ordering: .acquiring)
    }

    /// Counts a read of a value a render was delivered as a hit, as the read in the table would.
    func countDeliveredHit() {
        deliveredHits.wrappingAdd(1, ordering: .relaxed)
    }

    /// The stubbed outcome for a query key or keyless-promise label, if a test gave one.
    func stubbedOutcome(for key: String) -> QueryOutcome? {
        guard mayHoldStubs.load(ordering: .acquiring) else { return nil }
        return state.withLock { state in
            if !state.stubs.isEmpty { state.asked.insert(key) }
            return state.stubs[key]
        }
    }

    /// The query keys and keyless-promise labels that renders with this cache asked for, once
    /// it has stubs (a cache without stubs records nothing): what a test compares with the
    /// outcomes it fixed, to find one that no query used.
    package var askedQueries: Set<String> {
        state.withLock { $0.asked }
    }

    /// Each stubbed value that a component read as another type than the stub's, in order.
    package var stubTypeMismatches: [QueryTypeMismatch] {
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
        case nil: return false
        }
    }

    /// Forgets what is stored or stubbed under `key` (a value, a failure, or an outcome fixed
    /// with ``stub(_:for:)``), so that the next reader runs its query again. A run of the key
    /// in flight is not stopped, and the renders already waiting on it get its result, but it
    /// is not stored: it may have read the data before the change that made you remove it.
    /// A cache made with a ``QueryStore`` invalidates the key there too, and so do
    /// ``invalidate(prefix:)`` and ``invalidate(tag:)``.
    public func removeValue(for key: String) {
        state.withLock {
            $0.removeStored(key)
            $0.stubs.removeValue(forKey: key)
        }
        shared.publish(.key(key))
    }

    /// Forgets every stored result and every stub. Runs in flight go on for the renders waiting
    /// on them, but their results are not stored (see ``removeValue(for:)``). A ``QueryStore``
    /// is left as it is.
    public func removeAll() {
        state.withLock {
            $0.removeAllStored()
            $0.stubs.removeAll()
        }
    }

    /// Forgets what is stored or stubbed under every key that begins with `prefix` (a plain
    /// string prefix: `"user/42/"` matches `"user/42/posts"` but not `"user/420"`, while
    /// `"user/42"` matches both), as ``removeValue(for:)`` does for one key: runs of those keys
    /// in flight are not stored. It looks at every key of the cache; reads never do.
    public func invalidate(prefix: String) {
        state.withLock { state in
            for key in state.table.keys(where: { $0.hasPrefix(prefix) }) { state.removeStored(key) }
            for key in state.storedWhileRunning.keys where key.hasPrefix(prefix) { state.removeStored(key) }
            if !state.stubs.isEmpty { state.stubs = state.stubs.filter { !$0.key.hasPrefix(prefix) } }
        }
        shared.publish(.prefix(prefix))
    }

    /// Forgets what is stored under every key read with `tag` (`resolveValue(key:tags:query:)`),
    /// as ``removeValue(for:)`` does for one key: runs of those keys in flight are not stored.
    /// A key read again with the tag after this is tagged again.
    public func invalidate(tag: String) {
        state.withLock { state in
            guard let tagged = state.tagged.removeValue(forKey: tag) else { return }
            for key in tagged.keys { state.removeStored(key) }
        }
        shared.publish(.tag(tag))
    }

    /// Notes that `key` was read with `tags` in the current render. Not API.
    @usableFromInline
    static func _tag(_ key: String, with tags: [String]) {
        guard !tags.isEmpty, let cache = RenderScope.current?.cache else { return }
        cache.state.withLock { $0.addTags(tags, to: key) }
    }

    /// Forgets the failures a render met, in the cache and in what the render keeps, so that
    /// its components run those queries again (an ErrorBoundary trying its content again).
    func dropFailures(_ met: QueryMailbox.FailuresMet) {
        met.mailbox.forgetKeptFailures(met.keys)
        dropFailures(met.keys)
    }

    /// Forgets the failures stored under `keys` (`.dropAfterRender`, when a render that met
    /// them ends); a key that holds a value by now keeps it.
    func dropFailures(_ keys: Set<String>) {
        guard !keys.isEmpty else { return }
        state.withLock { state in
            for key in keys {
                guard case .failure? = state.entry(key, now: nil) else { continue }
                if state.running(key) != nil {
                    // Stored by hand while a run is in flight: the run goes on, and is kept.
                    _ = state.takeStoredWhileRunning(key)
                } else {
                    state.removeStored(key)
                }
            }
        }
    }
}
