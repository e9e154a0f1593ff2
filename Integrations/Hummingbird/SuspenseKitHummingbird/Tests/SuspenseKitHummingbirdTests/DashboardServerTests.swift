import DashboardPage
import ServerTestSupport
import Testing

@testable import DashboardRoutes

/// The routes `DashboardServer` serves, on a real server, with the example's latencies cut to a
/// twentieth.
@Suite(.timeLimit(.minutes(2)))
struct DashboardServerTests {
    @Test(arguments: ["/", "/in-order", "/whole"])
    func everyCardArrives(path: String) async throws {
        let router = makeDashboardRouter(latencies: Latencies().scaled(by: 0.05))
        try await withServer(router) { port in
            try await StreamingChecks.everyDashboardCardArrives(port: port, path: path)
        }
    }

    /// `--test-clock`: no card answers until the clock moves; an advance returns once the calls
    /// due have their answers, and the list's page ends once the last one has.
    @Test func theTestClockDecidesWhenTheCardsAnswer() async throws {
        let clock = DashboardTestClock()
        try await withServer(makeDashboardRouter(testClock: clock)) { port in
            let page = try RawHTTPClient(port: port, path: "/list")
            // Every card's call sleeps on the clock, none has answered.
            try await waitForClock(#"{"now":0,"sleepers":5}"#, port: port)
            #expect(!page.body.contains("<p>1204</p>"))
            #expect(await clock.advance(by: .milliseconds(60)))
            try await page.waitFor("<h2>Visitors</h2><p>1204</p>")
            try await waitForClock(#"{"now":60,"sleepers":4}"#, port: port)
            // Release notes, then its comments 300 ms later, Tasks, Alerts, Signups last.
            #expect(await clock.advance(by: .milliseconds(40)))
            try await waitForClock(#"{"now":100,"sleepers":4}"#, port: port)
            #expect(await clock.advance(by: .milliseconds(350)))
            try await page.waitForEnd()
            #expect(page.body.contains("<h2>Signups</h2><p>37</p>"))
            #expect(page.body.contains("Ship it &amp; see &lt;what&gt; happens!"))
            #expect(page.body.hasSuffix("</body></html>"))
        }
    }

    @Test func theClockRoutesNeedATestClock() async throws {
        try await withServer(makeDashboardRouter(latencies: Latencies().scaled(by: 0))) { port in
            let client = try RawHTTPClient(port: port, path: "/clock/now")
            try await client.waitForEnd()
            #expect(client.status == 404)
        }
    }

    /// Asks `/clock/now` until it answers `state`.
    private func waitForClock(_ state: String, port: Int) async throws {
        var answer = ""
        for _ in 0..<1000 {
            let client = try RawHTTPClient(port: port, path: "/clock/now")
            try await client.waitForEnd()
            answer = client.body
            if answer == state { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        Issue.record("the clock answered \(answer), not \(state)")
    }

    @Test func anUnknownPathIsNotFound() async throws {
        try await withServer(makeDashboardRouter(latencies: Latencies().scaled(by: 0))) { port in
            let client = try RawHTTPClient(port: port, path: "/nowhere")
            try await client.waitForEnd()
            #expect(client.status == 404)
        }
    }
}
