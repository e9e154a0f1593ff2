public import DashboardPage
import SuspenseKit
import SuspenseKitVapor
public import Vapor

/// The routes of `DashboardServer`: the Dashboard document streamed out of order at `/`, in
/// order at `/in-order`, and rendered whole at `/whole`.
///
/// ```swift
/// try app.register(collection: DashboardPages())
/// ```
public struct DashboardPages: RouteCollection {
    let latencies: Latencies

    /// The routes, with the simulated backends' `latencies`.
    public init(latencies: Latencies = Latencies()) {
        self.latencies = latencies
    }

    /// Adds the three routes to `routes`.
    public func boot(routes: any RoutesBuilder) throws {
        let latencies = self.latencies
        routes.get { _ in
            await StreamedComponent(DashboardDocument(latencies: latencies))
        }
        routes.get("in-order") { _ in
            await StreamedComponent(DashboardDocument(latencies: latencies), stream: StreamOptions(order: .inOrder))
        }
        routes.get("whole") { _ in
            let page = try await render(DashboardDocument(latencies: latencies), as: .html)
            return Response(
                status: .ok, headers: ["Content-Type": "text/html; charset=utf-8"], body: .init(string: page))
        }
    }
}
