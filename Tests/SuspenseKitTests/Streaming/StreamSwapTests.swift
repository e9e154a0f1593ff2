import Foundation
import Testing

@testable import SuspenseKit

/// Applies a script-mode stream the way `$sk` does, on the page's text: each `<template>…
/// </template><script>$sk("key")</script>` chunk replaces what lies between the markers of `key`;
/// then the markers go, as the cleanup script removes them. Checks the chunks' structure (each
/// replacement names a region the page holds) without a browser.
func applyScriptStream(_ chunks: [String]) throws -> String {
    guard var page = chunks.first else { throw TestFailure("no shell") }
    let call = try Regex(#"^<template>(.*?)</template><script[^>]*>(?:function \$sk.*?\})?\$sk\("([^"]+)"\)</script>"#)
        .dotMatchesNewlines()
    for var chunk in chunks.dropFirst() {
        while let match = chunk.firstMatch(of: call) {
            let content = String(match.output[1].substring!)
            let key = String(match.output[2].substring!)
            let start = "<!--sk:\(key)-->"
            let end = "<!--/sk:\(key)-->"
            guard let open = page.range(of: start),
                let close = page.range(of: end, range: open.upperBound..<page.endIndex)
            else { throw TestFailure("no region \(key) in \(page)") }
            page.replaceSubrange(open.upperBound..<close.lowerBound, with: content)
            chunk.removeSubrange(match.range)
        }
        page += chunk.replacing(streamCleanup, with: "")
    }
    return page.replacing(try Regex("<!--/?sk:[^>]*-->"), with: "")
}

/// The same for a declarative stream: each `<template for="key">` replaces the region of `key`,
/// its instructions included, with its content.
func applyDeclarativeStream(_ chunks: [String]) throws -> String {
    guard var page = chunks.first else { throw TestFailure("no shell") }
    let template = try Regex(#"^<template for="([^"]+)">(.*?)</template>"#).dotMatchesNewlines()
    for var chunk in chunks.dropFirst() {
        while let match = chunk.firstMatch(of: template) {
            let key = String(match.output[1].substring!)
            let content = String(match.output[2].substring!)
            guard let open = page.range(of: "<?start name=\"\(key)\">") else { throw TestFailure("no region \(key)") }
            // The matching `<?end>`: the first one not closing a region opened inside.
            var depth = 0
            var cursor = open.upperBound
            var close: Range<String.Index>?
            while let next = page.range(of: "<?", range: cursor..<page.endIndex) {
                if page[next.lowerBound...].hasPrefix("<?start") {
                    depth += 1
                } else if page[next.lowerBound...].hasPrefix("<?end>") {
                    if depth == 0 {
                        close = next.lowerBound..<page.index(next.lowerBound, offsetBy: 6)
                        break
                    }
                    depth -= 1
                }
                cursor = next.upperBound
            }
            guard let close else { throw TestFailure("no end of \(key)") }
            page.replaceSubrange(open.lowerBound..<close.upperBound, with: content)
            chunk.removeSubrange(match.range)
        }
        page += chunk
    }
    return page.replacing(try Regex(#"<\?start name="[^"]*">|<\?end>"#), with: "")
}

/// Every chunk of a stream, and the error that ended it, if any.
func chunks(of stream: HTMLStream) async -> (chunks: [String], error: (any Error)?) {
    var chunks: [String] = []
    do {
        for try await chunk in stream { chunks.append(chunk) }
        return (chunks, nil)
    } catch {
        return (chunks, error)
    }
}

@Suite struct StreamSwapTests {
    /// A card whose query answers at once: the stream still swaps it in after the shell.
    struct Card: Component {
        let key: String
        let gates: Gates
        var body: some Component {
            Suspense {
                try Gated(key, gates: gates)
            } fallback: {
                Text("loading \(key)")
            }
        }
    }

    @Test func aSwapTakesTheTemplateRightBeforeItsScriptSoThatAUsersIdCannotStandInForIt() async throws {
        let gates = Gates()
        struct Page: Component {
            let gates: Gates
            var body: some Component {
                Element("main") {
                    Element("p", attributes: ["id": "sk:0.1.0"]) { Text("user's") }
                    Card(key: "a", gates: gates)
                }
            }
        }
        var chunks = ChunkReader(try await renderStream(Page(gates: gates)))
        #expect(
            try await chunks.next()
                == "<main><p id=\"sk:0.1.0\">user's</p><!--sk:0.1.0-->loading a<!--/sk:0.1.0--></main>")
        gates.open("a")
        let swap = try await chunks.next()
        #expect(swap.hasPrefix("<template><p>a loaded</p></template><script>function $sk(i){"))
        #expect(swap.contains("previousElementSibling"))
        #expect(!swap.contains("getElementById"))
        #expect(swap.hasSuffix("$sk(\"0.1.0\")</script>"))
    }

    @Test func aStreamThatBeginsWithABoundaryOpensTheBodySoThatTheParserKeepsTheMarkersWithTheContent() async throws {
        let gates = Gates()
        let stream = try await renderStream(Card(key: "a", gates: gates))
        gates.open("a")
        let (chunks, error) = await chunks(of: stream)
        #expect(error == nil)
        #expect(chunks.first == "<body><!--sk:0-->loading a<!--/sk:0-->")
        #expect(try applyScriptStream(chunks) == "<body><p>a loaded</p>")
    }

    @Test func aDocumentThatBeginsWithABoundaryAroundItsHtmlElementGetsNoExtraBody() async throws {
        struct Page: Component {
            let gates: Gates
            var body: some Component {
                ErrorBoundary {
                    Element("html") { Element("body") { Card(key: "a", gates: gates) } }
                } fallback: { _ in
                    Text("failed")
                }
            }
        }
        let gates = Gates()
        var chunks = ChunkReader(try await renderStream(Page(gates: gates)))
        #expect(
            try await chunks.next()
                == "<!DOCTYPE html><!--sk:0--><html><body><!--sk:0.0.0.0.0-->loading a<!--/sk:0.0.0.0.0--><!--/sk:0-->")
        gates.open("a")
        _ = try await chunks.next()
    }

    struct TitledPage: Component {
        let gates: Gates
        var body: some Component {
            Element("html") {
                Element("head") {
                    Element("title") {
                        Text("Shop – ")
                        Suspense {
                            Text(try resolveValue(key: "name") { try await gates.value("name") })
                        } fallback: {
                            Text("…")
                        }
                    }
                }
                Element("body") {
                    Element("textarea") {
                        Suspense {
                            Text(try resolveValue(key: "draft") { try await gates.value("draft") })
                        } fallback: {
                            Text("loading draft")
                        }
                        Text(" & ")
                        Suspense {
                            Text(try resolveValue(key: "sig") { try await gates.value("sig") })
                        } fallback: {
                            Text("loading sig")
                        }
                    }
                    Card(key: "a", gates: gates)
                }
            }
        }
    }

    @Test func aBoundaryInATitleOrATextareaIsNeverMarkedThereTheElementIsWrittenAgainWhole() async throws {
        let gates = Gates()
        var chunks = ChunkReader(try await renderStream(TitledPage(gates: gates)))
        #expect(
            try await chunks.next()
                == "<!DOCTYPE html><html><head><!--sk:h0.0.0.1--><title>Shop – …</title><!--/sk:h0.0.0.1--></head><body>"
                + "<!--sk:h0.1.0.0--><textarea>loading draft &amp; loading sig</textarea><!--/sk:h0.1.0.0-->"
                + "<!--sk:0.1.1.0-->loading a<!--/sk:0.1.1.0-->")
        gates.open("sig")
        #expect(
            try await chunks.next().hasPrefix(
                "<template><textarea>loading draft &amp; sig loaded</textarea></template><script>function $sk(i){"))
        gates.open("name")
        #expect(
            try await chunks.next()
                == "<template><title>Shop – name loaded</title></template><script>$sk(\"h0.0.0.1\")</script>")
        gates.open("draft")
        #expect(
            try await chunks.next()
                == "<template><textarea>draft loaded &amp; sig loaded</textarea></template><script>$sk(\"h0.1.0.0\")</script>"
        )
    }

    @Test func whatTheStreamLeavesInTitleTextareaTableAndListIsWhatRenderReturns() async throws {
        struct Page: Component {
            let gates: Gates
            var body: some Component {
                TitledPage(gates: gates)
            }
        }
        struct Tables: Component {
            let gates: Gates
            var body: some Component {
                Element("main") {
                    Element("table") {
                        Element("tbody") {
                            Element("tr") {
                                Suspense {
                                    Element("td") {
                                        Text(try resolveValue(key: "cell") { try await gates.value("cell") })
                                    }
                                } fallback: {
                                    Element("td") { Text("loading cell") }
                                }
                            }
                            Suspense {
                                Element("tr") {
                                    Element("td") {
                                        Suspense {
                                            Text(try resolveValue(key: "deep") { try await gates.value("deep") })
                                        } fallback: {
                                            Text("loading deep")
                                        }
                                    }
                                }
                            } fallback: {
                                Text("loose text")
                            }
                        }
                    }
                    Element("ul") {
                        Suspense {
                            Element("li") { Text(try resolveValue(key: "item") { try await gates.value("item") }) }
                        } fallback: {
                            Element("li") { Text("loading item") }
                        }
                    }
                }
            }
        }
        for keys in [["name", "sig", "draft", "a"], ["a", "draft", "name", "sig"]] {
            let gates = Gates()
            let stream = try await renderStream(TitledPage(gates: gates))
            for key in keys { gates.open(key) }
            let (chunks, error) = await chunks(of: stream)
            #expect(error == nil)
            #expect(try applyScriptStream(chunks) == (try await render(TitledPage(gates: gates), as: .html)))
        }
        for swap in [StreamOptions.Swap.script, .declarative] {
            let gates = Gates()
            let stream = try await renderStream(Tables(gates: gates), stream: StreamOptions(swap: swap))
            for key in ["deep", "item", "cell"] { gates.open(key) }
            let (chunks, error) = await chunks(of: stream)
            #expect(error == nil)
            #expect(chunks.first?.contains("<table>") == true)
            // The table is held whole: no marker inside it, where the parser would move text away.
            let shell = chunks.first ?? ""
            let table = shell.firstRange(of: "<table>")!.lowerBound..<shell.firstRange(of: "</table>")!.upperBound
            #expect(!shell[table].contains("sk:") && !shell[table].contains("<?"))
            let page = swap == .script ? try applyScriptStream(chunks) : try applyDeclarativeStream(chunks)
            #expect(page == (try await render(Tables(gates: gates), as: .html)))
        }
    }

    @Test func aLateUncaughtErrorReplacesEachPendingRegionWithTheApplicationsPageThenThrows() async throws {
        struct Page: Component {
            let gates: Gates
            var body: some Component {
                Element("main") {
                    Suspense {
                        try Gated("x", gates: gates, fails: true)
                    } fallback: {
                        Text("loading x")
                    }
                    Suspense {
                        try Gated("y", gates: gates)
                    } fallback: {
                        Text("loading y")
                    }
                    Element("title") {
                        Suspense {
                            Text(try resolveValue(key: "t") { try await gates.value("t") })
                        } fallback: {
                            Text("loading t")
                        }
                    }
                }
            }
        }
        for swap in [StreamOptions.Swap.script, .declarative] {
            let gates = Gates()
            let options = StreamOptions(swap: swap, lateErrorHTML: { _ in "<p>Sorry.</p>" })
            let stream = try await renderStream(Page(gates: gates), stream: options)
            gates.open("x")
            let (chunks, error) = await chunks(of: stream)
            #expect(error is RenderError)
            let page = swap == .script ? try applyScriptStream(chunks) : try applyDeclarativeStream(chunks)
            #expect(page == "<main><p>Sorry.</p><p>Sorry.</p><title><p>Sorry.</p></title></main>")
            #expect(!chunks.joined().contains("x failed"))
        }
        // By default, a generic message, never the error's text.
        let gates = Gates()
        let stream = try await renderStream(Page(gates: gates))
        gates.open("x")
        let page = try applyScriptStream(await chunks(of: stream).chunks)
        #expect(page.contains(StreamOptions.genericLateErrorHTML))
        #expect(!page.contains("loading") && !page.contains("x failed"))
    }

    @Test func theDeclarativeStreamMarksRegionsWithProcessingInstructionsAndNeedsNoScript() async throws {
        let gates = Gates()
        struct Page: Component {
            let gates: Gates
            var body: some Component {
                Element("main") {
                    Card(key: "a", gates: gates)
                    Suspense {
                        try GatedWithNested("b", inner: "c", gates: gates)
                    } fallback: {
                        Text("loading b")
                    }
                }
            }
        }
        var reader = ChunkReader(try await renderStream(Page(gates: gates), stream: StreamOptions(swap: .declarative)))
        #expect(
            try await reader.next()
                == "<main><?start name=\"0.0.0\">loading a<?end><?start name=\"0.1\">loading b<?end></main>")
        gates.open("b")
        #expect(
            try await reader.next()
                == "<template for=\"0.1\"><?start name=\"0.1\"><section><h2>b loaded</h2>"
                + "<?start name=\"0.1.0.0.1\">inner loading<?end></section><?end></template>")
        gates.open("c")
        #expect(
            try await reader.next()
                == "<template for=\"0.1.0.0.1\"><?start name=\"0.1.0.0.1\"><p>c loaded</p><?end></template>")
        gates.open("a")
        #expect(
            try await reader.next() == "<template for=\"0.0.0\"><?start name=\"0.0.0\"><p>a loaded</p><?end></template>"
        )
        try await reader.end()
    }

    @Test func theDeclarativeStreamWithScriptAddsACallAfterEachTemplateForOtherBrowsers() async throws {
        let gates = Gates()
        struct Page: Component {
            let gates: Gates
            var body: some Component {
                Element("main") {
                    Card(key: "a", gates: gates)
                    Suspense {
                        try GatedWithNested("b", inner: "c", gates: gates)
                    } fallback: {
                        Text("loading b")
                    }
                }
            }
        }
        let options = StreamOptions(swap: .declarativeWithScript, nonce: "n1")
        var reader = ChunkReader(try await renderStream(Page(gates: gates), stream: options))
        // The shell is the declarative one, with no script.
        #expect(
            try await reader.next()
                == "<main><?start name=\"0.0.0\">loading a<?end><?start name=\"0.1\">loading b<?end></main>")
        gates.open("b")
        // The function once, in the first chunk that calls it.
        #expect(
            try await reader.next()
                == "<template for=\"0.1\"><?start name=\"0.1\"><section><h2>b loaded</h2>"
                + "<?start name=\"0.1.0.0.1\">inner loading<?end></section><?end></template><script nonce=\"n1\">"
                + StreamChunker.templateForFunction + "$skt(\"0.1\")</script>")
        gates.open("c")
        #expect(
            try await reader.next()
                == "<template for=\"0.1.0.0.1\"><?start name=\"0.1.0.0.1\"><p>c loaded</p><?end></template>"
                + "<script nonce=\"n1\">$skt(\"0.1.0.0.1\")</script>")
        gates.open("a")
        let last = try await reader.next()
        #expect(
            last == "<template for=\"0.0.0\"><?start name=\"0.0.0\"><p>a loaded</p><?end></template>"
                + "<script nonce=\"n1\">$skt(\"0.0.0\")</script>")
        // No cleanup chunk: the instructions stay, as with `.declarative`.
        try await reader.end()
    }

    @Test func theDeclarativeStreamWithScriptAppliesLikeTheDeclarativeOne() async throws {
        let gates = Gates()
        struct Page: Component {
            let gates: Gates
            var body: some Component {
                Element("main") {
                    Card(key: "a", gates: gates)
                    Suspense {
                        try GatedWithNested("b", inner: "c", gates: gates)
                    } fallback: {
                        Text("loading b")
                    }
                }
            }
        }
        let stream = try await renderStream(Page(gates: gates), stream: StreamOptions(swap: .declarativeWithScript))
        for key in ["a", "b", "c"] { gates.open(key) }
        let (chunks, error) = await chunks(of: stream)
        #expect(error == nil)
        let script = try Regex("<script>(?:function \\$skt.*?\\})?\\$skt\\(\"[^\"]+\"\\)</script>")
        #expect(chunks.dropFirst().allSatisfy { $0.contains(script) })
        let page = try applyDeclarativeStream(chunks.map { $0.replacing(script, with: "") })
        #expect(page == (try await render(Page(gates: gates), as: .html)))
    }
}
