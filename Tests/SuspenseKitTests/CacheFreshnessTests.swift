import SuspenseTesting
import Testing

@testable import SuspenseKit

/// Stale while revalidate: `QueryCache(freshFor:staleFor:)` serves a stale value at once while
/// one refresh runs in the background, keeps it when the refresh fails, and reports the failure.
@Suite(.timeLimit(.minutes(3)))
struct CacheFreshnessTests {
    @TaskLocal static var requestID = "none"

    /// The data behind one key: the version a query reads now, whether it fails, and a gate the
    /// test opens. Counts the runs of its queries, and the request id each ran with.
    final class Source: Sendable {
        private let state = Locked((version: "v1", failing: false, gated: false))
        let runs = Counter()
        let gate = Counter()
        let requestIDs = Log()

        func set(version: String? = nil, failing: Bool? = nil, gated: Bool? = nil) {
            state.withLock { state in
                if let version { state.version = version }
                if let failing { state.failing = failing }
                if let gated { state.gated = gated }
            }
        }

        func load() async throws -> String {
            runs.increment()
            requestIDs.append(CacheFreshnessTests.requestID)
            let (version, failing, gated) = state.withLock { $0 }
            if gated { try await waitUntil("the gate to open") { gate.value > 0 } }
            if failing { throw TestFailure("offline") }
            return version
        }
    }

    /// Reads "user/1" from `source`.
    struct Reader: Component {
        let value: String
        init(_ source: Source) throws {
            value = try resolveValue(key: "user/1") { try await source.load() }
        }
        var body: some Component { Text(value) }
    }

    /// `count` readers of "user/1" in one `Suspense`.
    struct Page: Component {
        let source: Source
        var count = 1
        var body: some Component {
            Suspense {
                ForEach(0..<count) { _ in try Reader(source) }
            } fallback: {
                Text("Loading…")
            }
        }
    }

    /// What the hook was given, in order.
    final class Reports: Sendable {
        let log = Log()
        var hook: @Sendable (String, any Error) -> Void {
            { key, error in self.log.append("\(key): \(error)") }
        }
    }

    /// A cache fresh for 10 s and stale for 60 s more, with "user/1" stored as "v1" and now stale.
    static func staleCache(
        _ source: Source, clock: TestClock, reports: Reports = Reports(), backoff: Duration = .seconds(5),
        timeout: Duration? = nil
    ) async throws -> QueryCache {
        let cache = QueryCache(
            freshFor: .seconds(10), staleFor: .seconds(60), refreshBackoff: backoff, refreshTimeout: timeout,
            clock: clock, onRefreshError: reports.hook)
        #expect(try await render(Page(source: source), as: .plain, cache: cache) == "v1")
        clock.advance(by: .seconds(10))
        return cache
    }

    @Test func aStaleValueIsServedAtOnceWhileItsRefreshRuns() async throws {
        let clock = TestClock()
        let source = Source()
        let cache = try await Self.staleCache(source, clock: clock)
        source.set(version: "v2", gated: true)
        // The render ends while the refresh is still held at its gate: it never waited on it.
        #expect(try await render(Page(source: source), as: .plain, cache: cache) == "v1")
        try await waitUntil("the refresh to start") { source.runs.value == 2 }
        #expect(cache.runningQueryCount == 1)
        #expect(cache.statistics.backgroundRefreshes == 1)
        #expect(cache.statistics.hits == 1)
        // One frame, the value's: never the fallback's.
        let frames = try await resolveFrames(Page(source: source), cache: cache)
        #expect(frames.count == 1)
        #expect(!"\(frames)".contains("Loading"))
        #expect(source.runs.value == 2)
    }

    @Test func concurrentStaleReadsStartOneRefresh() async throws {
        let clock = TestClock()
        let source = Source()
        let cache = try await Self.staleCache(source, clock: clock)
        source.set(version: "v2", gated: true)
        let outputs = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<8 {
                group.addTask { try await render(Page(source: source, count: 20), as: .plain, cache: cache) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outputs == Array(repeating: String(repeating: "v1", count: 20), count: 8))
        #expect(cache.statistics.backgroundRefreshes == 1)
        source.gate.increment()
        await cache.runningTask(for: "user/1")?.value
        #expect(source.runs.value == 2)
        #expect(cache.statistics.backgroundRefreshes == 1)
    }

    @Test func aRefreshedValueIsFreshForTheNextRender() async throws {
        let clock = TestClock()
        let source = Source()
        let cache = try await Self.staleCache(source, clock: clock)
        source.set(version: "v2")
        #expect(try await render(Page(source: source), as: .plain, cache: cache) == "v1")
        await cache.runningTask(for: "user/1")?.value
        #expect(try await render(Page(source: source), as: .plain, cache: cache) == "v2")
        // Fresh again: read for its whole fresh time without a refresh.
        clock.advance(by: .seconds(9))
        #expect(try await render(Page(source: source), as: .plain, cache: cache) == "v2")
        #expect(source.runs.value == 2)
        #expect(cache.statistics.backgroundRefreshes == 1)
        #expect(cache.statistics.refreshFailures == 0)
    }

    @Test func aFailedRefreshKeepsTheStaleValueAndIsReportedOnce() async throws {
        let clock = TestClock()
        let source = Source()
        let reports = Reports()
        let cache = try await Self.staleCache(source, clock: clock, reports: reports)
        source.set(failing: true)
        #expect(try await render(Page(source: source), as: .plain, cache: cache) == "v1")
        try await waitUntil("the refresh to fail") { cache.statistics.refreshFailures == 1 }
        await cache.runningTask(for: "user/1")?.value
        #expect(reports.log.all == ["user/1: offline"])
        #expect(cache.value(for: "user/1", as: String.self) == "v1")
        #expect(try await render(Page(source: source), as: .plain, cache: cache) == "v1")
        #expect(source.runs.value == 2)
        #expect(reports.log.all.count == 1)
    }

    @Test func aFailingBackendIsNotRefreshedAgainBeforeTheBackoff() async throws {
        let clock = TestClock()
        let source = Source()
        let reports = Reports()
        let cache = try await Self.staleCache(source, clock: clock, reports: reports, backoff: .seconds(5))
        source.set(failing: true)
        #expect(try await render(Page(source: source), as: .plain, cache: cache) == "v1")
        try await waitUntil("the refresh to fail") { cache.statistics.refreshFailures == 1 }
        await cache.runningTask(for: "user/1")?.value
        // Many reads within the back-off: the stale value, and no refresh.
        for _ in 0..<5 {
            #expect(try await render(Page(source: source, count: 10), as: .plain, cache: cache).hasPrefix("v1"))
            clock.advance(by: .milliseconds(900))
        }
        #expect(source.runs.value == 2)
        // Past it: one refresh again, which succeeds.
        clock.advance(by: .milliseconds(500))
        source.set(version: "v2", failing: false)
        #expect(try await render(Page(source: source, count: 10), as: .plain, cache: cache).hasPrefix("v1"))
        await cache.runningTask(for: "user/1")?.value
        #expect(source.runs.value == 3)
        #expect(try await render(Page(source: source), as: .plain, cache: cache) == "v2")
        #expect(cache.statistics.backgroundRefreshes == 2)
        #expect(cache.statistics.refreshFailures == 1)
        #expect(reports.log.all.count == 1)
    }

    @Test func aRefreshPastItsSoftTimeoutIsReportedAndStillStored() async throws {
        let clock = TestClock()
        let source = Source()
        let reports = Reports()
        let cache = try await Self.staleCache(source, clock: clock, reports: reports, timeout: .seconds(2))
        source.set(version: "v2", gated: true)
        #expect(try await render(Page(source: source), as: .plain, cache: cache) == "v1")
        try await waitUntil("the soft timeout to be armed") { clock.sleeperCount == 1 }
        clock.advance(by: .seconds(2))
        try await waitUntil("the timeout to be reported") { reports.log.all.count == 1 }
        #expect(reports.log.all == ["user/1: a background refresh ran past its soft timeout of 2.0 seconds"])
        // Still served stale meanwhile, and the refresh goes on.
        #expect(try await render(Page(source: source), as: .plain, cache: cache) == "v1")
        #expect(cache.runningQueryCount == 1)
        source.gate.increment()
        await cache.runningTask(for: "user/1")?.value
        #expect(try await render(Page(source: source), as: .plain, cache: cache) == "v2")
        #expect(reports.log.all.count == 1)
        #expect(cache.statistics.refreshFailures == 0)
    }

    @Test func aRefreshThatEndsInTimeIsNotReported() async throws {
        let clock = TestClock()
        let source = Source()
        let reports = Reports()
        let cache = try await Self.staleCache(source, clock: clock, reports: reports, timeout: .seconds(2))
        source.set(version: "v2")
        #expect(try await render(Page(source: source), as: .plain, cache: cache) == "v1")
        await cache.runningTask(for: "user/1")?.value
        clock.advance(by: .seconds(5))
        #expect(reports.log.all.isEmpty)
        #expect(clock.sleeperCount == 0)
    }

    @Test func anInvalidationDuringARefreshWins() async throws {
        let clock = TestClock()
        let source = Source()
        let cache = try await Self.staleCache(source, clock: clock)
        source.set(version: "v2", gated: true)
        #expect(try await render(Page(source: source), as: .plain, cache: cache) == "v1")
        try await waitUntil("the refresh to start") { source.runs.value == 2 }
        let refresh = cache.runningTask(for: "user/1")
        // The data changes again as the refresh runs; the write invalidates the key.
        cache.removeValue(for: "user/1")
        #expect(!cache.contains("user/1"))
        source.gate.increment()
        await refresh?.value
        #expect(!cache.contains("user/1"))
        source.set(version: "v3", gated: false)
        #expect(try await render(Page(source: source), as: .plain, cache: cache) == "v3")
        #expect(source.runs.value == 3)
    }

    @Test func aRenderFindingTheValueExpiredJoinsTheRefresh() async throws {
        let clock = TestClock()
        let source = Source()
        let cache = try await Self.staleCache(source, clock: clock)
        source.set(version: "v2", gated: true)
        #expect(try await render(Page(source: source), as: .plain, cache: cache) == "v1")
        try await waitUntil("the refresh to start") { source.runs.value == 2 }
        // Past the stale window: the value is not served any more; the reader waits on the run.
        clock.advance(by: .seconds(60))
        let rendering = Task { try await render(Page(source: source), as: .plain, cache: cache) }
        try await waitUntil("the render to join the refresh") { cache.subscriberCount(of: "user/1") == 1 }
        source.gate.increment()
        #expect(try await rendering.value == "v2")
        #expect(source.runs.value == 2)
        #expect(cache.statistics.coalesced == 1)
    }

    @Test func anExpiredValueWhoseRunFailsIsAMiss() async throws {
        let clock = TestClock()
        let source = Source()
        let cache = try await Self.staleCache(source, clock: clock)
        clock.advance(by: .seconds(60))
        source.set(failing: true)
        let page = ErrorBoundary {
            Page(source: source)
        } fallback: { error in
            Text("failed: \(error)")
        }
        #expect(try await render(page, as: .plain, cache: cache) == "failed: offline")
        #expect(cache.statistics.backgroundRefreshes == 0)
        #expect(cache.statistics.expirations == 1)
    }

    @Test func aStoredFailureIsNeverServedStale() async throws {
        let clock = TestClock()
        let cache = QueryCache(failures: .keep, freshFor: .seconds(10), staleFor: .seconds(60), clock: clock)
        cache.storeFailure(TestFailure("offline"), for: "user/1")
        clock.advance(by: .seconds(9))
        #expect(cache.contains("user/1"))
        clock.advance(by: .seconds(1))
        #expect(!cache.contains("user/1"))
    }

    @Test func theRefreshKeepsTheTaskLocalsOfTheReaderThatStartedIt() async throws {
        let clock = TestClock()
        let source = Source()
        let cache = try await Self.staleCache(source, clock: clock)
        let output = try await Self.$requestID.withValue("request 2") {
            try await render(Page(source: source), as: .plain, cache: cache)
        }
        #expect(output == "v1")
        await cache.runningTask(for: "user/1")?.value
        #expect(source.requestIDs.all == ["none", "request 2"])
    }

    @Test func aCancelledRenderDoesNotCancelTheRefresh() async throws {
        let clock = TestClock()
        let source = Source()
        let cache = try await Self.staleCache(source, clock: clock)
        source.set(version: "v2", gated: true)
        let other = Source()
        other.set(gated: true)
        // The render reads the stale key, then waits on another: cancelled while it waits.
        struct TwoKeys: Component {
            let source: Source
            let other: Source
            var body: some Component {
                Suspense {
                    try Reader(source)
                    Text(try resolveValue(key: "other") { try await other.load() })
                } fallback: {
                    Text("Loading…")
                }
            }
        }
        let rendering = Task { try await render(TwoKeys(source: source, other: other), as: .plain, cache: cache) }
        try await waitUntil("both queries to start") { source.runs.value == 2 && other.runs.value == 1 }
        rendering.cancel()
        _ = try? await rendering.value
        #expect(cache.runningQueryCount == 1)
        source.gate.increment()
        await cache.runningTask(for: "user/1")?.value
        #expect(cache.value(for: "user/1", as: String.self) == "v2")
    }

    @Test func nothingOutlivesTheRendersAndTheRefresh() async throws {
        final class Tracked: Sendable {
            let live: Counter
            init(_ live: Counter) {
                self.live = live
                live.increment()
            }
            deinit { live.decrement() }
        }
        struct Holder: Component {
            let tracked: Tracked
            let value: String
            init(_ source: Source, live: Counter) throws {
                tracked = Tracked(live)
                let captured = Tracked(live)
                value = try resolveValue(key: "user/1") {
                    _ = captured
                    return try await source.load()
                }
            }
            var body: some Component { Text(value) }
        }
        let live = Counter()
        let clock = TestClock()
        let source = Source()
        let cache = try await Self.staleCache(source, clock: clock)
        source.set(version: "v2", gated: true)
        for _ in 0..<3 {
            #expect(try await render(Group { try Holder(source, live: live) }, as: .plain, cache: cache) == "v1")
        }
        // The refresh holds its query (and what it captured) until it ends, and nothing more.
        source.gate.increment()
        await cache.runningTask(for: "user/1")?.value
        try await waitUntil("every instance to be released") { live.value == 0 }
        #expect(cache.value(for: "user/1", as: String.self) == "v2")
    }

    @Test func aPrefetchRefreshesAStaleValue() async throws {
        let clock = TestClock()
        let source = Source()
        let cache = try await Self.staleCache(source, clock: clock)
        source.set(version: "v2")
        cache.prefetch(key: "user/1") { try await source.load() }
        #expect(cache.statistics.backgroundRefreshes == 1)
        await cache.runningTask(for: "user/1")?.value
        #expect(cache.value(for: "user/1", as: String.self) == "v2")
    }

    @Test func aCacheWithALifetimeHasNoStaleWindow() async throws {
        let clock = TestClock()
        let source = Source()
        let cache = QueryCache(lifetime: .seconds(10), clock: clock)
        #expect(try await render(Page(source: source), as: .plain, cache: cache) == "v1")
        clock.advance(by: .seconds(9))
        source.set(version: "v2")
        #expect(try await render(Page(source: source), as: .plain, cache: cache) == "v1")
        clock.advance(by: .seconds(1))
        #expect(try await render(Page(source: source), as: .plain, cache: cache) == "v2")
        #expect(cache.statistics.backgroundRefreshes == 0)
    }

    // MARK: Statistics

    @Test func approximateBytesCountKeysValuesAndAnOverheadPerResult() async throws {
        let overhead = QueryCache.entryOverhead
        let cache = QueryCache(capacity: 3)
        #expect(cache.statistics.approximateBytes == 0)
        cache.store("héllo", for: "a")
        #expect(cache.statistics.approximateBytes == 1 + overhead + 6)
        cache.store([UInt8](repeating: 0, count: 100), for: "bb")
        #expect(cache.statistics.approximateBytes == 1 + overhead + 6 + 2 + overhead + 100)
        cache.store(7, for: "c")
        let three = 1 + overhead + 6 + 2 + overhead + 100 + 1 + overhead + MemoryLayout<Int>.size
        #expect(cache.statistics.approximateBytes == three)
        // Replaced, removed, evicted: each gives its bytes back.
        cache.store("hi", for: "a")
        #expect(cache.statistics.approximateBytes == three - 4)
        cache.removeValue(for: "bb")
        #expect(cache.statistics.approximateBytes == three - 4 - (2 + overhead + 100))
        cache.store("x", for: "d")
        cache.store("y", for: "e")
        #expect(cache.statistics.evictions == 1)
        // "c" was the least recently used: "a" ("hi"), "d" and "e" stay.
        #expect(cache.statistics.approximateBytes == (1 + overhead + 2) + 2 * (1 + overhead + 1))
        cache.removeAll()
        #expect(cache.statistics.approximateBytes == 0)
    }

    @Test func approximateBytesFollowRunsExpiryAndRefreshes() async throws {
        let overhead = QueryCache.entryOverhead
        let clock = TestClock()
        let source = Source()
        let cache = try await Self.staleCache(source, clock: clock)
        let key = "user/1".utf8.count + overhead
        #expect(cache.statistics.approximateBytes == key + 2)
        source.set(version: "version 2", gated: true)
        #expect(try await render(Page(source: source), as: .plain, cache: cache) == "v1")
        // The stale value is still held while the refresh runs.
        #expect(cache.statistics.approximateBytes == key + 2)
        #expect(cache.statistics.entries == 1)
        source.gate.increment()
        await cache.runningTask(for: "user/1")?.value
        #expect(cache.statistics.approximateBytes == key + 9)
        clock.advance(by: .seconds(70))
        #expect(!cache.contains("user/1"))
        #expect(cache.statistics.approximateBytes == 0)
        #expect(cache.statistics.entries == 0)
    }
}
