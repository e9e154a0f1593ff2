import SuspenseTesting
import Testing

@testable import SuspenseKit

/// A cache's second tier (`QueryCache(store:)`): read inside a run, a cold key run once among the
/// caches sharing the store, every store call bounded, invalidations both ways, scoped keys.
/// Several caches on one `MemoryQueryStore` play several processes.
@Suite(.timeLimit(.minutes(3)))
struct QueryStoreTests {
    /// Reads `key` in `scope`, counting the runs of its query, waiting on `gate` when given.
    struct Reader: Component {
        let value: String
        init(
            _ key: String, scope: QueryScope = .shared, tags: [String] = [], runs: Counter,
            gate: Counter? = nil, loading: String? = nil
        ) throws {
            value = try resolveValue(key: key, scope: scope, tags: tags) {
                runs.increment()
                if let gate { try await waitUntil("the gate to open") { gate.value > 0 } }
                return loading ?? "loaded \(key)"
            }
        }
        var body: some Component { Text(value) }
    }

    static func page(
        _ key: String, scope: QueryScope = .shared, tags: [String] = [], runs: Counter, gate: Counter? = nil
    ) -> some Component {
        Suspense {
            try Reader(key, scope: scope, tags: tags, runs: runs, gate: gate)
        } fallback: {
            Text("Loading…")
        }
    }

    static func cache(
        _ store: MemoryQueryStore, errors: StoreErrors? = nil, timeout: Duration = .seconds(30),
        claimWait: Duration = .seconds(30)
    ) -> QueryCache {
        var options = QueryCache.StoreOptions(timeout: timeout, claimWait: claimWait)
        if let errors {
            options.onError = { errors.record($0) }
        }
        return QueryCache(store: store, storeOptions: options)
    }

    @Test func aMissInBothTiersRunsTheQueryOnceAndSetsItsValueInTheStore() async throws {
        let store = MemoryQueryStore()
        let cache = Self.cache(store)
        let runs = Counter()
        #expect(try await render(Self.page("article/1", runs: runs), as: .plain, cache: cache) == "loaded article/1")
        #expect(runs.value == 1)
        #expect(store.keys == ["article/1"])
        #expect(store.claimsWon.value == 1)
        #expect(store.releases.value == 1)
        // The first tier answers the next render: the store is not asked again.
        let reads = store.reads.value
        #expect(try await render(Self.page("article/1", runs: runs), as: .plain, cache: cache) == "loaded article/1")
        #expect(store.reads.value == reads)
        #expect(runs.value == 1)
    }

    @Test func aValueAnotherProcessSetIsReadWithoutRunningTheQuery() async throws {
        let store = MemoryQueryStore()
        try store.preload("from another process", for: "article/1")
        let cache = Self.cache(store)
        let runs = Counter()
        #expect(
            try await render(Self.page("article/1", runs: runs), as: .plain, cache: cache)
                == "from another process")
        #expect(runs.value == 0)
        #expect(store.claimsWon.value + store.claimsLost.value == 0)
        #expect(cache.value(for: "article/1", as: String.self) == "from another process")
    }

    @Test func twoProcessesRacingOnAColdKeyRunItsQueryOnce() async throws {
        let store = MemoryQueryStore()
        let (first, second) = (Self.cache(store), Self.cache(store))
        let runs = Counter()
        let gate = Counter()
        let one = Task { try await render(Self.page("cold", runs: runs, gate: gate), as: .plain, cache: first) }
        try await waitUntil("the first process to claim the key") { store.claimsWon.value == 1 && runs.value == 1 }
        let two = Task { try await render(Self.page("cold", runs: runs, gate: gate), as: .plain, cache: second) }
        try await waitUntil("the second process to lose the claim") { store.claimsLost.value >= 1 }
        gate.increment()
        #expect(try await one.value == "loaded cold")
        #expect(try await two.value == "loaded cold")
        #expect(runs.value == 1)
        #expect(store.writes.value == 1)
    }

    @Test func aValueSetBetweenTheReadAndTheClaimIsReadNotRunAgain() async throws {
        let store = MemoryQueryStore()
        // Another process ran the key, set its value and released its claim after this
        // process's read found nothing, before its claim.
        store.beforeNextClaim { try? store.preload("set meanwhile", for: "cold") }
        let cache = Self.cache(store)
        let runs = Counter()
        #expect(try await render(Self.page("cold", runs: runs), as: .plain, cache: cache) == "set meanwhile")
        #expect(runs.value == 0)
        #expect(store.claimsWon.value == 1)
        #expect(store.releases.value == 1)
    }

    @Test func aRunCancelledWhileItHoldsTheClaimReleasesIt() async throws {
        let store = MemoryQueryStore()
        let cache = Self.cache(store)
        let runs = Counter()
        let rendering = Task {
            try await render(Self.page("cold", runs: runs, gate: Counter()), as: .plain, cache: cache)
        }
        try await waitUntil("the query to start") { runs.value == 1 }
        rendering.cancel()
        _ = await rendering.result
        try await waitUntil("the claim to be released") { store.releases.value == 1 }
        #expect(store.writes.value == 0)
        #expect(try await store.claim("cold", for: .seconds(1)) == .won)
    }

    @Test func aProcessThatLostTheClaimRunsTheQueryAfterTheClaimWait() async throws {
        let store = MemoryQueryStore()
        let errors = StoreErrors()
        // Another process claimed the key and never answers.
        store.claimFromElsewhere("cold")
        let cache = Self.cache(store, errors: errors, claimWait: .milliseconds(50))
        let runs = Counter()
        #expect(try await render(Self.page("cold", runs: runs), as: .plain, cache: cache) == "loaded cold")
        #expect(runs.value == 1)
        #expect(errors.operations == [.wait])
        #expect(errors.all.first?.error is QueryStoreTimeout)
    }

    @Test(arguments: [true, false])
    func aProcessWaitingOnAClaimTakesItsValueOrRunsTheQueryWhenTheWinnerFailed(winnerSets: Bool) async throws {
        let store = MemoryQueryStore()
        store.claimFromElsewhere("cold")
        let cache = Self.cache(store)
        let runs = Counter()
        let rendering = Task { try await render(Self.page("cold", runs: runs), as: .plain, cache: cache) }
        try await waitUntil("the cache to wait on the other process") { store.claimsLost.value >= 2 }
        try store.releaseFromElsewhere("cold", setting: winnerSets ? "set by the winner" : nil)
        #expect(try await rendering.value == (winnerSets ? "set by the winner" : "loaded cold"))
        #expect(runs.value == (winnerSets ? 0 : 1))
    }

    @Test func aStoreThatIsDownMakesTheRenderRunTheQuery() async throws {
        let store = MemoryQueryStore()
        store.isDown = true
        let errors = StoreErrors()
        let cache = Self.cache(store, errors: errors)
        let runs = Counter()
        #expect(try await render(Self.page("article/1", runs: runs), as: .plain, cache: cache) == "loaded article/1")
        #expect(runs.value == 1)
        #expect(errors.operations == [.read])
        #expect(errors.all.first?.error is MemoryQueryStore.Down)
        #expect(cache.value(for: "article/1", as: String.self) == "loaded article/1")
    }

    @Test func aStoreThatHangsIsGivenUpAfterTheTimeoutAndTheQueryRuns() async throws {
        let store = MemoryQueryStore()
        store.hangs = true
        let errors = StoreErrors()
        let cache = Self.cache(store, errors: errors, timeout: .milliseconds(20))
        let runs = Counter()
        #expect(try await render(Self.page("article/1", runs: runs), as: .plain, cache: cache) == "loaded article/1")
        #expect(runs.value == 1)
        #expect(errors.operations == [.read])
        #expect(errors.all.first?.error is QueryStoreTimeout)
        // The call given up on was cancelled, not left running.
        try await waitUntil("the hung call to be cancelled") { store.cancelledCalls.value == 1 }
    }

    @Test func invalidationsOnTheCacheGoToTheStore() async throws {
        let store = MemoryQueryStore()
        let cache = Self.cache(store)
        let runs = Counter()
        _ = try await render(
            Group {
                try Reader("user/1", tags: ["users"], runs: runs)
                try Reader("post/1", runs: runs)
                try Reader("post/2", runs: runs)
            }, as: .plain, cache: cache)
        #expect(store.keys == ["post/1", "post/2", "user/1"])
        cache.removeValue(for: "post/1")
        cache.invalidate(prefix: "post/")
        cache.invalidate(tag: "users")
        try await waitUntil("the store to get the invalidations") { store.invalidations.count == 3 }
        #expect(Set(store.invalidations) == [.key("post/1"), .prefix("post/"), .tag("users")])
        #expect(store.keys.isEmpty)
        #expect(!cache.contains("user/1") && !cache.contains("post/2"))
        // Emptying one process's cache leaves the shared tier alone.
        try store.preload("kept", for: "config")
        cache.removeAll()
        #expect(store.keys == ["config"])
    }

    @Test(arguments: [QueryStoreInvalidation.key("post/1"), .prefix("post/"), .tag("posts")])
    func anotherProcesssInvalidationDropsTheKeyFromTheFirstTier(invalidation: QueryStoreInvalidation) async throws {
        let store = MemoryQueryStore()
        let cache = Self.cache(store)
        let runs = Counter()
        _ = try await render(Self.page("post/1", tags: ["posts"], runs: runs), as: .plain, cache: cache)
        #expect(cache.contains("post/1"))
        store.invalidateFromElsewhere(invalidation)
        #expect(!cache.contains("post/1"))
        // Not sent back to the store: an invalidation made here after it arrives alone.
        cache.removeValue(for: "other")
        try await waitUntil("the store to get the cache's invalidation") { !store.invalidations.isEmpty }
        #expect(store.invalidations == [.key("other")])
        // The next render asks the store, finds nothing, and runs the query again.
        _ = try await render(Self.page("post/1", tags: ["posts"], runs: runs), as: .plain, cache: cache)
        #expect(runs.value == 2)
    }

    @Test func aRunInvalidatedWhileInFlightSetsNothingInTheStore() async throws {
        let store = MemoryQueryStore()
        let cache = Self.cache(store)
        let runs = Counter()
        let gate = Counter()
        let rendering = Task {
            try await render(Self.page("post/1", runs: runs, gate: gate), as: .plain, cache: cache)
        }
        try await waitUntil("the query to start") { runs.value == 1 }
        // The data changes while the query runs: its value may predate the change.
        cache.removeValue(for: "post/1")
        gate.increment()
        // The render waiting on the run still gets its result.
        #expect(try await rendering.value == "loaded post/1")
        #expect(store.writes.value == 0)
        #expect(store.keys.isEmpty)
        #expect(store.releases.value == 1)
    }

    @Test func aPrefetchGoesThroughTheStore() async throws {
        let store = MemoryQueryStore()
        try store.preload("from another process", for: "user:ann:cart")
        let cache = Self.cache(store)
        let runs = Counter()
        cache.prefetch(key: "cart", scope: .user("ann")) {
            runs.increment()
            return "loaded"
        }
        cache.prefetch(key: "article/1", scope: .shared, tags: ["articles"]) {
            runs.increment()
            return "loaded article/1"
        }
        await cache.runningTask(for: "user:ann:cart")?.value
        await cache.runningTask(for: "article/1")?.value
        #expect(cache.value(for: "user:ann:cart", as: String.self) == "from another process")
        #expect(store.keys == ["article/1", "user:ann:cart"])
        #expect(runs.value == 1)
        cache.invalidate(tag: "articles")
        #expect(!cache.contains("article/1"))
    }

    @Test func userScopedKeysNameTheUserAndAreNotShared() async throws {
        let store = MemoryQueryStore()
        let cache = Self.cache(store)
        let runs = Counter()
        let page = Group {
            try Reader("cart", scope: .user("ann"), runs: runs, loading: "ann's cart")
            try Reader("cart", scope: .user("bob:1"), runs: runs, loading: "bob's cart")
        }
        #expect(try await render(page, as: .plain, cache: cache) == "ann's cartbob's cart")
        #expect(runs.value == 2)
        #expect(store.keys == ["user:ann:cart", "user:bob%3A1:cart"])
        #expect(QueryScope.shared.key("cart") == "cart")
        #expect(QueryScope.user("50%:x").key("") == "user:50%25%3Ax:")
        // Every key of one user, by prefix.
        cache.invalidate(prefix: QueryScope.user("ann").key(""))
        #expect(!cache.contains("user:ann:cart"))
        #expect(cache.contains("user:bob%3A1:cart"))
    }

    @Test func keysReadWithoutAScopeNeverReachTheStore() async throws {
        let store = MemoryQueryStore()
        let cache = Self.cache(store)
        let value = try await render(
            Suspense {
                try Text(resolveValue(key: "session") { "private" })
            } fallback: {
                Text("Loading…")
            }, as: .plain, cache: cache)
        #expect(value == "private")
        #expect(store.reads.value == 0)
        #expect(store.keys.isEmpty)
    }

    @Test func aScopedReadWithoutAStoreStaysInProcess() async throws {
        let cache = QueryCache()
        let runs = Counter()
        #expect(
            try await render(Self.page("cart", scope: .user("ann"), runs: runs), as: .plain, cache: cache)
                == "loaded cart")
        #expect(cache.value(for: "user:ann:cart", as: String.self) == "loaded cart")
        #expect(cache.queryStore == nil)
    }

    @Test func aValueTheStoreCannotDecodeIsReportedAndTheQueryRuns() async throws {
        let store = MemoryQueryStore()
        try store.preload(42, for: "article/1")
        let errors = StoreErrors()
        let cache = Self.cache(store, errors: errors)
        let runs = Counter()
        #expect(try await render(Self.page("article/1", runs: runs), as: .plain, cache: cache) == "loaded article/1")
        #expect(runs.value == 1)
        #expect(errors.operations == [.read])
    }

    @Test func aStaleValuesRefreshGoesThroughTheStore() async throws {
        let store = MemoryQueryStore()
        let clock = TestClock()
        let cache = QueryCache(store: store, freshFor: .seconds(10), staleFor: .seconds(60), clock: clock)
        let runs = Counter()
        #expect(try await render(Self.page("article/1", runs: runs), as: .plain, cache: cache) == "loaded article/1")
        #expect(runs.value == 1)
        // Another process wrote a newer value; this process's copy goes stale.
        try store.preload("newer", for: "article/1")
        clock.advance(by: .seconds(20))
        // Served at once, stale, while the refresh reads the store instead of running the query.
        #expect(try await render(Self.page("article/1", runs: runs), as: .plain, cache: cache) == "loaded article/1")
        try await waitUntil("the refresh to store the store's value") {
            cache.value(for: "article/1", as: String.self) == "newer"
        }
        #expect(runs.value == 1)
        #expect(cache.statistics.backgroundRefreshes == 1)
        #expect(try await render(Self.page("article/1", runs: runs), as: .plain, cache: cache) == "newer")
    }
}
