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

    /// Each item reads a key of its own (`count` keys, each read by two items) whose query
    /// suspends, so every item suspends.
    private struct SuspendingList: Component {
        let count: Int
        var body: some Component {
            Suspense {
                ForEach(0..<(count * 2)) { index in try SuspendingItem(key: "suspending/\(index % count)") }
            } fallback: {
                Text("…")
            }
        }
    }

    private struct SuspendingItem: Component {
        let value: String
        init(key: String) throws {
            value = try resolveValue(key: key) {
                await Task.yield()
                return key
            }
        }
        var body: some Component { Text(value) }
    }

    @Test func aRenderRecordsHowManyQueriesItsComponentsSuspendedOn() async throws {
        _ = try await render(SuspendingList(count: 250), as: .plain)
        // 500 components suspended, on 250 distinct keys.
        #expect(RenderSizeHints.size(of: SuspendingList.self)?.waits == 250)
        // And each of the 500 components left a slot record.
        #expect(RenderSizeHints.size(of: SuspendingList.self)?.slots == 500)
        // Queries that answer at once suspend nobody: no room is asked for. (A root type of its
        // own: the hints are global, and tests run in parallel.)
        _ = try await render(InstantList(), as: .plain)
        #expect(RenderSizeHints.size(of: InstantList.self)?.waits == 0)
        #expect(RenderSizeHints.size(of: InstantList.self)?.slots == 0)
    }

    private struct InstantList: Component {
        var body: some Component {
            ForEach(0..<300) { index in try KeyedItem(index: index) }
        }
    }

    @Test func theWaitTableReservesWhatTheHintSays() {
        var waits = WaitTable()
        waits.reserve(3_000)
        #expect(waits.capacity >= 3_000)
        let mailbox = QueryMailbox()
        mailbox.reserveAwaiting(3_000)
        #expect(mailbox.awaitingCapacity >= 3_000)
    }

    @Test func theSlotRecordsReserveWhatTheHintSays() {
        var records = Records()
        records.reserve(RenderSizeHints.Size(records: 0, bytes: 0, slots: 4_000))
        #expect(records.slots.capacity >= 4_000)
    }

    @Test func anArenaReservesWhatTheHintSays() {
        var arena = NodeArena()
        arena.reserve(RenderSizeHints.Size(records: 5_000, bytes: 70_000))
        #expect(arena.records.capacity >= 5_000)
        #expect(arena.bytes.capacity >= 70_000)
    }
}
