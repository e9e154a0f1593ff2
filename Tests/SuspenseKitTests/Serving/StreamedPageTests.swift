import SuspenseTesting
import Testing

@testable import SuspenseKit

@Suite struct StreamedPageTests {
    /// Suspends outside any Suspense: its shell waits for `a`.
    struct ShellWaits: Component {
        let gates: Gates
        var body: some Component {
            Element("main") { try Gated("a", gates: gates) }
        }
    }

    struct ShellFails: Component {
        var body: some Component {
            Element("main") { try Thrower("database password is hunter2") }
        }
    }

    struct FailsLate: Component {
        let gates: Gates
        var body: some Component {
            Element("main") {
                Suspense {
                    try Gated("a", gates: gates, fails: true)
                } fallback: {
                    Text("loading a")
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

    @Test func theHeadIsReadyWithTheShellAndTheBodyStartsWithIt() async throws {
        let gates = Gates()
        let page = await StreamedPage(
            HTMLStreamTests.TwoCards(gates: gates),
            serving: ServingOptions(
                status: 203, headers: ["Cache-Control": "no-store", "content-type": "text/plain"]))
        let recording = RecordingHooks()
        let head = try head(page.response(context: "GET /", hooks: recording.hooks()))
        #expect(head.status == 203)
        #expect(head.headers["Cache-Control"] == "no-store")
        #expect(head.headers.values(for: "Content-Type") == ["text/html; charset=utf-8"])
        #expect(head.headers["server-timing"]?.hasPrefix("shell;dur=") == true)
        #expect(head.headers["Content-Security-Policy"] == nil)
        #expect(page.nonce == nil && page.shellError == nil)

        let writer = FakeBodyWriter()
        async let written: Void = page.writeBody(context: "GET /", hooks: recording.hooks(), to: writer.write)
        try await waitUntil("the shell to be written") { !writer.chunks.isEmpty }
        #expect(writer.chunks[0].contains("loading a") && writer.chunks[0].contains("loading b"))
        gates.open("b")
        gates.open("a")
        try await written
        #expect(writer.chunks.joined().contains("<p>a loaded</p>"))
        #expect(writer.chunks.last == streamCleanup)
        #expect(recording.log.all.isEmpty)
    }

    @Test func serverTimingIsTheShellsTimeOnTheRendersClock() async throws {
        let gates = Gates()
        let clock = TestClock()
        async let made = StreamedPage(ShellWaits(gates: gates), options: RenderOptions(clock: clock))
        try await waitUntil("the query to run") { gates.runs.value == 1 }
        clock.advance(by: .milliseconds(250))
        gates.open("a")
        let page = await made
        let head = try head(page.response(context: "", hooks: RecordingHooks().hooks()))
        #expect(head.headers["Server-Timing"] == "shell;dur=250, q-a;dur=250")
        let untimed = await StreamedPage(Text("hi"), serving: ServingOptions(serverTiming: false))
        #expect(
            try self.head(untimed.response(context: "", hooks: RecordingHooks().hooks())).headers["Server-Timing"]
                == nil)
    }

    @Test func aShellErrorBecomesTheApplicationsPageWhichGetsTheContext() async throws {
        let page = await StreamedPage(ShellFails())
        #expect(page.shellError != nil)
        let recording = RecordingHooks()
        let seen = Log()
        let response = page.response(
            context: "GET /products/7",
            hooks: recording.hooks(onShellError: { error, context in
                seen.append("\(context): \(error)")
                return ErrorPage(status: 503, body: "<p>Come back soon</p>")
            }))
        guard case .errorPage(let errorPage) = response else {
            Issue.record("expected an error page, got \(response)")
            return
        }
        #expect(errorPage.head.status == 503)
        #expect(errorPage.head.headers["Content-Type"] == "text/html; charset=utf-8")
        #expect(errorPage.body == "<p>Come back soon</p>")
        #expect(seen.all.count == 1 && seen.all[0].hasPrefix("GET /products/7: ") && seen.all[0].contains("hunter2"))
        // Nothing to write for an error page.
        let writer = FakeBodyWriter()
        try await page.writeBody(context: "", hooks: recording.hooks(), to: writer.write)
        #expect(writer.all.isEmpty)
    }

    @Test func withoutAHookAShellErrorIsLoggedAndTheClientGetsAPageThatDoesNotShowIt() async throws {
        let page = await StreamedPage(ShellFails())
        let recording = RecordingHooks()
        guard case .errorPage(let errorPage) = page.response(context: "GET /", hooks: recording.hooks()) else {
            Issue.record("expected an error page")
            return
        }
        #expect(errorPage == .serverError)
        #expect(errorPage.head.status == 500)
        #expect(!errorPage.body.contains("hunter2"))
        #expect(recording.log.all.count == 1)
        #expect(recording.log.all.first?.hasPrefix("error [GET /] the page's shell could not be rendered: ") == true)
        #expect(recording.log.all.first?.contains("hunter2") == true)
    }

    @Test func aLateErrorClosesThePageReturnsAndReachesTheHookWithTheContext() async throws {
        let gates = Gates()
        let page = await StreamedPage(FailsLate(gates: gates))
        gates.open("a")
        let recording = RecordingHooks()
        let seen = Log()
        let hooks = recording.hooks(onLateError: { error, context in seen.append("\(context): \(error)") })
        _ = page.response(context: "GET /late", hooks: hooks)
        let writer = FakeBodyWriter()
        try await page.writeBody(context: "GET /late", hooks: hooks, to: writer.write)
        #expect(writer.chunks.count == 2)
        #expect(writer.chunks.last?.contains(StreamOptions.genericLateErrorHTML) == true)
        #expect(seen.all == ["GET /late: uncaught error in FailsLate > Suspense > Gated: a failed"])
        #expect(recording.log.all.isEmpty)

        // Without a hook, the error is logged.
        let logged = RecordingHooks()
        let otherGates = Gates()
        let again = await StreamedPage(FailsLate(gates: otherGates))
        otherGates.open("a")
        try await again.writeBody(context: "GET /late", hooks: logged.hooks(), to: FakeBodyWriter().write)
        #expect(
            logged.log.all == [
                "error [GET /late] the streamed page failed after its shell: uncaught error in FailsLate > Suspense > Gated: a failed"
            ])
    }

    @Test func aWriteThatFailsStopsTheRenderAndCancelsItsQueries() async throws {
        let gates = Gates()
        let page = await StreamedPage(
            HTMLStreamTests.TwoCards(gates: gates), serving: ServingOptions(probeInterval: nil))
        // The shell is written; the next chunk finds the connection closed.
        let writer = FakeBodyWriter(failing: { _, index in index >= 1 })
        let written = Task { try await page.writeBody(context: "", hooks: RecordingHooks().hooks(), to: writer.write) }
        try await waitUntil("both queries to run") { gates.runs.value == 2 }
        gates.open("a")
        await #expect(throws: FakeBodyWriter.ConnectionClosed.self) { try await written.value }
        try await waitUntil("b to be cancelled") { gates.cancellations.value == 1 }
        #expect(writer.chunks.count == 2)
    }

    @Test func aProbeEveryIntervalFindsAClientThatLeftWhileThePageWaits() async throws {
        let gates = Gates()
        let clock = TestClock()
        let page = await StreamedPage(
            HTMLStreamTests.TwoCards(gates: gates), serving: ServingOptions(probeInterval: .seconds(2), clock: clock))
        // Probes succeed twice, then the connection is closed.
        let probes = Counter()
        let writer = FakeBodyWriter(failing: { chunk, _ in chunk.isEmpty && probes.increment() > 2 })
        let written = Task { try await page.writeBody(context: "", hooks: RecordingHooks().hooks(), to: writer.write) }
        try await waitUntil("both queries to run") { gates.runs.value == 2 }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        #expect(writer.probes == 0)
        clock.advance(by: .seconds(1))
        try await waitUntil("the first probe") { writer.probes == 1 }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(2))
        try await waitUntil("the second probe") { writer.probes == 2 }
        #expect(writer.chunks.count == 1)
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(2))
        await #expect(throws: FakeBodyWriter.ConnectionClosed.self) { try await written.value }
        try await waitUntil("both queries to be cancelled") { gates.cancellations.value == 2 }
        #expect(writer.all == [writer.chunks[0], "", "", ""])
    }
    @Test func aProbeDueWhileAChunkIsBeingWrittenIsSkippedAndNoTwoWritesOverlap() async throws {
        let gates = Gates()
        let clock = TestClock()
        let page = await StreamedPage(
            HTMLStreamTests.TwoCards(gates: gates), serving: ServingOptions(probeInterval: .seconds(1), clock: clock))
        let writing = Counter()
        let mostAtOnce = Locked(0)
        let slowChunkStarted = Counter()
        let releaseSlowChunk = Locked(false)
        let writes = Log()
        let written = Task {
            try await page.writeBody(context: "", hooks: RecordingHooks().hooks()) { chunk in
                let now = writing.increment()
                mostAtOnce.withLock { $0 = max($0, now) }
                defer { writing.decrement() }
                writes.append(chunk)
                if chunk.contains("a loaded") {
                    slowChunkStarted.increment()
                    try await waitUntil("the test to release the chunk") { releaseSlowChunk.withLock { $0 } }
                }
            }
        }
        try await waitUntil("the shell") { writes.all.count == 1 }
        gates.open("a")
        try await waitUntil("a's chunk to be writing") { slowChunkStarted.value == 1 }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        // The probe came, found the writer taken, and went back to sleep without writing.
        await clock.waitForSleeper(dueAt: .seconds(2))
        #expect(!writes.all.contains(""))
        releaseSlowChunk.withLock { $0 = true }
        gates.open("b")
        try await written.value
        #expect(mostAtOnce.withLock { $0 } == 1)
        #expect(writes.all.joined().contains("<p>b loaded</p>"))
    }
}
