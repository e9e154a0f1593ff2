import DashboardPage
import DashboardRoutes
import ServerTestSupport
import Testing
import Vapor

/// The routes `DashboardServer` serves, on a real Vapor server, with the example's latencies cut
/// to a twentieth.
@Suite(.timeLimit(.minutes(2)))
struct DashboardServerTests {
    @Test(arguments: ["/", "/in-order", "/whole"])
    func everyCardArrives(path: String) async throws {
        try await withServer { app in
            try app.register(collection: DashboardPages(latencies: Latencies().scaled(by: 0.05)))
        } test: { port in
            try await StreamingChecks.everyDashboardCardArrives(port: port, path: path)
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
