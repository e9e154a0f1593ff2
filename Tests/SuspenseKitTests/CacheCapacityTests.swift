import Foundation
import SuspenseTesting
import Synchronization
import Testing

@testable import SuspenseKit

/// A cache a server can share for a long time: bounded by a capacity, expired results freed,
/// invalidation that wins over a run in flight, and statistics to size it.
@Suite(.timeLimit(.minutes(3)))
struct CacheCapacityTests {
    /// Reads `key` from `source`, after `gate` opens when there is one.
    struct Reader: Component {
        let value: String
        init(_ key: String, source: Locked<String>, gate: Counter? = nil, runs: Counter) throws {
            value = try resolveValue(key: key) {
                runs.increment()
                let read = source.withLock { $0 }
                if let gate {
                    try await waitUntil("the gate to open") { gate.value > 0 }
                }
                return read
            }
        }
        var body: some Component { Text(value) }
    }

    @Test func theLeastRecentlyUsedResultIsEvictedFirst() {
        let cache = QueryCache(capacity: 3)
        cache.store(1, for: "a")
        cache.store(2, for: "b")
        cache.store(3, for: "c")
        // Reading "a" makes "b" the least recently used.
        #expect(cache.value(for: "a", as: Int.self) == 1)
        cache.store(4, for: "d")
        #expect(!cache.contains("b"))
        // Asking for "c" uses it too: "a" is now the least recently used.
        #expect(cache.contains("c"))
        cache.store(5, for: "e")
        #expect(!cache.contains("a"))
        #expect(cache.contains("c") && cache.contains("d") && cache.contains("e"))
        #expect(cache.statistics.evictions == 2)
        #expect(cache.statistics.entries == 3)
    }

    @Test func evictionFollowsAReferenceModelOverThousandsOfReadsAndStores() {
        // Enough churn that the table compacts its storage many times under the order.
        let cache = QueryCache(capacity: 50)
        var model: [String] = []  // least recently used first
        var generator = SystemRandomNumberGenerator()
        var evictions = 0
        for step in 0..<5000 {
            let key = "k\(Int.random(in: 0..<120, using: &generator))"
            if Bool.random(using: &generator) {
                cache.store(step, for: key)
                model.removeAll { $0 == key }
                model.append(key)
                if model.count > 50 {
                    model.removeFirst()
                    evictions += 1
                }
            } else {
                let found = cache.contains(key)
                #expect(found == model.contains(key))
                if found {
                    model.removeAll { $0 == key }
                    model.append(key)
                }
            }
        }
        #expect(cache.keysByRecency == model)
        #expect(cache.statistics.evictions == evictions)
    }

    @Test func everyResultDeliveredToARenderStaysReadableThoughEvicted() async throws {
        // Ten keys in one render on a cache of two: each query runs once, and every component
        // shows its value, though most results were evicted before it was evaluated again.
        let cache = QueryCache(capacity: 2)
        let runs = Counter()
        let keys = (0..<10).map { "k\($0)" }
        let page = Group {
            ForEach(keys, id: \.self) { key in
                Suspense {
                    try Loaded(key, runs: runs)
                } fallback: {
                    Text("…")
                }
            }
        }
        #expect(try await render(page, as: .plain, cache: cache) == keys.joined())
        #expect(runs.value == 10)
        #expect(cache.statistics.entries == 2)
        #expect(cache.statistics.evictions == 8)
    }

    @Test func aQueryARenderWaitsOnIsNeverEvicted() async throws {
        let cache = QueryCache(capacity: 1)
        let runs = Counter()
        let gate = Counter()
        let source = Locked("slow value")
        let waiting = Task {
            try await render(Reader("slow", source: source, gate: gate, runs: runs), as: .plain, cache: cache)
        }
        // Until the render waits on the run: a component starting it at once subscribes its
        // render only when the start returns, after the query began (and counted its run).
        try await waitUntil("the render to wait on the query") {
            runs.value == 1 && cache.subscriberCount(of: "slow") == 1
        }
        for index in 0..<5 { cache.store(index, for: "other \(index)") }
        #expect(cache.statistics.evictions == 4)
        #expect(cache.subscriberCount(of: "slow") == 1)
        gate.increment()
        #expect(try await waiting.value == "slow value")
        #expect(runs.value == 1)
        // Its result is stored like any other, the least recently used evicted for it.
        #expect(cache.contains("slow"))
        #expect(cache.statistics.entries == 1)
    }

    @Test func expiredResultsAreFreedWithoutBeingReadAgain() {
        let clock = TestClock()
        let cache = QueryCache(capacity: nil, lifetime: .milliseconds(10), clock: clock)
        for index in 0..<100 { cache.store(index, for: "old \(index)") }
        clock.advance(by: .milliseconds(20))
        // Each new result frees up to two expired ones: fifty free all hundred.
        for index in 0..<50 { cache.store(index, for: "new \(index)") }
        #expect(cache.statistics.entries == 50)
        #expect(cache.statistics.expirations == 100)
        #expect(cache.statistics.evictions == 0)
    }

    @Test func anExpiredResultIsFreedWhenItIsRead() {
        let clock = TestClock()
        let cache = QueryCache(lifetime: .milliseconds(10), clock: clock)
        cache.store(1, for: "a")
        clock.advance(by: .milliseconds(10))
        #expect(!cache.contains("a"))
        #expect(cache.statistics.entries == 0)
        #expect(cache.statistics.expirations == 1)
    }

    /// Whether this process runs under AddressSanitizer or ThreadSanitizer, whose runtimes hold
    /// freed memory back (quarantine, shadow) and make resident memory no measure of the cache.
    private static var runsUnderSanitizer: Bool {
        dlsym(nil, "__asan_init") != nil
            || dlsym(nil, "__tsan_init") != nil
    }

    /// Resident memory of this process, in kilobytes (Linux).
    private static func residentKilobytes() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])
        }
        return nil
    }

    @Test func memoryStaysFlatOverThreeHundredThousandKeysWithACapacity() throws {
        // 300,000 distinct keys of 1 KB each: about 300 MB in a cache without a bound.
        let cache = QueryCache(capacity: 1000)
        let value = [UInt8](repeating: 7, count: 1024)
        for index in 0..<10_000 { cache.store(value, for: "user/\(index)") }
        let before = try #require(Self.residentKilobytes())
        let tableCapacity = cache.tableCapacity
        for index in 10_000..<300_000 {
            // Each value is a fresh allocation, as a query's result is.
            var fresh = value
            fresh[0] = UInt8(truncatingIfNeeded: index)
            cache.store(fresh, for: "user/\(index)")
        }
        let after = try #require(Self.residentKilobytes())
        #expect(cache.statistics.entries == 1000)
        #expect(cache.statistics.evictions == 299_000)
        // The table's storage does not grow past what the first keys needed.
        #expect(cache.tableCapacity <= tableCapacity)
        // What the cache counts it holds: its 1,000 values of 1 KB and their keys, not 300,000.
        #expect(cache.statistics.approximateBytes < 1000 * (1024 + 64 + QueryCache.entryOverhead))
        // Far below the ~290 MB the evicted values would take. The whole process is sampled while
        // other suites run beside this one (they allocated up to 50 MB meanwhile in loaded runs):
        // half of what no bound would take is the line. Not under a sanitizer: AddressSanitizer
        // keeps freed memory in quarantine on purpose.
        if !Self.runsUnderSanitizer {
            #expect(after - before < 145_000, "resident memory grew by \(after - before) KB")
        }
    }

    @Test func manyRendersOfNewKeysKeepTheCacheWithinItsCapacity() async throws {
        let cache = QueryCache(capacity: 100)
        let runs = Counter()
        for request in 0..<20 {
            let keys = (0..<50).map { "request \(request)/\($0)" }
            let page = Group { ForEach(keys, id: \.self) { try Loaded($0, runs: runs) } }
            #expect(try await render(page, as: .plain, cache: cache) == keys.joined())
        }
        #expect(runs.value == 1000)
        #expect(cache.statistics.entries == 100)
        #expect(cache.statistics.evictions == 900)
        #expect(cache.statistics.misses == 1000)
    }

    @Test(arguments: [false, true])
    func anInvalidationWinsOverARunInFlight(removingAll: Bool) async throws {
        let cache = QueryCache()
        let runs = Counter()
        let gate = Counter()
        let source = Locked("v1")
        let first = Task {
            try await render(Reader("data", source: source, gate: gate, runs: runs), as: .plain, cache: cache)
        }
        // The run has read v1; the data changes, and the key is invalidated while it runs.
        try await waitUntil("the query to read v1") { runs.value == 1 }
        source.withLock { $0 = "v2" }
        if removingAll { cache.removeAll() } else { cache.removeValue(for: "data") }
        gate.increment()
        // The render already waiting on the run gets its result...
        #expect(try await first.value == "v1")
        // ...which is not stored: the next render runs the query again and shows v2.
        #expect(!cache.contains("data"))
        #expect(try await render(Reader("data", source: source, runs: runs), as: .plain, cache: cache) == "v2")
        #expect(runs.value == 2)
        #expect(cache.value(for: "data", as: String.self) == "v2")
    }

    @Test func aValueStoredByHandAfterAnInvalidationIsKeptOverTheRun() async throws {
        let cache = QueryCache()
        let runs = Counter()
        let gate = Counter()
        let source = Locked("v1")
        let first = Task {
            try await render(Reader("data", source: source, gate: gate, runs: runs), as: .plain, cache: cache)
        }
        try await waitUntil("the query to read v1") { runs.value == 1 }
        cache.removeValue(for: "data")
        cache.store("by hand", for: "data")
        gate.increment()
        #expect(try await first.value == "v1")
        #expect(cache.value(for: "data", as: String.self) == "by hand")
    }

    @Test func statisticsCountHitsMissesAndJoins() async throws {
        let cache = QueryCache()
        let runs = Counter()
        let gate = Counter()
        let source = Locked("value")
        // Two renders on one key: one runs it, the other joins the run.
        let first = Task {
            try await render(Reader("shared", source: source, gate: gate, runs: runs), as: .plain, cache: cache)
        }
        try await waitUntil("the query to start") { runs.value == 1 }
        let second = Task {
            try await render(Reader("shared", source: source, gate: gate, runs: runs), as: .plain, cache: cache)
        }
        try await waitUntil("the second render to join") { cache.subscriberCount(of: "shared") == 2 }
        gate.increment()
        #expect(try await first.value == "value")
        #expect(try await second.value == "value")
        // A third finds it stored.
        #expect(try await render(Reader("shared", source: source, runs: runs), as: .plain, cache: cache) == "value")
        let statistics = cache.statistics
        #expect(runs.value == 1)
        #expect(statistics.misses == 1)
        #expect(statistics.coalesced == 1)
        #expect(statistics.hits == 1)
        #expect(statistics.entries == 1)
        #expect(statistics.evictions == 0 && statistics.expirations == 0)
    }

    @Test func theDefaultsSuitASharedCache() {
        let cache = QueryCache()
        #expect(cache.capacity == QueryCache.defaultCapacity)
        #expect(cache.failureRetention == .dropAfterRender)
    }
}
