import Testing

@testable import SuspenseKit

/// A reader that falls behind holds the render instead of memory; a reader that is cancelled
/// gets `CancellationError`, never a truncated page.
@Suite struct BackpressureTests {
    /// `count` boundaries, each waiting on its own query, each resolving to about 1 KB.
    struct ManyBoundaries: Component {
        let count: Int
        let runs: Counter
        var body: some Component {
            Element("main") {
                ForEach(0..<count) { index in
                    Suspense {
                        try Kilobyte(index: index, runs: runs)
                    } fallback: {
                        Text("…")
                    }
                }
            }
        }
    }

    struct Kilobyte: Component {
        let text: String
        init(index: Int, runs: Counter) throws {
            text = try resolveValue(key: "kb/\(index)") {
                runs.increment()
                await Task.yield()
                return String(repeating: "x", count: 1_000) + String(index)
            }
        }
        var body: some Component { Element("p") { Text(text) } }
    }

    @Test func aStalledReaderHoldsTheRenderWithinTheBufferLimit() async throws {
        let runs = Counter()
        let stream = try await renderStream(ManyBoundaries(count: 400, runs: runs))
        var iterator = stream.makeAsyncIterator()
        _ = try await iterator.next()  // the shell
        // Every query runs to its end although nobody reads (they are not held).
        try await waitUntil("every query ran") { runs.value == 400 }
        let channel = stream.core.channel
        // The render goes on until the buffer passes its limit, then waits: one chunk is about
        // 1 KB, so it stops far short of the 400 chunks it would otherwise have buffered.
        try await waitUntil("the render to fill the buffer") { channel.buffered.cost > StreamChunker.bufferLimit }
        for _ in 0..<50 { await Task.yield() }
        let (cost, sent) = channel.buffered
        #expect(cost <= StreamChunker.bufferLimit + 2_048)
        #expect(sent < 120)
        // Reading on gives the whole page, equal to the whole render's.
        var page = ""
        while let chunk = try await iterator.next() { page += chunk }
        #expect(page.contains(String(repeating: "x", count: 1_000) + "399"))
        #expect(channel.buffered.sent > 400)
    }

    @Test func aStalledFramesReaderHoldsTheRenderAfterSixteenFrames() async throws {
        let runs = Counter()
        let frames = liveFrames(
            ManyBoundaries(count: 100, runs: runs), options: RenderOptions(deliveryOrder: .discovery))
        var iterator = frames.makeAsyncIterator()
        _ = try await iterator.next()
        try await waitUntil("every query ran") { runs.value == 100 }
        let channel = frames.core.channel
        try await waitUntil("the render to fill the buffer") { channel.buffered.cost > 16 }
        for _ in 0..<50 { await Task.yield() }
        #expect(channel.buffered.cost == 17)
        var count = 1
        while try await iterator.next() != nil { count += 1 }
        #expect(count == 101)
    }

    @Test func collectThrowsCancellationErrorWhenItsTaskIsCancelled() async throws {
        let gates = Gates()
        let stream = try await renderStream(HTMLStreamTests.TwoCards(gates: gates))
        let started = Counter()
        let reader = Task {
            started.increment()
            return try await stream.collect()
        }
        try await waitUntil("the reader to start") { started.value == 1 }
        // Its query waits on a gate that never opens: the reader waits until cancelled.
        try await waitUntil("both queries to run") { gates.runs.value == 2 }
        reader.cancel()
        await #expect(throws: CancellationError.self) { try await reader.value }
        // The render and its queries stop with the reader.
        try await waitUntil("the queries to be cancelled") { gates.cancellations.value == 2 }
    }

    @Test func aStreamDroppedWithoutBeingReadCancelsItsRender() async throws {
        let gates = Gates()
        do {
            _ = try await renderStream(HTMLStreamTests.TwoCards(gates: gates))
        }
        try await waitUntil("the queries to be cancelled") { gates.cancellations.value == 2 }
    }
}
