extension QueryCache {
    /// How a cache uses its ``QueryStore``: every store call is bounded, so that a store that
    /// fails, is slow or is down costs a render at most a timeout before it runs the query itself.
    public struct StoreOptions: Sendable {
        /// How long one store call (a read, a write, a claim) may take before the cache gives up
        /// on it and runs the query (default 500 ms).
        public var timeout: Duration
        /// How long a process that lost the claim of a cold key waits for the winner's value
        /// before it runs the query itself (default 5 s).
        public var claimWait: Duration
        /// How long a value set in the store is used by every process (default 5 minutes). The
        /// store is shared: a value there is served until it expires or is invalidated.
        public var lifetime: Duration
        /// Called with each store call that failed or timed out; the render went on without it.
        public var onError: (@Sendable (QueryStoreFailure) -> Void)?

        /// Options for a cache's store.
        /// - Parameters:
        ///   - timeout: The bound on one store call (default 500 ms).
        ///   - claimWait: How long a process waits for another's run of a cold key (default 5 s).
        ///   - lifetime: How long a value set in the store is used (default 5 minutes).
        ///   - onError: Called with each store call that failed or timed out (a log, a metric).
        public init(
            timeout: Duration = .milliseconds(500),
            claimWait: Duration = .seconds(5),
            lifetime: Duration = .seconds(300),
            onError: (@Sendable (QueryStoreFailure) -> Void)? = nil
        ) {
            self.timeout = timeout
            self.claimWait = claimWait
            self.lifetime = lifetime
            self.onError = onError
        }
    }

    /// Creates an empty cache whose keys read with a scope
    /// (``resolveValue(key:scope:tags:query:)``) are shared with other processes through `store`.
    ///
    /// The cache itself stays the first tier, with the same defaults and parameters as
    /// ``init(capacity:failures:lifetime:clock:)``. ``removeValue(for:)``,
    /// ``invalidate(prefix:)`` and ``invalidate(tag:)`` go to the store too, and the store's
    /// invalidations from other processes drop keys from this cache. ``removeAll()`` empties this
    /// cache only: `store.invalidate(.prefix(""))` empties the store.
    /// - Parameters:
    ///   - store: The second tier, shared by the processes.
    ///   - storeOptions: How the store's calls are bounded, how long its values live, and where
    ///     its errors are reported.
    ///   - capacity: How many results this process keeps at most.
    ///   - failures: Whether a failure is kept for later renders (failures never go to the store).
    ///   - lifetime: How long a result is used in this process.
    ///   - clock: The clock `lifetime` is measured on (store calls are timed on the continuous
    ///     clock: they wait on a network).
    public convenience init(
        store: any QueryStore,
        storeOptions: StoreOptions = StoreOptions(),
        capacity: Int? = QueryCache.defaultCapacity,
        failures: FailureRetention = .dropAfterRender,
        lifetime: Duration? = nil,
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.init(capacity: capacity, failures: failures, lifetime: lifetime, clock: clock)
        attach(store, storeOptions)
    }

    /// Creates an empty cache that shares scoped keys through `store`, as
    /// ``init(store:storeOptions:capacity:failures:lifetime:clock:)`` does, and whose values in this
    /// process go stale before they expire, as with
    /// ``init(capacity:failures:freshFor:staleFor:refreshBackoff:refreshTimeout:clock:onRefreshError:)``:
    /// a stale value is served at once while one refresh runs, and that refresh goes through the
    /// store like any run.
    /// - Parameters:
    ///   - store: The second tier, shared by the processes.
    ///   - storeOptions: How the store's calls are bounded, how long its values live, and where
    ///     its errors are reported.
    ///   - capacity: How many results this process keeps at most.
    ///   - failures: Whether a failure is kept for later renders (failures never go to the store).
    ///   - freshFor: How long a value is served in this process without a refresh.
    ///   - staleFor: How long after that it is still served at once while a refresh runs.
    ///   - refreshBackoff: How long after a failed refresh of a key the next one may start.
    ///   - refreshTimeout: A soft limit on a refresh, reported to `onRefreshError`.
    ///   - clock: The clock ages are measured on.
    ///   - onRefreshError: Called with the key and the error when a refresh fails or runs long.
    public convenience init(
        store: any QueryStore,
        storeOptions: StoreOptions = StoreOptions(),
        capacity: Int? = QueryCache.defaultCapacity,
        failures: FailureRetention = .dropAfterRender,
        freshFor: Duration,
        staleFor: Duration,
        refreshBackoff: Duration = .seconds(5),
        refreshTimeout: Duration? = nil,
        clock: any Clock<Duration> = ContinuousClock(),
        onRefreshError: @escaping @Sendable (_ key: String, _ error: any Error) -> Void = { _, _ in }
    ) {
        self.init(
            capacity: capacity, failures: failures, freshFor: freshFor, staleFor: staleFor,
            refreshBackoff: refreshBackoff, refreshTimeout: refreshTimeout, clock: clock,
            onRefreshError: onRefreshError)
        attach(store, storeOptions)
    }

    /// Makes `store` this cache's second tier, and drops what other processes invalidate.
    private func attach(_ store: any QueryStore, _ options: StoreOptions) {
        shared.attach(SharedTier(store: store, options: options))
        store.observeInvalidations { [weak self] invalidation in
            self?.applyFromStore(invalidation)
        }
    }

    /// Starts `query` for `key` before any render asks for it, as ``prefetch(key:query:)`` does,
    /// going through the cache's store as ``resolveValue(key:scope:tags:query:)`` does: a value
    /// another process set is taken from there, and a value this run loads is set there.
    /// - Parameters:
    ///   - key: Identifies the query's result; the scope makes the key it is cached under.
    ///   - scope: Whose data it is (``QueryScope``).
    ///   - tags: Names under which the key can be invalidated together with others.
    ///   - query: Loads the value.
    public func prefetch<Value: Codable & Sendable>(
        key: String,
        scope: QueryScope,
        tags: [String] = [],
        query: @escaping @Sendable () async throws -> Value
    ) {
        let key = scope.key(key)
        if !tags.isEmpty { state.withLock { $0.addTags(tags, to: key) } }
        guard let tier = shared.tier else { return prefetch(key: key, query: query) }
        prefetch(key: key) { try await tier.run(key: key, tags: tags, query: query) }
    }

    /// The cache's store, when it has one.
    public var queryStore: (any QueryStore)? {
        shared.tier?.store
    }

    /// Drops what `invalidation` names from this cache, as the matching method would, without
    /// telling the store again (the store told us).
    func applyFromStore(_ invalidation: QueryStoreInvalidation) {
        shared.tier?.noteInvalidation(invalidation)
        SharedTierSlot.$isApplyingStoreInvalidation.withValue(true) {
            switch invalidation {
            case .key(let key): removeValue(for: key)
            case .prefix(let prefix): invalidate(prefix: prefix)
            case .tag(let tag): invalidate(tag: tag)
            }
        }
    }
}

/// A store call that failed or timed out (``QueryCache/StoreOptions/onError``): the render ran
/// the query itself, or went on without writing to the store.
public struct QueryStoreFailure: Error, CustomStringConvertible {
    /// What the cache asked the store.
    public enum Operation: String, Sendable {
        /// ``QueryStore/value(for:as:)``.
        case read
        /// ``QueryStore/setValue(_:for:lifetime:tags:)``.
        case write
        /// ``QueryStore/claim(_:for:)``.
        case claim
        /// ``QueryStore/release(_:)``.
        case release
        /// ``QueryStore/invalidate(_:)``.
        case invalidate
        /// Waiting for another process's value of a claimed key, past the claim wait.
        case wait
    }

    /// What the cache asked.
    public let operation: Operation
    /// The key, or what an invalidation named.
    public let key: String
    /// What the store threw, or ``QueryStoreTimeout``.
    public let error: any Error

    /// A description for logs.
    public var description: String {
        "query store \(operation.rawValue) of \"\(key)\" failed: \(error)"
    }
}

/// A store call that took longer than ``QueryCache/StoreOptions/timeout``, or a wait for another
/// process's value longer than ``QueryCache/StoreOptions/claimWait``.
public struct QueryStoreTimeout: Error, CustomStringConvertible {
    /// How long the cache waited.
    public let after: Duration

    /// A description for logs.
    public var description: String { "timed out after \(after)" }
}

/// Returns the value stored under `key` in the render's ``QueryCache``, as
/// ``resolveValue(key:query:)`` does, and shares it with other processes through the cache's
/// ``QueryStore`` when it has one.
///
/// A miss in process asks the store inside the run; a miss there runs `query` in one process
/// only (the others wait for its value) and sets the value in the store. A cache without a store
/// reads the key in process, as `resolveValue(key:query:)` does.
///
/// The scope is required, because a shared tier serves every user: `.shared` for data identical
/// for every user, `.user(id)` for one user's data, whose key then says whose. Per-user data
/// never goes to a store under a key that does not name the user.
/// - Parameters:
///   - key: Identifies the query's result; the scope makes the key it is cached under.
///   - scope: Whose data it is (``QueryScope``).
///   - tags: Names under which the key can be invalidated together with others, in process and
///     in the store.
///   - query: Loads the value; runs at most once per key per cache, and once among the
///     processes sharing the store while they agree (see ``QueryCache/StoreOptions``).
public func resolveValue<Value: Codable & Sendable>(
    key: String,
    scope: QueryScope,
    tags: [String] = [],
    query: @escaping @Sendable () async throws -> Value
) throws -> Value {
    let key = scope.key(key)
    guard let tier = QueryCache.currentSharedTier else {
        return try resolveValue(key: key, tags: tags, query: query)
    }
    return try resolveValue(key: key, tags: tags) {
        try await tier.run(key: key, tags: tags, query: query)
    }
}
