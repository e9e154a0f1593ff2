import DashboardPage
import DashboardRoutes
import ServerTestSupport
import Testing
import Vapor

/// The routes `DashboardServer` serves, on a real Vapor server, with the example's latencies cut
/// to a twentieth.
@Suite(.timeLimit(.minutes(2)))
struct DashboardServerTests {
    static let cards = [
        "<p>1204</p>", "<p>37</p>", "No open tasks.",
        "Could not load alerts: the alerting service is unavailable",
        "Ship it &amp; see &lt;what&gt; happens!",
    ]

    @Test(arguments: ["/", "/in-order", "/whole"])
    func everyCardArrives(path: String) async throws {
        try await withServer { app in
            try app.register(collection: DashboardPages(latencies: Latencies().scaled(by: 0.05)))
        } test: { port in
            let client = try RawHTTPClient(port: port, path: path)
            try await client.waitForEnd()
            #expect(client.status == 200)
            #expect(client.header("Content-Type") == "text/html; charset=utf-8")
            let page = client.body
            for text in Self.cards {
                #expect(page.contains(text), "\(path) lacks \(text)")
            }
            #expect(page.hasPrefix("<!DOCTYPE html><html lang=\"en\">"))
            #expect(page.hasSuffix("</body></html>"))
            switch path {
            case "/":
                #expect(client.chunks.complete)
                #expect(client.chunks.data.count > 1)
                #expect(page.contains("<template><section"))
            case "/in-order":
                #expect(client.chunks.complete)
                #expect(!page.contains("<script"))
                #expect(!page.contains("Loading…"))
            default:
                #expect(client.header("Content-Length") == "\(page.utf8.count)")
            }
        }
    }

    @Test func anUnknownPathIsNotFound() async throws {
        try await withServer { app in
            try app.register(collection: DashboardPages(latencies: Latencies().scaled(by: 0)))
        } test: { port in
            let client = try RawHTTPClient(port: port, path: "/nowhere")
            try await client.waitForEnd()
            #expect(client.status == 404)
        }
    }
}
