import Testing

@testable import SuspenseKit

/// Spare arrays: a render's node records are kept for the next render, within bounds.
@Suite struct SparePoolTests {
    /// 1 KB to 4 KB of `Int`s: 128 to 512 of them.
    private func pool(maxKept: Int = 2) -> SparePool<Int> {
        SparePool(maxKept: maxKept, minBytes: 1_024, maxBytes: 4_096)
    }

    @Test func anArrayGivenBackIsTakenAgainEmptyWithItsRoom() throws {
        let pool = pool()
        #expect(pool.take() == nil)
        var array = Array(0..<300)
        let capacity = array.capacity
        pool.give(&array)
        #expect(array.isEmpty)
        #expect(pool.count == 1)
        let taken = try #require(pool.take())
        #expect(taken.isEmpty)
        #expect(taken.capacity == capacity)
        #expect(pool.count == 0)
        #expect(pool.take() == nil)
    }

    @Test func arraysOutsideTheBoundsAreNotKept() {
        let pool = pool()
        var small = Array(0..<10)
        pool.give(&small)
        var large = Array(0..<10_000)
        pool.give(&large)
        #expect(small.isEmpty && large.isEmpty)
        #expect(pool.count == 0)
    }

    @Test func atMostMaxKeptArraysAreKept() {
        let pool = pool(maxKept: 2)
        for _ in 0..<5 {
            var array = Array(0..<300)
            pool.give(&array)
        }
        #expect(pool.count == 2)
    }

    private struct LargeList: Component {
        let count: Int
        var body: some Component {
            Element("ul") { ForEach(0..<count) { index in Element("li") { Text("item \(index)") } } }
        }
    }

    /// A render after a large one reuses its records, and writes its own page, not the old one.
    @Test func aRenderAfterALargeOneWritesItsOwnPage() async throws {
        // 2 × 23,000 + 2 nodes of 24 bytes: over the 1 MB a kept array needs.
        let large = try await render(LargeList(count: 23_000), as: .html)
        #expect(large.hasSuffix("<li>item 22999</li></ul>"))
        let small = try await render(LargeList(count: 2), as: .html)
        #expect(small == "<ul><li>item 0</li><li>item 1</li></ul>")
        #expect(NodeArena.spareRecords.count <= NodeArena.spareRecords.maxKept)
    }

    /// Renders running at once take and give records from one pool (two of them large enough
    /// to be kept): each writes its own page, and no more than `maxKept` arrays are kept after.
    @Test func rendersAtOnceEachWriteTheirOwnPage() async throws {
        let pages = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for count in [23_000, 2, 24_000, 3] {
                group.addTask { (count, try await render(LargeList(count: count), as: .html)) }
            }
            return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
        for (count, page) in pages {
            #expect(page.hasPrefix("<ul><li>item 0</li>"))
            #expect(page.hasSuffix("<li>item \(count - 1)</li></ul>"))
            #expect(
                page.utf8.count == "<ul></ul>".utf8.count
                    + (0..<count).reduce(0) { $0 + "<li>item \($1)</li>".utf8.count })
        }
        #expect(NodeArena.spareRecords.count <= NodeArena.spareRecords.maxKept)
    }
}
