public import DashboardPage
public import Hummingbird
import SuspenseKit
import SuspenseKitHummingbird

/// The routes of `DashboardServer`: the Dashboard document streamed out of order at `/`, in
/// order at `/in-order`, and rendered whole at `/whole`.
public func makeDashboardRouter(latencies: Latencies = Latencies()) -> Router<BasicRequestContext> {
    let router = Router()
    router.get("/") { _, _ in
        await StreamedComponent(DashboardDocument(latencies: latencies))
    }
    router.get("/in-order") { _, _ in
        await StreamedComponent(DashboardDocument(latencies: latencies), stream: StreamOptions(order: .inOrder))
    }
    router.get("/whole") { _, _ in
        let page = try await render(DashboardDocument(latencies: latencies), as: .html)
        return Response(
            status: .ok, headers: [.contentType: "text/html; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: page)))
    }
    return router
}
