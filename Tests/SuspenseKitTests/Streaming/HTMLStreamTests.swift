import Testing

@testable import SuspenseKit

@Suite struct HTMLStreamTests {
    struct TwoCards: Component {
        let gates: Gates
        var body: some Component {
            Element("main") {
                Element("h1") { Text("Title") }
                Suspense {
                    try Gated("a", gates: gates)
                } fallback: {
                    Text("loading a")
                }
                Suspense {
                    try Gated("b", gates: gates)
                } fallback: {
                    Text("loading b")
                }
            }
        }
    }

    @Test func theShellComesFirstThenEachBoundaryInTheOrderItResolves() async throws {
        let gates = Gates()
        var chunks = ChunkReader(try await renderStream(TwoCards(gates: gates)))
        let shell = try await chunks.next()
        #expect(
            shell
                == "<main><h1>Title</h1><!--sk:0.1-->loading a<!--/sk:0.1--><!--sk:0.2-->loading b<!--/sk:0.2--></main>"
        )
        gates.open("b")
        let first = try await chunks.next()
        #expect(first.hasPrefix("<template><p>b loaded</p></template><script>function $sk(i){"))
        #expect(first.hasSuffix("$sk(\"0.2\")</script>"))
        gates.open("a")
        let second = try await chunks.next()
        #expect(second == "<template><p>a loaded</p></template><script>$sk(\"0.1\")</script>")
        #expect(try await chunks.next() == streamCleanup)
        try await chunks.end()
    }

    @Test func aPageWithNothingPendingIsOneChunkThatEqualsTheWholeRender() async throws {
        struct Static: Component {
            var body: some Component {
                Element("main") {
                    Suspense {
                        Text("ready & set")
                    } fallback: {
                        Text("never")
                    }
                }
            }
        }
        var chunks = ChunkReader(try await renderStream(Static()))
        let only = try await chunks.next()
        let whole = try await render(Static(), as: .html)
        #expect(only == whole)
        try await chunks.end()
    }

    @Test func anErrorThatEscapesTheShellIsThrownBeforeAnyChunk() async throws {
        let gates = Gates()
        gates.open("shell")
        struct Page: Component {
            let gates: Gates
            var body: some Component {
                Element("main") { try Gated("shell", gates: gates, fails: true) }
            }
        }
        await #expect(throws: RenderError.self) {
            _ = try await renderStream(Page(gates: gates))
        }
    }

    @Test func aLateErrorReplacesTheWholeRegionOfTheNearestErrorBoundary() async throws {
        let gates = Gates()
        struct Page: Component {
            let gates: Gates
            var body: some Component {
                Element("main") {
                    ErrorBoundary {
                        Element("p") { Text("outside the Suspense") }
                        Suspense {
                            try Gated("x", gates: gates, fails: true)
                        } fallback: {
                            Text("loading x")
                        }
                    } fallback: { error in
                        Element("p") { Text("failed: \(error)") }
                    }
                }
            }
        }
        var chunks = ChunkReader(try await renderStream(Page(gates: gates)))
        #expect(
            try await chunks.next()
                == "<main><!--sk:0.0--><p>outside the Suspense</p><!--sk:0.0.1-->loading x<!--/sk:0.0.1--><!--/sk:0.0--></main>"
        )
        gates.open("x")
        let caught = try await chunks.next()
        #expect(caught.hasPrefix("<template><p>failed: x failed</p></template><script>"))
        #expect(caught.hasSuffix("$sk(\"0.0\")</script>"))
        #expect(try await chunks.next() == streamCleanup)
        try await chunks.end()
    }

    @Test func anUncaughtLateErrorShowsTheLateErrorPageClosesTheDocumentThenThrows() async throws {
        let gates = Gates()
        struct Page: Component {
            let gates: Gates
            var body: some Component {
                Element("html") {
                    Element("body") {
                        Suspense {
                            try Gated("x", gates: gates, fails: true)
                        } fallback: {
                            Text("loading")
                        }
                    }
                }
            }
        }
        var chunks = ChunkReader(try await renderStream(Page(gates: gates)))
        #expect(try await chunks.next() == "<!DOCTYPE html><html><body><!--sk:0.0.0-->loading<!--/sk:0.0.0-->")
        gates.open("x")
        let last = try await chunks.next()
        #expect(last.hasPrefix("<template>\(StreamOptions.genericLateErrorHTML)</template><script>function $sk(i){"))
        #expect(last.hasSuffix("$sk(\"0.0.0\")</script>\(streamCleanup)</body></html>"))
        await #expect(throws: RenderError.self) { try await chunks.end() }
    }

    @Test func aDocumentSpelledInCapitalsKeepsItsEndForTheLastChunkToo() async throws {
        let gates = Gates()
        struct Page: Component {
            let gates: Gates
            var body: some Component {
                Element("HTML") {
                    Element("Body") {
                        Suspense {
                            try Gated("x", gates: gates)
                        } fallback: {
                            Text("loading")
                        }
                    }
                }
            }
        }
        var chunks: [String] = []
        for try await chunk in try await renderStream(Page(gates: gates)) {
            chunks.append(chunk)
            if chunks.count == 1 { gates.open("x") }
        }
        #expect(chunks.first == "<!DOCTYPE html><HTML><Body><!--sk:0.0.0-->loading<!--/sk:0.0.0-->")
        // The document's end held back for the last chunk, once.
        #expect(chunks.last?.hasSuffix("</Body></HTML>") == true)
        #expect(chunks.joined().components(separatedBy: "</Body>").count == 2)
    }

    @Test func aWholeDocumentKeepsItsEndForTheLastChunk() async throws {
        let gates = Gates()
        struct Page: Component {
            let gates: Gates
            var body: some Component {
                Element("html") {
                    Element("head") { Element("title") { Text("t") } }
                    Element("body") {
                        Suspense {
                            try Gated("x", gates: gates)
                        } fallback: {
                            Text("loading")
                        }
                    }
                }
            }
        }
        var chunks = ChunkReader(try await renderStream(Page(gates: gates)))
        #expect(
            try await chunks.next()
                == "<!DOCTYPE html><html><head><title>t</title></head><body><!--sk:0.1.0-->loading<!--/sk:0.1.0-->"
        )
        gates.open("x")
        #expect(try await chunks.next().hasPrefix("<template><p>x loaded</p></template><script>"))
        #expect(try await chunks.next() == streamCleanup + "</body></html>")
        try await chunks.end()
    }

    @Test func nestedBoundariesInStreamedContentStreamInLaterOnTheirOwn() async throws {
        let gates = Gates()
        struct Page: Component {
            let gates: Gates
            var body: some Component {
                Suspense {
                    try GatedWithNested("outer", inner: "inner", gates: gates)
                } fallback: {
                    Text("outer loading")
                }
            }
        }
        var chunks = ChunkReader(try await renderStream(Page(gates: gates)))
        #expect(try await chunks.next() == "<body><!--sk:0-->outer loading<!--/sk:0-->")
        gates.open("outer")
        let outer = try await chunks.next()
        #expect(
            outer.hasPrefix(
                "<template><section><h2>outer loaded</h2><!--sk:0.0.0.1-->inner loading<!--/sk:0.0.0.1--></section></template>"
            ))
        gates.open("inner")
        #expect(
            try await chunks.next()
                == "<template><p>inner loaded</p></template><script>$sk(\"0.0.0.1\")</script>")
        #expect(try await chunks.next() == streamCleanup)
        try await chunks.end()
    }

    @Test func aBoundaryResolvedTogetherWithItsParentIsSentOnce() async throws {
        let gates = Gates()
        gates.open("inner")
        struct Page: Component {
            let gates: Gates
            var body: some Component {
                Suspense {
                    try GatedWithNested("outer", inner: "inner", gates: gates)
                } fallback: {
                    Text("outer loading")
                }
            }
        }
        var chunks = ChunkReader(try await renderStream(Page(gates: gates)))
        _ = try await chunks.next()
        gates.open("outer")
        // The inner query answers at once when it starts: the outer content comes complete, or the
        // inner boundary follows in a chunk of its own; never the inner content twice.
        var rest = try await chunks.next()
        while let chunk = try await chunks.iterator.next() { rest += chunk }
        #expect(rest.components(separatedBy: "inner loaded").count == 2)
    }

    @Test func everyInlineScriptCarriesTheNonce() async throws {
        let gates = Gates()
        let stream = try await renderStream(
            TwoCards(gates: gates), stream: StreamOptions(nonce: "n0nce\"<"))
        gates.open("a")
        gates.open("b")
        let page = try await stream.collect()
        // Two swaps and the cleanup.
        #expect(page.components(separatedBy: "<script").count == 4)
        #expect(page.components(separatedBy: "<script nonce=\"n0nce&quot;&lt;\">").count == 4)
    }

    @Test func inOrderWritesTheDocumentTopToBottomWithNoScript() async throws {
        let gates = Gates()
        var chunks = ChunkReader(
            try await renderStream(TwoCards(gates: gates), stream: StreamOptions(order: .inOrder)))
        let shell = try await chunks.next()
        #expect(shell == "<main><h1>Title</h1>")
        gates.open("b")
        // b resolved, but a comes first in the document: nothing more until a has.
        try await Task.sleep(for: .milliseconds(20))
        gates.open("a")
        #expect(try await chunks.next() == "<p>a loaded</p><p>b loaded</p></main>")
        try await chunks.end()
    }

    @Test func inOrderHoldsAnErrorBoundaryThatMayStillFail() async throws {
        let gates = Gates()
        struct Page: Component {
            let gates: Gates
            var body: some Component {
                Element("main") {
                    Element("h1") { Text("Title") }
                    ErrorBoundary {
                        Element("p") { Text("before") }
                        Suspense {
                            try Gated("x", gates: gates, fails: true)
                        } fallback: {
                            Text("loading")
                        }
                    } fallback: { _ in
                        Text("failed")
                    }
                }
            }
        }
        var chunks = ChunkReader(try await renderStream(Page(gates: gates), stream: StreamOptions(order: .inOrder)))
        #expect(try await chunks.next() == "<main><h1>Title</h1>")
        gates.open("x")
        #expect(try await chunks.next() == "failed</main>")
        try await chunks.end()
    }

    @Test func inOrderClosesWhatIsOpenBeforeAnUncaughtLateError() async throws {
        let gates = Gates()
        struct Page: Component {
            let gates: Gates
            var body: some Component {
                Element("main") {
                    Element("h1") { Text("Title") }
                    Suspense {
                        try Gated("x", gates: gates, fails: true)
                    } fallback: {
                        Text("loading")
                    }
                }
            }
        }
        var chunks = ChunkReader(try await renderStream(Page(gates: gates), stream: StreamOptions(order: .inOrder)))
        #expect(try await chunks.next() == "<main><h1>Title</h1>")
        gates.open("x")
        #expect(try await chunks.next() == "</main>")
        await #expect(throws: RenderError.self) { try await chunks.end() }
    }

    @Test func aConsumerThatStopsIteratingCancelsTheQueries() async throws {
        let gates = Gates()
        do {
            var chunks = ChunkReader(try await renderStream(TwoCards(gates: gates)))
            _ = try await chunks.next()
            #expect(gates.runs.value == 2)
        }
        // The stream is gone: both queries observe their cancellation.
        try await waitUntil("both queries cancelled") { gates.cancellations.value == 2 }
    }

    @Test func breakingOutOfTheLoopCancelsTheQueriesWhileTheStreamIsStillHeld() async throws {
        let gates = Gates()
        let stream = try await renderStream(TwoCards(gates: gates))
        for try await _ in stream { break }
        // A server keeps the stream in its response while its write fails: the loop's end is
        // enough.
        try await waitUntil("both queries cancelled") { gates.cancellations.value == 2 }
        withExtendedLifetime(stream) {}
    }

    @Test func cancellingTheCallerBeforeTheShellCancelsTheRender() async throws {
        let gates = Gates()
        struct Page: Component {
            let gates: Gates
            var body: some Component { try Gated("shell", gates: gates) }
        }
        let task = Task { try await renderStream(Page(gates: gates)) }
        try await waitUntil("the query started") { gates.runs.value == 1 }
        task.cancel()
        await #expect(throws: CancellationError.self) { _ = try await task.value }
        #expect(gates.cancellations.value == 1)
    }

    @MainActor @Test func componentsOfAStreamOnTheMainActorAreEvaluatedThere() async throws {
        let gates = Gates()
        @MainActor final class Seen {
            var evaluations = 0
        }
        struct MainCard: Component {
            let value: String
            init(seen: Seen, gates: Gates) throws {
                // Traps unless the render evaluates it on the main actor.
                MainActor.assumeIsolated { seen.evaluations += 1 }
                value = try resolveValue(key: "m") { try await gates.value("m") }
            }
            var body: some Component { Text(value) }
        }
        struct Page: Component {
            let seen: Seen
            let gates: Gates
            var body: some Component {
                Suspense {
                    try MainCard(seen: seen, gates: gates)
                } fallback: {
                    Text("…")
                }
            }
        }
        let seen = Seen()
        let stream = try await renderStream(Page(seen: seen, gates: gates))
        gates.open("m")
        let page = try await stream.collect()
        #expect(page.contains("<template>m loaded</template>"))
        #expect(seen.evaluations == 2)
    }
}
