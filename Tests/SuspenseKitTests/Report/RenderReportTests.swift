import Foundation
import SuspenseTesting
import Testing

@testable import SuspenseKit

/// `RenderOptions.onReport`: what each boundary and query did, on a test clock.
@Suite(.timeLimit(.minutes(3)))
struct RenderReportTests {
    /// A page with a hit and a miss, a failed query, a timeout and a waterfall.
    struct Page: Component {
        let clock: TestClock
        var body: some Component {
            Suspense {
                try Timed("user/1", after: .milliseconds(50), clock: clock)
                try Timed("settings", after: .milliseconds(50), clock: clock)
            } fallback: {
                Text("Loading user…")
            }
            ErrorBoundary {
                Suspense {
                    try Timed("feed", after: .milliseconds(20), clock: clock, fails: true)
                } fallback: {
                    Text("Loading feed…")
                }
            } fallback: { _ in
                Text("The feed is unavailable.")
            }
            ErrorBoundary {
                Suspense(timeout: .milliseconds(100)) {
                    try Timed("slow", after: .seconds(10), clock: clock)
                } fallback: {
                    Text("Loading slow…")
                }
            } fallback: { _ in
                Text("Too slow.")
            }
            Suspense {
                try Sequential("posts", then: "comments", after: .milliseconds(30), clock: clock)
            } fallback: {
                Text("Loading posts…")
            }
        }
    }

    struct SharedPage: Component {
        let gates: Gates
        var body: some Component {
            Suspense {
                try Gated("shared", gates: gates)
            } fallback: {
                Text("Loading…")
            }
        }
    }

    /// Renders `Page` as live frames, advancing the clock one result at a time.
    private func renderPage() async throws -> ReportBox {
        let clock = TestClock()
        let cache = QueryCache()
        cache.store("settings loaded", for: "settings")
        let box = ReportBox()
        let frames = liveFrames(Page(clock: clock), cache: cache, options: box.options(RenderOptions(clock: clock)))
        var iterator = frames.makeAsyncIterator()
        _ = try await iterator.next()  // the shell, at 0 ms
        await clock.waitForSleeper(dueAt: .milliseconds(100))  // the timeout
        await clock.waitForSleepers(5)
        clock.advance(by: .milliseconds(20))  // feed fails
        _ = try await iterator.next()
        clock.advance(by: .milliseconds(10))  // posts arrives; comments starts
        _ = try await iterator.next()
        await clock.waitForSleeper(dueAt: .milliseconds(60))
        clock.advance(by: .milliseconds(20))  // user/1
        _ = try await iterator.next()
        clock.advance(by: .milliseconds(10))  // comments
        _ = try await iterator.next()
        clock.advance(by: .milliseconds(40))  // the timeout
        while try await iterator.next() != nil {}
        return box
    }

    @Test func theReportsJSONMatchesItsGoldenFile() async throws {
        let box = try await renderPage()
        let report = try #require(box.report)
        #expect(box.reportCount == 1)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let json = String(decoding: try encoder.encode(report), as: UTF8.self)
        try expectGolden(json, named: "page.json")
    }

    @Test func theTableNamesEachBoundaryQueryAndDiagnostic() async throws {
        let box = try await renderPage()
        let report = try #require(box.report)
        try expectGolden(report.description + "\n", named: "page.txt")
    }

    @Test func aHitAMissAFailureAndATimeoutEachShowInTheirFields() async throws {
        let box = try await renderPage()
        let report = try #require(box.report)
        #expect(report.shellAt == .zero)
        #expect(report.finishedAt == .milliseconds(100))

        let hit = try #require(box.query("settings"))
        #expect(hit.outcome == .hit)
        #expect(hit.startedAt == .zero && hit.finishedAt == .zero)

        let miss = try #require(box.query("user/1"))
        #expect(miss.outcome == .miss)
        #expect(miss.cause == .firstPass)
        #expect(miss.startedAt == .zero && miss.finishedAt == .milliseconds(50))
        let user = try #require(box.boundary("0"))
        #expect(user.kind == .suspense)
        #expect(user.fallbackAt == .zero && user.revealedAt == .milliseconds(50))
        #expect(user.waitedOn.map(\.key) == ["user/1"])
        #expect(user.revealedBy == "user/1")

        let failed = try #require(box.query("feed"))
        #expect(failed.error == "feed failed")
        #expect(failed.finishedAt == .milliseconds(20))
        let feedBoundary = try #require(report.boundaries.first { $0.kind == .errorBoundary })
        #expect(feedBoundary.errors == ["feed failed"])

        let slow = try #require(box.query("slow"))
        #expect(slow.cancelled)
        #expect(slow.finishedAt == nil)
        let timedOut = try #require(report.boundaries.first { $0.waitedOn.map(\.key) == ["slow"] })
        #expect(timedOut.timedOut)
        #expect(timedOut.revealedAt == nil)

        // The waterfall: comments started by the result of posts, which revealed nothing alone.
        let comments = try #require(box.query("comments"))
        #expect(comments.cause == .result(of: "posts"))
        #expect(comments.startedAt == .milliseconds(30) && comments.finishedAt == .milliseconds(60))
        let posts = try #require(report.boundaries.first { $0.waitedOn.map(\.key) == ["posts", "comments"] })
        #expect(posts.revealedAt == .milliseconds(60))
        #expect(posts.revealedBy == "comments")
        #expect(report.diagnostics.map(\.code) == [.sequentialQueries])
    }

    @Test func aRenderJoiningAnotherRendersRunSaysSo() async throws {
        let cache = QueryCache()
        let gates = Gates()
        let first = ReportBox()
        let second = ReportBox()
        async let one = render(SharedPage(gates: gates), as: .plain, cache: cache, options: first.options())
        try await waitUntil("the first render to start its query") { gates.runs.value == 1 }
        async let two = render(SharedPage(gates: gates), as: .plain, cache: cache, options: second.options())
        try await waitUntil("the second render to join") { cache.subscriberCount(of: "shared") == 2 }
        gates.open("shared")
        _ = try await (one, two)
        #expect(first.query("shared")?.outcome == .miss)
        #expect(second.query("shared")?.outcome == .joined)
        #expect(second.boundary("0")?.waitedOn.map(\.outcome) == [.joined])
        #expect(gates.runs.value == 1)
    }

    @Test func aReadOfAPrefetchInFlightIsPrefetched() async throws {
        let cache = QueryCache()
        let gates = Gates()
        cache.prefetch(key: "shared") { try await gates.value("shared") }
        let box = ReportBox()
        async let output = render(SharedPage(gates: gates), as: .plain, cache: cache, options: box.options())
        try await waitUntil("the render to wait on the prefetch") { cache.subscriberCount(of: "shared") == 1 }
        gates.open("shared")
        #expect(try await output == "shared loaded")
        #expect(box.query("shared")?.outcome == .prefetched)
    }

    @Test func aStaleValueServedWhileItRefreshesIsStale() async throws {
        let clock = TestClock()
        let cache = QueryCache(freshFor: .seconds(10), staleFor: .seconds(60), clock: clock)
        cache.store("old", for: "user/1")
        clock.advance(by: .seconds(20))
        let box = ReportBox()
        let page = Suspense {
            try Timed("user/1", after: .milliseconds(10), clock: clock)
        } fallback: {
            Text("Loading…")
        }
        #expect(try await render(page, as: .plain, cache: cache, options: box.options()) == "old")
        #expect(box.query("user/1")?.outcome == .stale)
        #expect(box.report?.boundaries.isEmpty == true)
        // The refresh belongs to the cache and waits on the clock: let it finish, so that it does
        // not outlive the test holding the cache.
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(10))
        try await waitUntil("the refresh to store its value") {
            cache.value(for: "user/1", as: String.self) == "user/1 loaded"
        }
    }

    @Test func anErrorBoundaryThatTriesAgainCountsItsRetries() async throws {
        let clock = TestClock()
        let flaky = Flaky(failures: 1)
        let box = ReportBox()
        let page = Suspense {
            ErrorBoundary(retry: RetryPolicy(maxAttempts: 3, initialDelay: .seconds(1))) {
                try ErrorBoundaryRetryTests.Card("card", flaky: flaky)
            } fallback: { error in
                Text("failed: \(error)")
            }
        } fallback: {
            Text("Loading…")
        }
        async let output = render(page, as: .plain, options: box.options(RenderOptions(clock: clock)))
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        #expect(try await output == "loaded after 2 calls")
        let boundary = try #require(box.report?.boundaries.first { $0.kind == .errorBoundary })
        #expect(boundary.retries == 1)
        // Tried again, so never caught: the failure shows in the first run of its query.
        #expect(boundary.errors.isEmpty)
        let runs = try #require(box.report?.queries.filter { $0.key == "card" })
        #expect(runs.map(\.error) == ["unavailable", nil])
        #expect(runs.map(\.cause) == [.firstPass, .retry(of: boundary.id)])
    }

    @Test func everyEntryPointDeliversOneReport() async throws {
        func page(_ clock: TestClock) -> some Component {
            Suspense {
                try Timed("a", after: .milliseconds(10), clock: clock)
            } fallback: {
                Text("Loading…")
            }
        }
        func check(_ box: ReportBox, _ entry: String) {
            #expect(box.reportCount == 1, "\(entry)")
            #expect(box.boundary("0")?.revealedAt == .milliseconds(10), "\(entry)")
            // The clock moves as soon as the query sleeps, which may be before the first pass
            // ends: the shell (and the fallback with it) is at 0 or at 10 ms, never after.
            #expect(box.boundary("0")?.fallbackAt == box.report?.shellAt, "\(entry)")
            #expect(box.report?.shellAt.map { $0 <= .milliseconds(10) } == true, "\(entry)")
            #expect(box.boundary("0")?.revealedBy == "a", "\(entry)")
        }
        for format in [RenderFormat.tree, .plain, .html] {
            let clock = TestClock()
            let box = ReportBox()
            async let output = render(page(clock), as: format, options: box.options(RenderOptions(clock: clock)))
            await clock.waitForSleepers(1)
            clock.advance(by: .milliseconds(10))
            _ = try await output
            check(box, "\(format)")
        }
        for order in [StreamOptions.Order.outOfOrder, .inOrder] {
            let clock = TestClock()
            let box = ReportBox()
            let stream = try await renderStream(
                page(clock), options: box.options(RenderOptions(clock: clock)), stream: StreamOptions(order: order))
            await clock.waitForSleepers(1)
            clock.advance(by: .milliseconds(10))
            for try await _ in stream {}
            check(box, "\(order)")
        }
        let clock = TestClock()
        let box = ReportBox()
        async let frames = resolveFrames(page(clock), options: box.options(RenderOptions(clock: clock)))
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(10))
        #expect(try await frames.count == 2)
        check(box, "frames")
    }

    @Test func aFailedRenderStillDeliversItsReport() async throws {
        let box = ReportBox()
        let page = Group { try Thrower("boom") }
        await #expect(throws: RenderError.self) { try await render(page, as: .plain, options: box.options()) }
        #expect(box.reportCount == 1)
        #expect(box.report?.shellAt == nil)
        #expect(box.report?.error != nil)
    }

    @Test func anInOrderStreamSendsTheSameChunksWithAReport() async throws {
        func chunks(_ options: RenderOptions, clock: TestClock) async throws -> [String] {
            let stream = try await renderStream(
                Page(clock: clock), options: options, stream: StreamOptions(order: .inOrder))
            await clock.waitForSleepers(5)
            clock.advance(by: .seconds(1))
            // The waterfall's second query starts only once the first has answered.
            await clock.waitForSleeper(dueAt: .milliseconds(1030))
            clock.advance(by: .seconds(1))
            var chunks: [String] = []
            for try await chunk in stream { chunks.append(chunk) }
            return chunks
        }
        let plainClock = TestClock()
        let reportClock = TestClock()
        let plain = try await chunks(RenderOptions(clock: plainClock), clock: plainClock)
        let reported = try await chunks(ReportBox().options(RenderOptions(clock: reportClock)), clock: reportClock)
        // Where one chunk ends depends on how the woken queries' results fall into passes, which
        // the machine decides; what the page says, and that it is streamed, do not.
        #expect(plain.joined() == reported.joined())
        #expect(plain.count > 1 && reported.count > 1)
    }
}

/// Compares `text` with the golden file `name` under the target's
/// `__Snapshots__/RenderReportTests/`; records it when missing or when `SNAPSHOT_RECORD=all`.
func expectGolden(_ text: String, named name: String, filePath: String = #filePath) throws {
    let directory = URL(fileURLWithPath: filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("__Snapshots__/RenderReportTests")
    let file = directory.appendingPathComponent(name)
    let record = ProcessInfo.processInfo.environment["SNAPSHOT_RECORD"] == "all"
    if record || !FileManager.default.fileExists(atPath: file.path) {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try text.write(to: file, atomically: true, encoding: .utf8)
        Issue.record("Recorded \(name); check it and run again.")
        return
    }
    let golden = try String(contentsOf: file, encoding: .utf8)
    #expect(text == golden, "\(name) differs from its golden file")
}
