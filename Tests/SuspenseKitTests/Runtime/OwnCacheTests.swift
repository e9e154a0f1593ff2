import Testing

@testable import SuspenseKit

/// A render's own cache (a render given none) lets its results go when its loop ends, before the
/// final tree and the output are made; a cache passed in keeps them.
@Suite struct OwnCacheTests {
    @Test func aRendersOwnCacheLetsItsResultsGoWhenItsLoopEnds() {
        let own = QueryCache._perRender()
        own.store("a", for: "a")
        own.store("b", for: "b")
        #expect(own.renderEnded() == 2)
        #expect(own.storedCount == 0)
        // A cache passed in keeps what it stores.
        let shared = QueryCache(capacity: nil)
        shared.store("a", for: "a")
        #expect(shared.renderEnded() == 1)
        #expect(shared.storedCount == 1)
    }

    @Test func theSizeHintCountsTheResultsBeforeTheyGo() async throws {
        _ = try await render(QueriedList(count: 50), as: .html)
        let size = try #require(RenderSizeHints.size(of: QueriedList.self))
        #expect(size.queries == 50)
    }

    private struct QueriedList: Component {
        let count: Int
        var body: some Component {
            Element("ul") { ForEach(0..<count) { index in try QueriedItem(index: index) } }
        }
    }

    private struct QueriedItem: Component {
        let text: String
        init(index: Int) throws {
            text = try resolveValue(key: "spare/\(index)") { "item \(index)" }
        }
        var body: some Component { Element("li") { Text(text) } }
    }
}
