import DashboardPage
import DashboardRoutes
import ServerTestSupport
import Testing

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

    @Test func anUnknownPathIsNotFound() async throws {
        try await withServer(makeDashboardRouter(latencies: Latencies().scaled(by: 0))) { port in
            let client = try RawHTTPClient(port: port, path: "/nowhere")
            try await client.waitForEnd()
            #expect(client.status == 404)
        }
    }
}
