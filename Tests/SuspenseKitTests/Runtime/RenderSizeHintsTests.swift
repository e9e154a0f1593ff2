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

    private struct KeyedList: Component {
        let count: Int
        var body: some Component {
            ForEach(0..<count) { index in try KeyedItem(index: index) }
        }
    }

    private struct KeyedItem: Component {
        let value: Int
        init(index: Int) throws {
            value = try resolveValue(key: "hinted/\(index)") { index }
        }
        var body: some Component { Text("\(value)") }
    }

    @Test func aRenderWithAnEmptyCacheRecordsHowManyResultsItStored() async throws {
        _ = try await render(KeyedList(count: 300), as: .plain)
        #expect(RenderSizeHints.size(of: KeyedList.self)?.queries == 300)
        // With a cache holding results already, the count says nothing about the page: none.
        let cache = QueryCache()
        cache.store(1, for: "unrelated")
        _ = try await render(KeyedList(count: 300), as: .plain, cache: cache)
        #expect(RenderSizeHints.size(of: KeyedList.self)?.queries == 0)
    }

    @Test func anEmptyCacheReservesRoomForTheHintedResults() {
        let cache = QueryCache()
        cache.reserveIfEmpty(5_000)
        #expect(cache.state.withLock { $0.table.capacity } >= 5_000)
        cache.store(1, for: "a")
        let full = QueryCache()
        full.store(1, for: "a")
        full.reserveIfEmpty(5_000)
        #expect(full.state.withLock { $0.table.capacity } < 5_000)
    }

    @Test func anArenaReservesWhatTheHintSays() {
        var arena = NodeArena()
        arena.reserve(RenderSizeHints.Size(records: 5_000, bytes: 70_000))
        #expect(arena.records.capacity >= 5_000)
        #expect(arena.bytes.capacity >= 70_000)
    }
}
