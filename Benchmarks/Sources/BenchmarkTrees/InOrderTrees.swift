public import SuspenseKit

/// In-order streaming: `count` boundaries in one `<ul>`, each a `Suspense` around an item whose
/// query answers after one yield, so that most items resolve after the shell, one pass each.
public struct InOrderBoundaries: Component {
    public let count: Int
    public init(count: Int) { self.count = count }

    public var body: some Component {
        Element("ul") {
            ForEach(0..<count) { index in
                Suspense {
                    try InOrderItem(index: index)
                } fallback: {
                    Element("li") { Text("…") }
                }
            }
        }
    }
}

public struct InOrderItem: Component {
    let text: String

    public init(index: Int) throws {
        text = try resolveValue(key: "in-order/\(index)") {
            await Task.yield()
            return itemText(index)
        }
    }

    public var body: some Component {
        Element("li") { Text(text) }
    }
}

extension Workloads {
    /// In-order streaming: `count` boundaries rendered whole.
    public static func inOrderBoundaries(count: Int) async throws -> String {
        try await render(InOrderBoundaries(count: count), as: .html)
    }

    /// In-order streaming: the same boundaries streamed in `order` and collected.
    public static func streamedInOrderBoundaries(count: Int, order: StreamOptions.Order) async throws -> String {
        try await renderStream(InOrderBoundaries(count: count), stream: StreamOptions(order: order)).collect()
    }
}
