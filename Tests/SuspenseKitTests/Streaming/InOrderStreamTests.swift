import Testing

@testable import SuspenseKit

/// The in-order stream: what it sends is never taken back, so the chunks put together are the
/// page `render` returns, even where a resolved Suspense shows its fallback again.
@Suite struct InOrderStreamTests {
    /// Loads `a`, then shows an ErrorBoundary around a Suspense loading `x`: `x` starts only once
    /// `a` has loaded, so the Suspense around this resolves before `x` answers.
    struct AThenX: Component {
        let value: String
        let gates: Gates
        init(gates: Gates) throws {
            value = try resolveValue(key: "a") { try await gates.value("a") }
            self.gates = gates
        }
        var body: some Component {
            Element("h2") { Text(value) }
            ErrorBoundary {
                Suspense {
                    try Gated("x", gates: gates, fails: true)
                } fallback: {
                    Text("x loading")
                }
            } fallback: { _ in
                // Suspends: the Suspense around the boundary, resolved, shows its fallback again.
                try Gated("f", gates: gates)
            }
        }
    }

    struct Reopening: Component {
        let gates: Gates
        var body: some Component {
            Element("main") {
                Element("h1") { Text("Title") }
                Suspense {
                    try AThenX(gates: gates)
                } fallback: {
                    Text("loading")
                }
                Element("footer") { Text("end") }
            }
        }
    }

    static func openGates(_ keys: String...) -> Gates {
        let gates = Gates()
        for key in keys { gates.open(key) }
        return gates
    }

    @Test func aResolvedSuspenseThatShowsItsFallbackAgainStreamsThePage() async throws {
        let gates = Gates()
        var chunks = ChunkReader(
            try await renderStream(Reopening(gates: gates), stream: StreamOptions(order: .inOrder)))
        #expect(try await chunks.next() == "<main><h1>Title</h1>")
        gates.open("a")
        // x starts in the pass that resolves the Suspense around it.
        try await waitUntil("x started") { gates.runs.value == 2 }
        gates.open("x")
        // x failed: the ErrorBoundary's fallback suspends, and the resolved Suspense shows its
        // fallback again. Nothing of it was sent: its ErrorBoundary could still catch.
        try await waitUntil("the fallback's query started") { gates.runs.value == 3 }
        gates.open("f")
        #expect(try await chunks.next() == "<h2>a loaded</h2><p>f loaded</p><footer>end</footer></main>")
        try await chunks.end()
        let whole = try await render(Reopening(gates: Self.openGates("a", "x", "f")), as: .html)
        #expect(whole == "<main><h1>Title</h1><h2>a loaded</h2><p>f loaded</p><footer>end</footer></main>")
    }

    /// Loads `a`, then shows a Suspense loading `p` and, after it, `AThenX`'s ErrorBoundary.
    struct AThenPAndX: Component {
        let value: String
        let gates: Gates
        init(gates: Gates) throws {
            value = try resolveValue(key: "a") { try await gates.value("a") }
            self.gates = gates
        }
        var body: some Component {
            Element("h2") { Text(value) }
            Suspense {
                try Gated("p", gates: gates)
            } fallback: {
                Text("p loading")
            }
            ErrorBoundary {
                Suspense {
                    try Gated("x", gates: gates, fails: true)
                } fallback: {
                    Text("x loading")
                }
            } fallback: { _ in
                try Gated("f", gates: gates)
            }
        }
    }

    struct PendingThenReopening: Component {
        let gates: Gates
        var body: some Component {
            Element("main") {
                Suspense {
                    try AThenPAndX(gates: gates)
                } fallback: {
                    Text("loading")
                }
            }
        }
    }

    /// A pending Suspense comes first; a later ErrorBoundary in the same resolved Suspense may
    /// still reopen it, so the content before the pending one is held too (as is all content of
    /// a Suspense around a pending one).
    @Test func aLaterErrorBoundaryHoldsTheSuspenseAroundAnEarlierPendingOne() async throws {
        let gates = Gates()
        var chunks = ChunkReader(
            try await renderStream(PendingThenReopening(gates: gates), stream: StreamOptions(order: .inOrder)))
        #expect(try await chunks.next() == "<main>")
        gates.open("a")
        try await waitUntil("p and x started") { gates.runs.value == 3 }
        gates.open("x")
        try await waitUntil("the fallback's query started") { gates.runs.value == 4 }
        gates.open("f")
        // Nothing of the Suspense is sent while p, inside it, still waits.
        gates.open("p")
        #expect(try await chunks.next() == "<h2>a loaded</h2><p>p loaded</p><p>f loaded</p></main>")
        try await chunks.end()
        let whole = try await render(PendingThenReopening(gates: Self.openGates("a", "p", "x", "f")), as: .html)
        #expect(whole == "<main><h2>a loaded</h2><p>p loaded</p><p>f loaded</p></main>")
    }

    /// Loads `doc`, then shows an `html` element.
    struct GatedDocument: Component {
        let value: String
        init(gates: Gates) throws {
            value = try resolveValue(key: "doc") { try await gates.value("doc") }
        }
        var body: some Component { Element("html") { Element("body") { Text(value) } } }
    }

    struct TextThenDocument: Component {
        let gates: Gates
        var body: some Component {
            Text("intro")
            Suspense {
                try GatedDocument(gates: gates)
            } fallback: {
                Text("loading")
            }
        }
    }

    /// Text before an `html` element makes the page no document, so no doctype goes before the
    /// element, even when the text was sent in an earlier chunk and the element comes in a later
    /// window of the page, which does not hold the text.
    @Test func textSentBeforeAnHTMLElementKeepsTheDoctypeOut() async throws {
        let gates = Gates()
        var chunks = ChunkReader(
            try await renderStream(TextThenDocument(gates: gates), stream: StreamOptions(order: .inOrder)))
        #expect(try await chunks.next() == "intro")
        gates.open("doc")
        var rest = ""
        while !rest.hasSuffix("</html>") { rest += try await chunks.next() }
        #expect(rest == "<html><body>doc loaded</body></html>")
        try await chunks.end()
        let whole = try await render(TextThenDocument(gates: Self.openGates("doc")), as: .html)
        #expect(whole == "intro<html><body>doc loaded</body></html>")
    }

    /// A page of `count` Suspenses in a list, each around an item whose query answers after a
    /// yield: most resolve after the shell, one pass each.
    struct Items: Component {
        let count: Int
        var body: some Component {
            Document(lang: "en") {
                Element("title") { Text("Items") }
            } body: {
                Element("ul") {
                    ForEach(0..<count) { index in
                        Suspense {
                            try Item(index: index)
                        } fallback: {
                            Element("li") { Text("…") }
                        }
                    }
                }
                Element("footer") { Text("end") }
            }
        }
    }

    struct Item: Component {
        let text: String
        init(index: Int) throws {
            text = try resolveValue(key: "item/\(index)") {
                await Task.yield()
                return "item \(index)"
            }
        }
        var body: some Component {
            Element("li") { Text(text) }
        }
    }

    /// Passes the events to an in-order stream, counting the entries of the trees per pass.
    final class CountingObserver: RenderObserver {
        let chunker: StreamChunker
        var trees = 0
        var entries = 0
        var largest = 0

        init(_ chunker: StreamChunker) { self.chunker = chunker }

        func observe(_ event: RenderEvent) {
            switch event.kind {
            case .shell(let tree?, _, _), .progress(let tree?, _):
                trees += 1
                entries += tree.entries.count
                largest = max(largest, tree.entries.count)
            default:
                break
            }
            chunker.observe(event)
        }

        var needsPassTree: Bool { chunker.needsPassTree }
        var passTreeResume: RenderTree.Resume? { chunker.passTreeResume }
    }

    /// Each pass builds only the part of the page from where the stream stopped to the first
    /// pending Suspense, not the whole page: the in-order stream's work grows with the page, not
    /// with the page times its boundaries. The chunks still make the page `render` returns.
    @Test func eachPassBuildsOnlyWhatTheStreamGoesOnBy() async throws {
        let count = 200
        let channel = RenderChannel<String>(limit: .max)
        let chunker = StreamChunker(options: StreamOptions(order: .inOrder), channel: channel, shell: ShellSignal())
        let observer = CountingObserver(chunker)
        _ = try await _Resolver.run(
            { Items(count: count) }, cache: QueryCache(), options: RenderOptions(deliveryOrder: .discovery),
            mode: .stream(.inOrder), observers: [observer])
        chunker.complete()
        var streamed = ""
        while let chunk = try await channel.next(isolation: nil) { streamed += chunk }
        #expect(streamed == (try await render(Items(count: count), as: .html)))
        #expect(streamed.hasPrefix("<!DOCTYPE html><html lang=\"en\">"))
        // A whole tree has more than 4 entries per item; a window, the path from the root and
        // a few more.
        #expect(observer.trees > count / 2)
        #expect(observer.largest < 30, "largest tree per pass: \(observer.largest) entries")
        #expect(observer.entries < 20 * count, "\(observer.entries) entries in \(observer.trees) trees")
    }

    /// Generated trees (nested Suspense and ErrorBoundary, late failures, fallbacks that suspend,
    /// typed Suspenses receiving values through others) streamed in order: the chunks put together
    /// are the page `render` makes of the same render's final tree (which error a boundary shows
    /// may depend on which query answered first), and the stream fails only when the render does.
    @Test func generatedTreesStreamInOrderAsTheyRender() async throws {
        var failures: [String] = []
        for seed in UInt64(1)...3000 {
            let testCase = ReliabilityHarness.Generator.makeCase(seed: seed)
            let environment = ReliabilityHarness.Environment(testCase)
            let page = ReliabilityHarness.Page(children: testCase.root, environment: environment)
            // Unbounded: the chunks are read once the render has returned.
            let channel = RenderChannel<String>(limit: .max)
            let chunker = StreamChunker(options: StreamOptions(order: .inOrder), channel: channel, shell: ShellSignal())
            let expected: String?
            do {
                let tree = try await _Resolver.run(
                    { page }, cache: environment.makeCache(),
                    options: RenderOptions(deliveryOrder: testCase.deliveryOrder),
                    mode: .stream(.inOrder), observers: [chunker])
                chunker.complete()
                expected = try HTMLRenderer.renderCompactString(tree)
            } catch {
                chunker.fail(error)
                // Failed before its shell, a stream ends with `renderStream` throwing, not here.
                channel.finish()
                expected = nil
            }
            var streamed = ""
            do {
                while let chunk = try await channel.next(isolation: nil) { streamed += chunk }
                // A render that fails before its shell sends nothing.
                if streamed != expected && !(expected == nil && streamed.isEmpty) {
                    failures.append("seed \(seed): render \(expected ?? "threw"), in-order stream \(streamed)")
                }
            } catch {
                // After its shell, a failed render's stream throws its error.
                if expected != nil || error is StreamError {
                    failures.append("seed \(seed): render \(expected ?? "threw"), in-order stream threw \(error)")
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.count) seeds differ:\n\(failures.prefix(5).joined(separator: "\n"))")
    }
}
