import SuspenseTesting
import Testing

@testable import SuspenseKit

/// How long a `QueryCache` keeps results: failures kept or dropped, values that expire on the
/// cache's clock, and forgetting by hand.
@Suite(.timeLimit(.minutes(3)))
struct CacheLifetimeTests {
    /// Reads "source" from `flaky`; `suspends` makes the query suspend before it answers.
    struct Reader: Component {
        let value: String
        init(flaky: Flaky, suspends: Bool) throws {
            value = try resolveValue(key: "source") {
                if suspends { await Task.yield() }
                return try flaky.value()
            }
        }
        var body: some Component { Text(value) }
    }

    struct Page: Component {
        let flaky: Flaky
        var suspends = true
        var body: some Component {
            ErrorBoundary {
                Suspense {
                    try Reader(flaky: flaky, suspends: suspends)
                } fallback: {
                    Text("Loading…")
                }
            } fallback: { error in
                Text("failed: \(error)")
            }
        }
    }

    @Test func aKeptFailureIsServedToLaterRenders() async throws {
        let cache = QueryCache(failures: .keep)
        let flaky = Flaky(failures: 1)
        #expect(try await render(Page(flaky: flaky), as: .plain, cache: cache) == "failed: unavailable")
        #expect(try await render(Page(flaky: flaky), as: .plain, cache: cache) == "failed: unavailable")
        #expect(flaky.calls.value == 1)
    }

    @Test func aTransientFailureIsNotServedToTheNextRenderByDefault() async throws {
        // A shared cache made with the defaults: one failure must not answer every later request.
        let cache = QueryCache()
        let flaky = Flaky(failures: 1)
        #expect(try await render(Page(flaky: flaky), as: .plain, cache: cache) == "failed: unavailable")
        #expect(try await render(Page(flaky: flaky), as: .plain, cache: cache) == "loaded after 2 calls")
        #expect(flaky.calls.value == 2)
    }

    @Test(arguments: [true, false])
    func aDroppedFailureIsAskedForAgainByTheNextRender(suspends: Bool) async throws {
        let cache = QueryCache(failures: .dropAfterRender)
        let flaky = Flaky(failures: 1)
        let page = Page(flaky: flaky, suspends: suspends)
        #expect(try await render(page, as: .plain, cache: cache) == "failed: unavailable")
        #expect(!cache.contains("source"))
        #expect(try await render(page, as: .plain, cache: cache) == "loaded after 2 calls")
        // Values are kept as ever.
        #expect(try await render(page, as: .plain, cache: cache) == "loaded after 2 calls")
        #expect(flaky.calls.value == 2)
    }

    @Test func aDroppedFailureStaysForEveryComponentOfTheRenderThatMetIt() async throws {
        // Two readers of one failing key in one render: one run, both see the failure.
        let cache = QueryCache(failures: .dropAfterRender)
        let flaky = Flaky(failures: 5)
        struct Twice: Component {
            let flaky: Flaky
            var body: some Component {
                ErrorBoundary {
                    try Reader(flaky: flaky, suspends: true)
                } fallback: { _ in
                    Element("p") { Text("first failed") }
                }
                ErrorBoundary {
                    try Reader(flaky: flaky, suspends: true)
                } fallback: { _ in
                    Element("p") { Text("second failed") }
                }
            }
        }
        let output = try await render(Twice(flaky: flaky), as: .plain, cache: cache)
        #expect(output == "first failed\nsecond failed")
        #expect(flaky.calls.value == 1)
    }

    @Test func resultsExpireAfterTheCachesLifetime() async throws {
        let clock = TestClock()
        let cache = QueryCache(lifetime: .seconds(60), clock: clock)
        let flaky = Flaky(failures: 0)
        #expect(try await render(Page(flaky: flaky), as: .plain, cache: cache) == "loaded after 1 calls")
        clock.advance(by: .seconds(59))
        #expect(try await render(Page(flaky: flaky), as: .plain, cache: cache) == "loaded after 1 calls")
        clock.advance(by: .seconds(1))
        #expect(cache.value(for: "source", as: String.self) == nil)
        #expect(try await render(Page(flaky: flaky), as: .plain, cache: cache) == "loaded after 2 calls")
        #expect(flaky.calls.value == 2)
    }

    @Test func storedValuesAndFailuresExpireToo() {
        let clock = TestClock()
        let cache = QueryCache(lifetime: .milliseconds(10), clock: clock)
        cache.store("value", for: "a")
        cache.storeFailure(TestFailure("down"), for: "b")
        cache.stub(.pending, for: "c")
        clock.advance(by: .milliseconds(9))
        #expect(cache.value(for: "a", as: String.self) == "value")
        #expect(cache.contains("b"))
        clock.advance(by: .milliseconds(1))
        #expect(!cache.contains("a"))
        #expect(!cache.contains("b"))
        // A key stubbed as pending for good does not expire: it holds no result.
        #expect(cache.entry(for: "c") == nil)
        guard case .pending? = cache.stubbedOutcome(for: "c") else {
            Issue.record("the pending stub expired")
            return
        }
    }

    // MARK: What a render was delivered

    /// Reads its own key, whose query takes 1 ms (a real sleep: the query surely suspends, and
    /// its result arrives later); each evaluation takes `evaluation` on the cache's clock (a
    /// render busy with other components between a result's arrival and the component reading
    /// it again).
    struct TimedReader: Component {
        let value: String
        init(_ index: Int, clock: TestClock, evaluation: Duration, runs: Counter) throws {
            clock.advance(by: evaluation)
            value = try resolveValue(key: "item/\(index)") {
                runs.increment()
                try await Task.sleep(for: .milliseconds(1))
                return "\(index)."
            }
        }
        var body: some Component { Text(value) }
    }

    @Test func aResultDeliveredToARenderIsReadByItsComponentsWhenTheCacheLetItExpire() async throws {
        // Each component's result expires before it is evaluated again: without what the render
        // keeps, each would run its query again and again, and fail as still suspending.
        let clock = TestClock()
        let cache = QueryCache(lifetime: .milliseconds(2), clock: clock)
        let runs = Counter()
        let page = Suspense {
            ForEach(0..<300) { index in
                ErrorBoundary {
                    try TimedReader(index, clock: clock, evaluation: .milliseconds(2), runs: runs)
                } fallback: { _ in
                    Text("failed.")
                }
            }
        }
        let output = try await render(page, as: .plain, cache: cache)
        #expect(output == (0..<300).map { "\($0)." }.joined())
        #expect(runs.value == 300)
        // For other renders the results expired as ever.
        clock.advance(by: .milliseconds(2))
        #expect(cache.value(for: "item/0", as: String.self) == nil)
    }

    /// Reads "gate", whose query waits for `latch`: with `.discovery` delivery, the render applies
    /// no result of the queries discovered after it until it has answered.
    struct Gate: Component {
        init(latch: Latch) throws {
            let _: Bool = try resolveValue(key: "gate") {
                await latch.wait()
                return true
            }
        }
        var body: some Component { EmptyComponent() }
    }

    @Test func fourHundredKeysThatExpireBeforeTheRenderReadsThemAgainRunOnceEach() async throws {
        let clock = TestClock()
        let cache = QueryCache(lifetime: .milliseconds(20), clock: clock)
        let runs = Counter()
        let latch = Latch()
        let page = Suspense {
            try Gate(latch: latch)
            ForEach(0..<400) { index in try TimedReader(index, clock: clock, evaluation: .zero, runs: runs) }
        }
        let output = Task {
            try await render(page, as: .plain, cache: cache, options: RenderOptions(deliveryOrder: .discovery))
        }
        // Every result is stored and delivered, and expires before the render applies any.
        try await waitUntil("the 400 results to be stored") { cache.storedCount == 400 }
        clock.advance(by: .milliseconds(20))
        latch.open()
        #expect(try await output.value == (0..<400).map { "\($0)." }.joined())
        #expect(runs.value == 400)
    }

    /// Reads `key`, whose query waits for `latch` and then fails; counts its runs.
    struct LatchedFailure: Component {
        init(_ key: String, latch: Latch, runs: Counter) throws {
            let _: String = try resolveValue(key: key) {
                runs.increment()
                await latch.wait()
                throw TestFailure("\(key) down")
            }
        }
        var body: some Component { Text("never") }
    }

    /// Reads `key`, whose query waits for `latch`.
    struct LatchedReader: Component {
        let value: String
        init(_ key: String, latch: Latch, runs: Counter) throws {
            value = try resolveValue(key: key) {
                runs.increment()
                await latch.wait()
                return key
            }
        }
        var body: some Component { Text(value) }
    }

    @Test func aFailureDroppedByOneRenderStaysForAnotherThatWasDeliveredIt() async throws {
        let cache = QueryCache(failures: .dropAfterRender)
        let runs = Counter()
        let failing = Latch()
        let holding = Latch()
        let holdRuns = Counter()
        func page(holding: Latch?) -> some Component {
            ErrorBoundary {
                Suspense {
                    // With `.discovery` delivery, the second render applies the failure only
                    // once its earlier query answered: after the first render has ended.
                    if let holding { try LatchedReader("hold", latch: holding, runs: holdRuns) }
                    try LatchedFailure("shared", latch: failing, runs: runs)
                }
            } fallback: { error in
                Text("failed: \(error)")
            }
        }
        let first = Task { try await render(page(holding: nil), as: .plain, cache: cache) }
        try await waitUntil("the first render's run to start") { runs.value == 1 }
        let second = Task {
            try await render(
                page(holding: holding), as: .plain, cache: cache, options: RenderOptions(deliveryOrder: .discovery))
        }
        try await waitUntil("both renders to wait on the run") {
            cache.subscriberCount(of: "shared") == 2 && holdRuns.value == 1
        }
        failing.open()
        #expect(try await first.value == "failed: shared down")
        // The first render ended and dropped the failure, for renders to come.
        #expect(!cache.contains("shared"))
        holding.open()
        // The second render reads the failure it was delivered: no second run.
        #expect(try await second.value == "failed: shared down")
        #expect(runs.value == 1)
        #expect(!cache.contains("shared"))
    }

    @Test(arguments: [false, true])
    func anErrorBoundaryTryingAgainRunsAFailureTheRenderKept(expires: Bool) async throws {
        // What a render keeps of its failures is forgotten when a boundary tries its content
        // again, as the cache's failure is.
        let clock = TestClock()
        let cache =
            expires
            ? QueryCache(lifetime: .seconds(60), clock: clock) : QueryCache(failures: .dropAfterRender)
        let flaky = Flaky(failures: 1)
        let page = Suspense {
            ErrorBoundary(retry: RetryPolicy(maxAttempts: 2, initialDelay: .zero)) {
                try Reader(flaky: flaky, suspends: true)
            } fallback: { error in
                Text("failed: \(error)")
            }
        }
        #expect(try await render(page, as: .plain, cache: cache) == "loaded after 2 calls")
        #expect(flaky.calls.value == 2)
    }

    @Test func removingAValueMakesTheNextRenderRunTheQueryAgain() async throws {
        let cache = QueryCache()
        let flaky = Flaky(failures: 0)
        #expect(try await render(Page(flaky: flaky), as: .plain, cache: cache) == "loaded after 1 calls")
        cache.removeValue(for: "source")
        #expect(try await render(Page(flaky: flaky), as: .plain, cache: cache) == "loaded after 2 calls")
        cache.removeAll()
        #expect(try await render(Page(flaky: flaky), as: .plain, cache: cache) == "loaded after 3 calls")
    }
}
