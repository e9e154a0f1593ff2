public import SuspenseKit

extension Workloads {
    /// In-order streaming: benchmark 7's `count` boundaries rendered whole.
    public static func inOrderBoundaries(count: Int) async throws -> String {
        try await render(StreamedBoundaries(count: count), as: .html)
    }

    /// In-order streaming: the same boundaries streamed in `order` and collected.
    public static func streamedInOrderBoundaries(count: Int, order: StreamOptions.Order) async throws -> String {
        try await renderStream(StreamedBoundaries(count: count), stream: StreamOptions(order: order)).collect()
    }
}
