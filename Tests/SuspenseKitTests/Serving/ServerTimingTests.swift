import SuspenseTesting
import Testing

@testable import SuspenseKit

/// `Server-Timing` made from the render's report: the head's value at the shell, the trailer's at
/// the end of the body, on the render's clock, short whatever the page.
@Suite struct ServerTimingTests {
    /// The shell waits on `a`; `b` and `c` each in a Suspense of their own (ids 0.1 and 0.2).
    struct Page: Component {
        let gates: Gates
        var body: some Component {
            Element("main") {
                try Gated("a", gates: gates)
                Suspense {
                    try Gated("b", gates: gates)
                } fallback: {
                    Text("loading b")
                }
                Suspense {
                    try Gated("c", gates: gates)
                } fallback: {
                    Text("loading c")
                }
            }
        }
    }

    func head(_ response: PageResponse) throws -> PageHead {
        guard case .stream(let head) = response else {
            Issue.record("expected a stream, got \(response)")
            throw TestFailure("no stream")
        }
        return head
    }

    @Test func theHeadHasTheShellsTimeAndWhatItWaitedOnAndTheTrailerEachReveal() async throws {
        let gates = Gates()
        let clock = TestClock()
        async let made = StreamedPage(Page(gates: gates), options: RenderOptions(clock: clock))
        try await waitUntil("the queries to run") { gates.runs.value == 3 }
        clock.advance(by: .milliseconds(12.3))
        gates.open("a")
        let page = await made
        let recording = RecordingHooks()
        let head = try head(page.response(context: "", hooks: recording.hooks(), trailers: true))
        #expect(head.headers.values(for: "Server-Timing") == ["shell;dur=12.3, q-a;dur=12.3"])
        #expect(head.headers["Trailer"] == "Server-Timing")

        let writer = FakeBodyWriter()
        async let written: Void = page.writeBody(context: "", hooks: recording.hooks(), to: writer.write)
        try await waitUntil("the shell to be written") { !writer.chunks.isEmpty }
        clock.advance(by: .milliseconds(40))
        gates.open("c")
        try await waitUntil("c to be written") { writer.chunks.joined().contains("<p>c loaded</p>") }
        clock.advance(by: .milliseconds(100))
        gates.open("b")
        #expect(page.trailers.fields.isEmpty)
        try await written
        #expect(
            page.trailers.fields == [
                .init(name: "Server-Timing", value: "total;dur=152.3, reveal-0.2;dur=52.3, reveal-0.1;dur=152.3")
            ])
        #expect(recording.log.all.isEmpty)
    }

    @Test func theTrailerIsAnnouncedOnlyToATransportThatSendsOneAndCanBeTurnedOff() async throws {
        let page = await StreamedPage(Text("hi"))
        let hooks = RecordingHooks().hooks()
        #expect(try head(page.response(context: "", hooks: hooks)).headers["Trailer"] == nil)
        #expect(
            try head(page.response(context: "", hooks: hooks, trailers: true)).headers["Trailer"] == "Server-Timing")
        try await page.writeBody(context: "", hooks: hooks, to: FakeBodyWriter().write)
        #expect(page.trailers["Server-Timing"]?.hasPrefix("total;dur=") == true)

        let untrailed = await StreamedPage(Text("hi"), serving: ServingOptions(serverTimingTrailer: false))
        #expect(try head(untrailed.response(context: "", hooks: hooks, trailers: true)).headers["Trailer"] == nil)
        #expect(try head(untrailed.response(context: "", hooks: hooks)).headers["Server-Timing"] != nil)
        try await untrailed.writeBody(context: "", hooks: hooks, to: FakeBodyWriter().write)
        #expect(untrailed.trailers.fields.isEmpty)

        let untimed = await StreamedPage(Text("hi"), serving: ServingOptions(serverTiming: false))
        let untimedHead = try head(untimed.response(context: "", hooks: hooks, trailers: true))
        #expect(untimedHead.headers["Server-Timing"] == nil && untimedHead.headers["Trailer"] == nil)
        try await untimed.writeBody(context: "", hooks: hooks, to: FakeBodyWriter().write)
        #expect(untimed.trailers.fields.isEmpty)
    }

    @Test func aReportHookOfTheApplicationStillGetsTheReport() async throws {
        let reports = Locked([RenderReport]())
        let options = RenderOptions().onReport { report in reports.withLock { $0.append(report) } }
        let page = await StreamedPage(Text("hi"), options: options)
        try await page.writeBody(context: "", hooks: RecordingHooks().hooks(), to: FakeBodyWriter().write)
        #expect(reports.withLock { $0.count } == 1)
        #expect(page.trailers["Server-Timing"] != nil)
    }

    @Test func theHeadListsTheFiveSlowestQueriesAsTokens() {
        func query(_ key: String, _ milliseconds: Int) -> RenderReport.Query {
            RenderReport.Query(
                key: key, outcome: .miss, cause: .firstPass, startedAt: .milliseconds(1),
                finishedAt: .milliseconds(1 + milliseconds), error: nil, cancelled: false)
        }
        let unfinished = RenderReport.Query(
            key: "never", outcome: .miss, cause: .firstPass, startedAt: .zero, finishedAt: nil, error: nil,
            cancelled: true)
        let waited = [
            query("user/1", 30), query("feed?page=2&lang=ü", 80), query("fast", 1),
            query(String(repeating: "k", count: 60), 50),
            query("tie-first", 20), query("tie-second", 20), query("slow \"quoted\", with; separators", 90), unfinished,
        ]
        let root = RenderReport.Boundary(
            id: BoundaryID(nil), kind: .root, path: [], fallbackAt: nil, revealedAt: .milliseconds(95),
            waitedOn: waited, revealedBy: nil, resuspensions: 0, retries: 0, timedOut: false, errors: [])
        let report = RenderReport(
            shellAt: .milliseconds(95), finishedAt: .milliseconds(95), deadlinePassed: false, boundaries: [root],
            queries: waited, diagnostics: [], error: nil)
        #expect(
            ServerTiming.shell(report)
                == "shell;dur=95, q-slow--quoted---with--separators;dur=90, q-feed-page-2-lang---;dur=80, "
                + "q-\(String(repeating: "k", count: 38));dur=50, q-user-1;dur=30, q-tie-first;dur=20")
    }
}
