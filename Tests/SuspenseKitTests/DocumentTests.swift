import Testing

@testable import SuspenseKit

/// Shows the value of `key` once its query, which always suspends first, has run.
private struct Later: Component {
    let value: String
    init(_ key: String) throws {
        value = try resolveValue(key: key) {
            await Task.yield()
            return "\(key) loaded"
        }
    }
    var body: some Component { Element("p") { Text(value) } }
}

/// `<root><body><h1>…</h1>Suspense</body></root>`.
private struct Page: Component {
    let root: String
    var body: some Component {
        Element(root) {
            Element("body") {
                Element("h1") { Text("Shell") }
                Suspense {
                    try Later("a")
                } fallback: {
                    Text("loading")
                }
            }
        }
    }
}

private let doctype = "<!DOCTYPE html>"

/// The id of the first Suspense in document order.
private func firstSuspenseID(in node: Node) -> BoundaryID? {
    if case .suspense = node.kind { return node.boundaryID }
    return node.children.lazy.compactMap(firstSuspenseID(in:)).first
}

@Suite struct DocumentTests {
    @Test func aRootHTMLElementGetsTheDoctypeFirstInEveryHTMLOutput() async throws {
        let whole = try await render(Page(root: "html"), as: .html)
        #expect(whole == "<!DOCTYPE html><html><body><h1>Shell</h1><p>a loaded</p></body></html>")
        let pretty = try await render(Page(root: "html"), as: .html(pretty: true))
        #expect(pretty.hasPrefix(doctype + "\n<html>\n"))
        #expect(pretty.components(separatedBy: doctype).count == 2)
        for order in [StreamOptions.Order.outOfOrder, .inOrder] {
            var chunks: [String] = []
            for try await chunk in try await renderStream(Page(root: "html"), stream: StreamOptions(order: order)) {
                chunks.append(chunk)
            }
            #expect(chunks.first?.hasPrefix(doctype + "<html><body><h1>Shell</h1>") == true, "\(order)")
            #expect(chunks.joined().components(separatedBy: doctype).count == 2, "\(order)")
        }
    }

    @Test func theDoctypeComesBeforeTheMarkersOfBoundariesAroundTheDocument() async throws {
        let page = ErrorBoundary {
            Suspense {
                Element("HTML") {
                    Element("body") {
                        Suspense {
                            try Later("a")
                        } fallback: {
                            Text("loading")
                        }
                    }
                }
            } fallback: {
                Text("never")
            }
        }
        let stream = try await renderStream(page)
        var iterator = stream.makeAsyncIterator()
        let shell = try #require(try await iterator.next())
        #expect(shell.hasPrefix(doctype + "<!--sk:0--><!--sk:0.0--><HTML><body><!--sk:0.0.0.0.0-->loading"))
        #expect(try await render(page, as: .html).hasPrefix(doctype + "<HTML>"))
    }

    @Test func inOrderWritesTheDoctypeOnlyOnceTheDocumentCanNoLongerBeReplaced() async throws {
        // The boundary around the document may still show its fallback instead: in order, nothing
        // is sent before it settles, the doctype included.
        struct FailsLater: Component {
            init() throws {
                let _: String = try resolveValue(key: "late") {
                    await Task.yield()
                    throw TestFailure("late")
                }
            }
            var body: some Component { Text("never") }
        }
        let page = ErrorBoundary {
            Element("html") {
                Element("body") {
                    Suspense {
                        try FailsLater()
                    } fallback: {
                        Text("loading")
                    }
                }
            }
        }
        let whole = try await render(page, as: .html)
        #expect(whole == "Something went wrong.")
        var chunks: [String] = []
        for try await chunk in try await renderStream(page, stream: StreamOptions(order: .inOrder)) {
            chunks.append(chunk)
        }
        #expect(chunks.joined() == whole)
        #expect(chunks.first == "")
        let outOfOrder = try await renderStream(page).collect()
        #expect(outOfOrder.hasPrefix(doctype + "<!--sk:0--><html>"))
    }

    @Test func onlyADocumentGetsTheDoctype() async throws {
        #expect(try await render(Page(root: "main"), as: .html).hasPrefix("<main>"))
        // Text before the `html` element: the page is not a document the renderer can vouch for.
        let textFirst = Group {
            Text("x")
            Element("html") { Text("y") }
        }
        #expect(try await render(textFirst, as: .html) == "x<html>y</html>")
        // A hand-written doctype is not written twice.
        let handWritten = Group {
            RawHTML(doctype)
            Element("html") { Text("y") }
        }
        #expect(try await render(handWritten, as: .html) == "<!DOCTYPE html><html>y</html>")
        // Nor is an `html` element inside another one's content a document.
        #expect(try await render(Element("div") { Element("html") {} }, as: .html) == "<div><html></html></div>")
    }

    @Test func theDoctypeIsNoNodeAndMovesNoBoundaryID() async throws {
        // The same tree under another root tag gets no doctype: its ids are the document's.
        func suspenseID(_ root: String) async throws -> BoundaryID? {
            firstSuspenseID(in: try await resolve(Page(root: root)))
        }
        let id = try #require(try await suspenseID("html"))
        #expect(id.description == "0.0.1")
        #expect(try await suspenseID("main") == id)
        #expect(
            try await render(Page(root: "html"), as: .tree)
                == (try await render(Page(root: "main"), as: .tree))
                .replacingOccurrences(of: "<main>", with: "<html>"))
        var chunks = try await renderStream(Page(root: "html")).makeAsyncIterator()
        let shell = try await chunks.next()
        #expect(shell?.contains("<!--sk:\(id)-->loading<!--/sk:\(id)-->") == true)
        // What the examples wrote before, a RawHTML doctype, moved every id one place.
        let workaround = Group {
            RawHTML(doctype)
            Page(root: "html")
        }
        let shifted = firstSuspenseID(in: try await resolve(workaround))
        #expect(shifted != nil && shifted != id)
    }

    @Test func aDocumentWritesTheWholePage() async throws {
        let page = Document(lang: "en") {
            Element("title") { Text("Orders & more") }
        } body: {
            Element("h1") { Text("Orders") }
            Suspense {
                try Later("a")
            } fallback: {
                Text("loading")
            }
        }
        #expect(
            try await render(page, as: .html)
                == "<!DOCTYPE html><html lang=\"en\"><head><title>Orders &amp; more</title></head>"
                + "<body><h1>Orders</h1><p>a loaded</p></body></html>")
        let streamed = try await renderStream(page).collect()
        #expect(streamed.hasPrefix("<!DOCTYPE html><html lang=\"en\"><head><title>Orders &amp; more</title></head>"))
        #expect(streamed.hasSuffix("</body></html>"))
        #expect(
            try await render(page, as: .tree) == """
                Document
                └─ <html lang="en">
                   ├─ <head>
                   │  └─ <title>
                   │     └─ "Orders & more"
                   └─ <body>
                      ├─ <h1>
                      │  └─ "Orders"
                      └─ Suspense #0.1.1 [resolved]
                         └─ Later
                            └─ <p>
                               └─ "a loaded"
                """)
    }

    @Test func aDocumentWithoutALanguageWritesNoLangAttribute() async throws {
        let page = Document {
            Element("title") { Text("t") }
        } body: {
            Text("b")
        }
        #expect(
            try await render(page, as: .html)
                == "<!DOCTYPE html><html><head><title>t</title></head><body>b</body></html>")
    }
}
