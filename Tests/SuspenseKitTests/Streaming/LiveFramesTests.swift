import Testing

@testable import SuspenseKit

@Suite struct LiveFramesTests {
    struct TwoCards: Component {
        let gates: Gates
        var body: some Component {
            Element("main") {
                Suspense {
                    try Gated("a", gates: gates)
                } fallback: {
                    Element("p") { Text("loading a") }
                }
                Suspense {
                    try Gated("b", gates: gates)
                } fallback: {
                    Element("p") { Text("loading b") }
                }
            }
        }
    }

    @Test func eachFrameArrivesWhileTheRenderStillWaits() async throws {
        let gates = Gates()
        var frames = liveFrames(TwoCards(gates: gates)).makeAsyncIterator()
        let shell = try #require(try await frames.next())
        #expect(shell.cause == .shell)
        #expect(try shell.rendered(as: .plain) == "loading a\nloading b")
        #expect(shell.pendingQueries == ["a", "b"])
        gates.open("b")
        let second = try #require(try await frames.next())
        #expect(second.cause == .query("b"))
        #expect(try second.rendered(as: .plain) == "loading a\nb loaded")
        #expect(second.pendingQueries == ["a"])
        gates.open("a")
        let third = try #require(try await frames.next())
        #expect(try third.rendered(as: .html) == "<main><p>a loaded</p><p>b loaded</p></main>")
        #expect(third.pendingQueries.isEmpty)
        #expect(try await frames.next() == nil)
    }

    @Test func resolveFramesCollectsTheLiveFrames() async throws {
        struct Page: Component {
            var body: some Component {
                Suspense {
                    try Loaded("a")
                } fallback: {
                    Text("loading a")
                }
                Suspense {
                    try Loaded("b")
                } fallback: {
                    Text("loading b")
                }
            }
        }
        let options = RenderOptions(deliveryOrder: .discovery)
        var live: [RenderFrame] = []
        for try await frame in liveFrames(Page(), options: options) { live.append(frame) }
        let collected = try await resolveFrames(Page(), options: options)
        #expect(live.map(\.cause) == [.shell, .query("a"), .query("b")])
        #expect(collected == live)
    }

    @Test func anUncaughtErrorEndsTheFramesByThrowing() async throws {
        let gates = Gates()
        struct Page: Component {
            let gates: Gates
            var body: some Component {
                Suspense {
                    try Gated("a", gates: gates, fails: true)
                } fallback: {
                    Text("loading")
                }
            }
        }
        var frames = liveFrames(Page(gates: gates)).makeAsyncIterator()
        #expect(try await frames.next()?.cause == .shell)
        gates.open("a")
        await #expect(throws: RenderError.self) { _ = try await frames.next() }
    }

    @Test func aConsumerThatStopsReadingCancelsTheQueries() async throws {
        let gates = Gates()
        do {
            var frames = liveFrames(TwoCards(gates: gates)).makeAsyncIterator()
            _ = try await frames.next()
        }
        try await waitUntil("both queries cancelled") { gates.cancellations.value == 2 }
    }

    @Test func aTerminalIsRedrawnInPlaceWithALineNamingWhatIsPending() async throws {
        let gates = Gates()
        let writes = Log()
        let terminal = LiveTerminal(format: .plain, isTerminal: true, columns: 80) { writes.append($0) }
        let rendering = Task { try await terminal.render(TwoCards(gates: gates)) }
        try await waitUntil("the shell is drawn") { writes.all.count == 1 }
        gates.open("a")
        try await waitUntil("a is drawn") { writes.all.count == 2 }
        gates.open("b")
        let final = try await rendering.value
        #expect(final == "a loaded\nb loaded")
        #expect(
            writes.all == [
                // The cursor hidden; the status line last, the cursor left on it.
                "\u{1B}[?25lloading a\nloading b\n\u{1B}[2m… waiting on a, b\u{1B}[0m",
                // Up two rows to the first line, cleared, drawn again.
                "\u{1B}[2F\u{1B}[Ja loaded\nloading b\n\u{1B}[2m… waiting on b\u{1B}[0m",
                "\u{1B}[2F\u{1B}[Ja loaded\nb loaded\n",
                // At the end, the empty status row cleared and the cursor shown again.
                "\r\u{1B}[2K\u{1B}[?25h",
            ])
    }

    @Test func outputThatIsNotATerminalGetsOnlyTheFinalRendering() async throws {
        let gates = Gates()
        gates.open("a")
        gates.open("b")
        let writes = Log()
        let terminal = LiveTerminal(format: .plain, isTerminal: false, columns: nil) { writes.append($0) }
        try await terminal.render(TwoCards(gates: gates))
        #expect(writes.all == ["a loaded\nb loaded\n"])
    }
}
