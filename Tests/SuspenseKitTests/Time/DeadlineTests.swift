import SuspenseTesting
import Testing

@testable import SuspenseKit

/// `RenderOptions(deadline:)`, on a test clock: nothing here sleeps for real.
@Suite(.timeLimit(.minutes(3)))
struct DeadlineTests {
    struct Page: Component {
        let gates: Gates
        let hang: Hang
        var body: some Component {
            Element("main") {
                Suspense {
                    try Gated("fast", gates: gates)
                } fallback: {
                    Text("fast loading")
                }
                Suspense {
                    try Hanging("slow", hang: hang)
                } fallback: {
                    Text("slow loading")
                }
            }
        }
    }

    @Test func pastTheDeadlineEveryPendingBoundaryKeepsItsFallbackAndThePageIsReturned() async throws {
        let clock = TestClock()
        let gates = Gates()
        gates.open("fast")
        let hang = Hang()
        let reports = Locked<[[TimeoutError]]>([])
        let options = options(clock, deadline: .seconds(1)) { cutOff in reports.withLock { $0.append(cutOff) } }
        async let output = render(Page(gates: gates, hang: hang), as: .html, options: options)
        try await waitUntil("the fast query finished") { gates.runs.value == 1 }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        #expect(try await output == "<main><p>fast loaded</p>slow loading</main>")
        // Past the deadline the render does not wait for the queries it cancelled to stop.
        try await waitUntil("the slow query cancelled") { hang.cancellations.value == 1 }
        #expect(
            reports.withLock { $0 }
                == [[TimeoutError(path: ["Page", "Suspense"], duration: .seconds(1), pendingQueries: ["slow"])]])
        #expect(clock.sleeperCount == 0)
    }

    struct TitledPage: Component {
        let gates: Gates
        let hang: Hang
        var body: some Component {
            Element("h1") { Text("Title") }
            Page(gates: gates, hang: hang)
        }
    }

    /// In order, the stream has sent the page up to the slow boundary when the deadline passes
    /// (each pass a window of the page from where it stopped): the final tree is the whole page,
    /// and the rest of it follows from where the stream stopped in it.
    @Test func anInOrderStreamCutOffByTheDeadlineSendsTheRestOfThePage() async throws {
        let clock = TestClock()
        let gates = Gates()
        let stream = try await renderStream(
            TitledPage(gates: gates, hang: Hang()), options: options(clock, deadline: .seconds(1)),
            stream: StreamOptions(order: .inOrder))
        var chunks = ChunkReader(stream)
        #expect(try await chunks.next() == "<h1>Title</h1><main>")
        gates.open("fast")
        #expect(try await chunks.next() == "<p>fast loaded</p>")
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        #expect(try await chunks.next() == "slow loading</main>")
        try await chunks.end()
    }

    @Test func aQueryThatIgnoresCancellationNoLongerHoldsTheRender() async throws {
        let clock = TestClock()
        let latch = Latch()
        let cache = QueryCache()
        struct Stubborn: Component {
            let value: String
            init(latch: Latch) throws {
                value = try resolveValue(key: "stubborn") {
                    await latch.wait()  // ignores cancellation
                    latch.finished.increment()
                    return "late"
                }
            }
            var body: some Component { Text(value) }
        }
        struct StubbornPage: Component {
            let latch: Latch
            var body: some Component {
                Suspense {
                    try Stubborn(latch: latch)
                } fallback: {
                    Text("waiting")
                }
            }
        }
        async let output = render(
            StubbornPage(latch: latch), as: .plain, cache: cache, options: options(clock, deadline: .seconds(1)))
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        #expect(try await output == "waiting")
        #expect(latch.finished.value == 0)
        // Its late result is dropped: not stored for the next render.
        latch.open()
        try await waitUntil("the stubborn query ended") { latch.finished.value == 1 }
        try await waitUntil("the run left the cache") { cache.runningQueryCount == 0 }
        #expect(!cache.contains("stubborn"))
    }

    @Test func contentOutsideEverySuspenseStillWaitingFailsTheRender() async throws {
        let clock = TestClock()
        let hang = Hang()
        struct Bare: Component {
            let hang: Hang
            var body: some Component { try Hanging("root", hang: hang) }
        }
        async let output = render(Bare(hang: hang), as: .plain, options: options(clock, deadline: .milliseconds(250)))
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(250))
        do {
            _ = try await output
            Issue.record("expected a RenderError")
        } catch let error as RenderError {
            #expect(error.path == ["Bare", "Hanging"])
            #expect(
                error.underlying as? TimeoutError
                    == TimeoutError(path: ["Bare", "Hanging"], duration: .milliseconds(250), pendingQueries: ["root"]))
        }
        try await waitUntil("the query cancelled") { hang.cancellations.value == 1 }
    }

    @Test func aRenderDoneBeforeItsDeadlineIsUnaffected() async throws {
        let clock = TestClock()
        let gates = Gates()
        gates.open("fast")
        let called = Counter()
        struct Quick: Component {
            let gates: Gates
            var body: some Component {
                Suspense {
                    try Gated("fast", gates: gates)
                } fallback: {
                    Text("loading")
                }
            }
        }
        let output = try await render(
            Quick(gates: gates), as: .plain, options: options(clock, deadline: .seconds(1)) { _ in called.increment() })
        #expect(output == "fast loaded")
        #expect(called.value == 0)
        // The deadline's timer went with the render.
        #expect(clock.sleeperCount == 0)
    }

    @Test func aStreamEndsAtTheDeadlineWithTheFallbacksStillInPlace() async throws {
        let clock = TestClock()
        let gates = Gates()
        let hang = Hang()
        let stream = try await renderStream(
            Page(gates: gates, hang: hang),
            options: options(clock, deadline: .seconds(1)))
        var chunks: [String] = []
        var iterator = stream.makeAsyncIterator()
        chunks.append(try #require(try await iterator.next()))
        gates.open("fast")
        chunks.append(try #require(try await iterator.next()))
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        while let chunk = try await iterator.next() { chunks.append(chunk) }
        let page = chunks.joined()
        #expect(chunks[0].contains("fast loading") && chunks[0].contains("slow loading"))
        #expect(chunks[1].contains("<p>fast loaded</p>"))
        #expect(!page.contains("slow</"))
        try await waitUntil("the slow query cancelled") { hang.cancellations.value == 1 }
    }
}
