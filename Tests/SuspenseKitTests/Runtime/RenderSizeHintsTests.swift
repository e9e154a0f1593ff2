import Testing

@testable import SuspenseKit

/// Capacity hints: a render reserves what the last render of its root type needed.
@Suite struct RenderSizeHintsTests {
    private struct HintedList: Component {
        let count: Int
        var body: some Component {
            Element("ul") { ForEach(0..<count) { index in Element("li") { Text("item \(index)") } } }
        }
    }

    private struct NeverRendered: Component {
        var body: some Component { Text("never") }
    }

    @Test func aRenderRecordsItsSizeForTheNextRenderOfItsRootType() async throws {
        _ = try await render(HintedList(count: 1_000), as: .html)
        let size = try #require(RenderSizeHints.size(of: HintedList.self))
        // A node per element and text, and every text's bytes.
        #expect(size.records >= 2_001)
        #expect(size.bytes >= "item 0".utf8.count * 1_000)
        // A type never rendered has no hint.
        #expect(RenderSizeHints.size(of: NeverRendered.self) == nil)
    }

    @Test func anArenaReservesWhatTheHintSays() {
        var arena = NodeArena()
        arena.reserve(RenderSizeHints.Size(records: 5_000, bytes: 70_000))
        #expect(arena.records.capacity >= 5_000)
        #expect(arena.bytes.capacity >= 70_000)
    }
}
