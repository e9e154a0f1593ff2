import Testing

@testable import SuspenseKit

/// Queries started before a render (`prefetch`), and invalidation of many keys at once (by
/// prefix, by tag).
@Suite(.timeLimit(.minutes(3)))
struct CachePrefetchTests {
    /// Reads `key`, with `tags`, counting the runs of its own query.
    struct Reader: Component {
        let value: String
        init(_ key: String, tags: [String] = [], runs: Counter, gate: Counter? = nil) throws {
            value = try resolveValue(key: key, tags: tags) {
                runs.increment()
                if let gate { try await waitUntil("the gate to open") { gate.value > 0 } }
                return "rendered \(key)"
            }
        }
        var body: some Component { Text(value) }
    }

    /// A query for `prefetch`, counting its runs, waiting on `gate` when there is one.
    static func query(
        _ value: String, runs: Counter, gate: Counter? = nil, failing: Bool = false
    ) -> @Sendable () async throws -> String {
        {
            runs.increment()
            if let gate { try await waitUntil("the gate to open") { gate.value > 0 } }
            if failing { throw TestFailure("offline") }
            return value
        }
    }

    @Test func aRenderJoinsAPrefetchAndTheQueryRunsOnce() async throws {
        let cache = QueryCache()
        let prefetchRuns = Counter()
        let renderRuns = Counter()
        let gate = Counter()
        cache.prefetch(key: "user/1", query: Self.query("prefetched", runs: prefetchRuns, gate: gate))
        try await waitUntil("the prefetch to start") { prefetchRuns.value == 1 }
        let page = Suspense {
            try Reader("user/1", runs: renderRuns)
        } fallback: {
            Text("Loading…")
        }
        let rendering = Task { try await render(page, as: .plain, cache: cache) }
        try await waitUntil("the render to join the prefetch") { cache.subscriberCount(of: "user/1") == 1 }
        gate.increment()
        #expect(try await rendering.value == "prefetched")
        #expect(prefetchRuns.value == 1)
        #expect(renderRuns.value == 0)
        #expect(cache.statistics.misses == 1)
        #expect(cache.statistics.coalesced == 1)
        #expect(cache.value(for: "user/1", as: String.self) == "prefetched")
    }

    @Test func aPrefetchFinishedBeforeTheRenderIsAHit() async throws {
        let cache = QueryCache()
        let runs = Counter()
        cache.prefetch(key: "user/1", query: Self.query("prefetched", runs: runs))
        await cache.runningTask(for: "user/1")?.value
        #expect(try await render(Reader("user/1", runs: runs), as: .plain, cache: cache) == "prefetched")
        #expect(runs.value == 1)
        #expect(cache.statistics.hits == 1)
    }

    @Test(arguments: [QueryCache.FailureRetention.keep, .dropAfterRender])
    func aFailedPrefetchIsStoredNotThrown(failures: QueryCache.FailureRetention) async throws {
        let cache = QueryCache(failures: failures)
        let runs = Counter()
        let renderRuns = Counter()
        // Returns at once, and throws nothing: the failure is the cache's.
        cache.prefetch(key: "user/1", query: Self.query("unused", runs: runs, failing: true))
        await cache.runningTask(for: "user/1")?.value
        #expect(cache.contains("user/1"))
        let page = ErrorBoundary {
            try Reader("user/1", runs: renderRuns)
        } fallback: {
            Text("failed: \($0)")
        }
        // The first render meets the stored failure without running its query.
        #expect(try await render(page, as: .plain, cache: cache) == "failed: offline")
        #expect(renderRuns.value == 0)
        // Kept for later renders, or forgotten once the render that met it ended.
        #expect(cache.contains("user/1") == (failures == .keep))
        #expect(runs.value == 1)
    }

    @Test func aPrefetchOfAStoredOrRunningKeyDoesNothing() async throws {
        let cache = QueryCache()
        let runs = Counter()
        let gate = Counter()
        cache.store("stored", for: "user/1")
        cache.prefetch(key: "user/1", query: Self.query("prefetched", runs: runs))
        #expect(cache.runningQueryCount == 0)
        #expect(cache.value(for: "user/1", as: String.self) == "stored")
        cache.prefetch(key: "user/2", query: Self.query("first", runs: runs, gate: gate))
        cache.prefetch(key: "user/2", query: Self.query("second", runs: runs, gate: gate))
        try await waitUntil("the prefetch to start") { runs.value == 1 }
        gate.increment()
        await cache.runningTask(for: "user/2")?.value
        #expect(runs.value == 1)
        #expect(cache.value(for: "user/2", as: String.self) == "first")
        #expect(cache.statistics.misses == 1)
    }

    @Test func aPrefetchIsNotCancelledWhenAJoiningRenderLeaves() async throws {
        let cache = QueryCache()
        let runs = Counter()
        let gate = Counter()
        cache.prefetch(key: "slow", query: Self.query("prefetched", runs: runs, gate: gate))
        // The render that joined it is cancelled, and leaves the run.
        let page = Suspense {
            try Reader("slow", runs: runs)
        } fallback: {
            Text("Loading…")
        }
        let rendering = Task { try await render(page, as: .plain, cache: cache) }
        try await waitUntil("the render to join the prefetch") { cache.subscriberCount(of: "slow") == 1 }
        rendering.cancel()
        _ = try? await rendering.value
        #expect(cache.runningQueryCount == 1)
        gate.increment()
        await cache.runningTask(for: "slow")?.value
        #expect(cache.value(for: "slow", as: String.self) == "prefetched")
        #expect(runs.value == 1)
    }

    @Test func aPrefetchInvalidatedWhileItRunsIsNotStoredNorEvicted() async throws {
        let cache = QueryCache(capacity: 1)
        let runs = Counter()
        let gate = Counter()
        cache.prefetch(key: "user/1", query: Self.query("stale", runs: runs, gate: gate))
        try await waitUntil("the prefetch to start") { runs.value == 1 }
        // Stores beyond the capacity evict stored results, never the run in flight.
        cache.store("a", for: "a")
        cache.store("b", for: "b")
        #expect(cache.runningQueryCount == 1)
        #expect(cache.statistics.evictions == 1)
        let task = cache.runningTask(for: "user/1")
        cache.invalidate(prefix: "user/")
        gate.increment()
        await task?.value
        #expect(!cache.contains("user/1"))
        #expect(cache.runningQueryCount == 0)
    }

    @Test func invalidatingAPrefixIsAPlainStringPrefix() {
        let cache = QueryCache()
        for key in ["user/42/profile", "user/42/posts", "user/420", "user/4", "team/42/user"] {
            cache.store(key, for: key)
        }
        cache.stub(.value("stubbed"), for: "user/42/stubbed")
        cache.invalidate(prefix: "user/42/")
        #expect(!cache.contains("user/42/profile") && !cache.contains("user/42/posts"))
        #expect(cache.contains("user/420") && cache.contains("user/4") && cache.contains("team/42/user"))
        #expect(cache.stubbedOutcome(for: "user/42/stubbed") == nil)
        // Without the slash, the neighbour goes too.
        cache.invalidate(prefix: "user/42")
        #expect(!cache.contains("user/420") && cache.contains("user/4"))
        #expect(cache.statistics.entries == 2)
    }

    @Test func invalidatingATagForgetsTheKeysReadWithIt() async throws {
        struct Page: Component {
            let runs: Counter
            var body: some Component {
                Group {
                    try Reader("profile/1", tags: ["user/1"], runs: runs)
                    try Reader("feed/home", tags: ["user/1", "feed"], runs: runs)
                    try Reader("profile/2", tags: ["user/2"], runs: runs)
                    try Reader("settings", runs: runs)
                }
            }
        }
        let cache = QueryCache()
        let runs = Counter()
        _ = try await render(Page(runs: runs), as: .plain, cache: cache)
        #expect(runs.value == 4)
        cache.invalidate(tag: "user/1")
        #expect(!cache.contains("profile/1") && !cache.contains("feed/home"))
        #expect(cache.contains("profile/2") && cache.contains("settings"))
        // The next render runs the two again, and tags them again.
        _ = try await render(Page(runs: runs), as: .plain, cache: cache)
        #expect(runs.value == 6)
        cache.invalidate(tag: "feed")
        #expect(!cache.contains("feed/home") && cache.contains("profile/1"))
        cache.invalidate(tag: "unknown")
        #expect(cache.statistics.entries == 3)
    }

    @Test func invalidatingATagDiscardsItsRunsInFlight() async throws {
        let cache = QueryCache()
        let runs = Counter()
        let gate = Counter()
        let rendering = Task {
            try await render(Reader("profile/1", tags: ["user/1"], runs: runs, gate: gate), as: .plain, cache: cache)
        }
        try await waitUntil("the query to start") { runs.value == 1 }
        cache.invalidate(tag: "user/1")
        gate.increment()
        // The waiting render gets the run's result, which is not stored.
        #expect(try await rendering.value == "rendered profile/1")
        #expect(!cache.contains("profile/1"))
    }

    @Test func aTagKeepsNoMoreKeysThanTheCacheOnceEvicted() async throws {
        struct Many: Component {
            let runs: Counter
            var body: some Component {
                ForEach(0..<1000) { index in try Reader("k\(index)", tags: ["all"], runs: runs) }
            }
        }
        let cache = QueryCache(capacity: 10)
        _ = try await render(Many(runs: Counter()), as: .plain, cache: cache)
        let tagged = cache.state.withLock { $0.tagged["all"]?.keys.count ?? 0 }
        // Pruned of evicted keys each time it doubles: in proportion to the capacity.
        #expect(tagged < 200)
        cache.invalidate(tag: "all")
        #expect(cache.statistics.entries == 0)
    }
}
