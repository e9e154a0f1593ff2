// A cache's second tier: its `QueryStore`, consulted inside a run of a key read with a scope
// (`resolveValue(key:scope:tags:query:)`). The run's query is wrapped: the wrapper asks the store,
// claims a cold key, runs the query once among the processes and sets its value. In-process
// coalescing, stubs and invalidation are the first tier's, untouched: the wrapper is only the
// query that tier runs. Every store call is bounded (`withinTimeout`), so the store can make a
// render wait at most a timeout per call, and never fail it.

/// Where a ``QueryCache`` keeps its second tier: set once, as the cache is made with a store.
final class SharedTierSlot: Sendable {
    private let box = Locked<SharedTier?>(nil)

    /// Set while the cache applies an invalidation the store told it of: the cache's
    /// invalidation methods then do not send it back to the store.
    @TaskLocal static var isApplyingStoreInvalidation = false

    var tier: SharedTier? { box.withLock { $0 } }

    func attach(_ tier: SharedTier) {
        box.withLock { $0 = tier }
    }

    /// Notes an invalidation made on the cache and sends it to the store, unless it came from
    /// there. Nothing without a store.
    func publish(_ invalidation: QueryStoreInvalidation) {
        guard let tier else { return }
        tier.noteInvalidation(invalidation)
        guard !Self.isApplyingStoreInvalidation else { return }
        tier.send(invalidation)
    }
}

extension QueryCache {
    /// The second tier of the render's cache, when it has one.
    static var currentSharedTier: SharedTier? {
        RenderScope.current?.cache.shared.tier
    }
}

/// A cache's store and how it is used.
final class SharedTier: Sendable {
    let store: any QueryStore
    let options: QueryCache.StoreOptions
    /// The invalidations noted lately, so that a run that began before one of them does not set
    /// its (possibly stale) value in the store.
    private let ledger = Locked(InvalidationLedger())

    init(store: any QueryStore, options: QueryCache.StoreOptions) {
        self.store = store
        self.options = options
    }

    /// Reads `key` from the store, or runs `query` in one process only and sets its value there;
    /// runs `query` here whenever the store fails or is too slow.
    func run<Value: Codable & Sendable>(
        key: String, tags: [String], query: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        let store = store
        switch try await call(.read, key, { try await store.value(for: key, as: Value.self) }) {
        case .success(let value?): return value
        case .success(nil): break
        case .failure: return try await query()
        }
        let claimWait = options.claimWait
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: claimWait)
        var pause = Duration.milliseconds(5)
        while true {
            switch try await call(.claim, key, { try await store.claim(key, for: claimWait) }) {
            case .success(.won): return try await runClaimed(key: key, tags: tags, query: query)
            case .success(.lost): break
            case .failure: return try await query()
            }
            // Another process runs the key: its value comes to the store, or its claim ends.
            let left = clock.now.duration(to: deadline)
            guard left > .zero else {
                report(.wait, key, QueryStoreTimeout(after: claimWait))
                return try await query()
            }
            try await Task.sleep(for: min(pause, left))
            pause = min(pause * 2, .milliseconds(100))
            switch try await call(.read, key, { try await store.value(for: key, as: Value.self) }) {
            case .success(let value?): return value
            case .success(nil): continue
            case .failure: return try await query()
            }
        }
    }

    /// The run of a process that won the claim of `key`.
    private func runClaimed<Value: Codable & Sendable>(
        key: String, tags: [String], query: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        let store = store
        let mark = ledger.withLock { $0.mark }
        // A process that held the claim and released it since this one read set its value.
        if case .success(let value?) = try await call(.read, key, { try await store.value(for: key, as: Value.self) }) {
            await release(key)
            return value
        }
        let value: Value
        do {
            value = try await query()
        } catch {
            await release(key)
            throw error
        }
        // An invalidation of the key since the query began: its value may predate the change.
        if !ledger.withLock({ $0.mayHaveInvalidated(key, tags: tags, since: mark) }) {
            let lifetime = options.lifetime
            _ = try? await call(.write, key) {
                try await store.setValue(value, for: key, lifetime: lifetime, tags: tags)
            }
        }
        await release(key)
        return value
    }

    /// Ends this process's claim of `key`, whatever became of its run (a cancelled one too).
    private func release(_ key: String) async {
        let store = store
        let options = options
        do {
            try await withinTimeout(options.timeout) { try await store.release(key) }
        } catch {
            options.onError?(QueryStoreFailure(operation: .release, key: key, error: error))
        }
    }

    /// One store call, bounded by the timeout: its result, or its failure (reported). Throws
    /// only when the run was cancelled (the renders waiting on it left).
    private func call<Result: Sendable>(
        _ operation: QueryStoreFailure.Operation, _ key: String,
        _ body: @escaping @Sendable () async throws -> Result
    ) async throws -> Swift.Result<Result, any Error> {
        do {
            return .success(try await withinTimeout(options.timeout, body))
        } catch {
            try Task.checkCancellation()
            report(operation, key, error)
            return .failure(error)
        }
    }

    private func report(_ operation: QueryStoreFailure.Operation, _ key: String, _ error: any Error) {
        options.onError?(QueryStoreFailure(operation: operation, key: key, error: error))
    }

    /// Notes an invalidation of this process's cache (made here or told by the store).
    func noteInvalidation(_ invalidation: QueryStoreInvalidation) {
        ledger.withLock { $0.note(invalidation) }
    }

    /// Sends an invalidation made on the cache to the store, in a task of its own: the cache's
    /// invalidation methods do not wait on a network.
    func send(_ invalidation: QueryStoreInvalidation) {
        let (store, options) = (store, options)
        Task {
            do {
                try await withinTimeout(options.timeout) { try await store.invalidate(invalidation) }
            } catch {
                let named: String
                switch invalidation {
                case .key(let key): named = key
                case .prefix(let prefix): named = "prefix " + prefix
                case .tag(let tag): named = "tag " + tag
                }
                options.onError?(QueryStoreFailure(operation: .invalidate, key: named, error: error))
            }
        }
    }
}

/// The last invalidations a cache noted, numbered, for a run to learn whether one named its key
/// since it began.
struct InvalidationLedger {
    private(set) var mark: UInt64 = 0
    private var recent: [(number: UInt64, invalidation: QueryStoreInvalidation)] = []
    /// How many are kept: a run that began before the oldest kept one assumes it was invalidated.
    private static let kept = 64

    mutating func note(_ invalidation: QueryStoreInvalidation) {
        mark += 1
        if recent.count == Self.kept { recent.removeFirst() }
        recent.append((mark, invalidation))
    }

    /// Whether an invalidation noted after `since` may have named `key`, set with `tags`.
    func mayHaveInvalidated(_ key: String, tags: [String], since: UInt64) -> Bool {
        guard mark > since else { return false }
        if let oldest = recent.first?.number, oldest > since + 1 { return true }
        return recent.contains { $0.number > since && $0.invalidation.matches(key, tags: tags) }
    }
}
