public import DashboardPage
public import Hummingbird
import SuspenseKit
import SuspenseKitHummingbird

/// The routes of `DashboardServer`: the Dashboard document streamed out of order at `/`, in
/// order at `/in-order`, with its cards as the rows of a forwards `SuspenseList` at `/list`, and
/// rendered whole at `/whole`. With a `testClock`, every latency sleeps on it and its routes
/// (`/clock/now`, `/clock/advance`) move it.
public func makeDashboardRouter(
    latencies: Latencies = Latencies(), testClock: DashboardTestClock? = nil
) -> Router<BasicRequestContext> {
    let router = Router()
    var latencies = latencies
    if let testClock {
        latencies.clock = testClock.latencyClock
        testClock.addRoutes(to: router)
    }
    router.get("/") { [latencies] _, _ in
        await StreamedComponent(DashboardDocument(latencies: latencies))
    }
    router.get("/in-order") { [latencies] _, _ in
        await StreamedComponent(DashboardDocument(latencies: latencies), stream: StreamOptions(order: .inOrder))
    }
    router.get("/list") { [latencies] _, _ in
        await StreamedComponent(DashboardDocument(latencies: latencies, reveal: .forwards))
    }
    router.get("/whole") { [latencies] _, _ in
        let page = try await render(DashboardDocument(latencies: latencies), as: .html)
        return Response(
            status: .ok, headers: [.contentType: "text/html; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: page)))
    }
    return router
}
