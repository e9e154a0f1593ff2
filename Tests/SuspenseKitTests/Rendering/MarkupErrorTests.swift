import Testing

@testable import SuspenseKit

/// Markup HTML cannot carry is an `InvalidMarkupError` at the element, routed like any other
/// error to the nearest ErrorBoundary, in every format: a void element with children, and an
/// attribute name given twice in any letter case.
struct MarkupErrorTests {
    private struct Avatar: Component {
        var body: some Component {
            Element("p") {
                Element("img", attributes: ["src": "/a.png"]) { Text("caption") }
            }
        }
    }

    private struct Profile: Component {
        var body: some Component {
            Element("main") {
                ErrorBoundary {
                    Avatar()
                } fallback: { error in
                    Text("caught: \(error)")
                }
                Element("p") { Text("after") }
            }
        }
    }

    static let voidMessage = "<img> is a void element and cannot have children; its 1 child would be lost"

    @Test func aVoidElementWithTextGoesToTheErrorBoundaryInTheTree() async throws {
        #expect(
            try await tree(Profile()) == """
                Profile
                └─ <main>
                   ├─ ErrorBoundary #0.0 [caught: \(Self.voidMessage)]
                   │  └─ "caught: \(Self.voidMessage)"
                   └─ <p>
                      └─ "after"
                """)
    }

    @Test func aVoidElementWithTextGoesToTheErrorBoundaryInPlainText() async throws {
        #expect(try await render(Profile(), as: .plain) == "caught: \(Self.voidMessage)\nafter")
    }

    @Test func aVoidElementWithTextGoesToTheErrorBoundaryInHTML() async throws {
        let escaped = "&lt;img&gt; is a void element and cannot have children; its 1 child would be lost"
        #expect(try await html(Profile()) == "<main>caught: \(escaped)<p>after</p></main>")
        #expect(
            try await render(Profile(), as: .html(pretty: true)) == """
                <main>caught: \(escaped)
                  <p>after</p>
                </main>
                """)
    }

    @Test func aVoidElementWithTextGoesToTheErrorBoundaryInAStream() async throws {
        var chunks: [String] = []
        for try await chunk in try await renderStream(Profile()) {
            chunks.append(chunk)
        }
        let page = chunks.joined()
        #expect(page.contains("caught: &lt;img&gt; is a void element"))
        #expect(!page.contains("<img"))
        #expect(page.hasSuffix("<p>after</p></main>"))
    }

    @Test func anUncaughtVoidElementErrorNamesItsPath() async throws {
        let error = try await renderError(Element("div") { Avatar() })
        #expect(error.path == ["Avatar"])
        #expect(error.underlying as? InvalidMarkupError == InvalidMarkupError(message: Self.voidMessage))
    }

    @Test func aVoidElementWhoseContentShowsNothingIsFine() async throws {
        let showsNothing = false
        let page = Element("p") {
            Element("br") { Group {} }
            Element("img", attributes: ["src": "/a.png"]) {
                if showsNothing { Text("never") }
            }
            Element("input") { ForEach([String]()) { Text($0) } }
            Element("HR") {}
        }
        #expect(try await html(page) == #"<p><br><img src="/a.png"><input><HR></p>"#)
    }

    @Test func anyNodeInAVoidElementIsAChild() async throws {
        struct Empty: Component {
            var body: some Component { EmptyComponent() }
        }
        let texts = try await renderError(
            Element("BR") {
                Text("")
                Text("")
            })
        #expect(
            texts.underlying as? InvalidMarkupError
                == InvalidMarkupError(
                    message: "<BR> is a void element and cannot have children; its 2 children would be lost"))
        let component = try await renderError(Element("wbr") { Empty() })
        #expect(component.underlying is InvalidMarkupError)
    }

    @Test func aComponentInAVoidElementIsOneChildInEveryFormat() async throws {
        // HTML and plain text keep no node per component elsewhere (`RenderMode.componentNodes`);
        // inside a void element they do, so that the error and its count are the tree's.
        struct Empty: Component {
            var body: some Component { EmptyComponent() }
        }
        struct TwoTexts: Component {
            var body: some Component {
                Text("a")
                Text("b")
            }
        }
        let one = "<wbr> is a void element and cannot have children; its 1 child would be lost"
        func check<C: Component>(_ page: C, as format: RenderFormat) async throws {
            do {
                let output = try await render(page, as: format)
                Issue.record("\(format): expected a RenderError, got \(output)")
            } catch let error as RenderError {
                #expect(error.underlying as? InvalidMarkupError == InvalidMarkupError(message: one), "\(format)")
            }
        }
        for format in [RenderFormat.tree, .plain, .html, .html(pretty: true)] {
            try await check(Element("wbr") { Empty() }, as: format)
            try await check(Element("wbr") { TwoTexts() }, as: format)
        }
    }

    @Test func contentThatSuspendsInAVoidElementFailsInItsPass() async throws {
        // The key never resolves: were the element waiting for its content, the Suspense would
        // stay pending; it fails at once instead, and the boundary shows its fallback.
        let cache = QueryCache()
        cache.stub(.pending, for: "caption")
        let page = Suspense {
            ErrorBoundary {
                Element("img") { try Loaded("caption") }
            } fallback: { error in
                Text("caught: \(error)")
            }
        } fallback: {
            Text("loading")
        }
        let message =
            "<img> is a void element and cannot have children; its 1 child would be lost (content that "
            + "suspended counts: a void element cannot wait for children)"
        #expect(
            try await tree(page, cache: cache) == """
                Suspense #0 [resolved]
                └─ ErrorBoundary #0.0 [caught: \(message)]
                   └─ "caught: \(message)"
                """)
        // With a query that resolves, the same: the frames never show the content.
        let frames = try await resolveFrames(page)
        #expect(try frames.map { try $0.node.rendered(as: .plain) } == ["caught: \(message)"])
    }

    @Test func anAttributeGivenTwiceInAnyCaseGoesToTheErrorBoundary() async throws {
        let page = ErrorBoundary {
            Element("div", attributes: ["class": "a", "id": "x", "CLASS": "b"]) { Text("content") }
        } fallback: { error in
            Text("caught: \(error)")
        }
        let message =
            #"duplicate attribute "class" on <div>: it is given again as "CLASS" (HTML ignores the letter case "#
            + "of attribute names), and a browser would keep only the first"
        #expect(try await render(page, as: .plain) == "caught: \(message)")
        #expect(try await html(page) == "caught: " + message.replacing("<div>", with: "&lt;div&gt;"))
        let twice = try await renderError(
            Element("p", attributes: [Attribute("title", "a"), Attribute("title", "b")]) {})
        #expect(
            (twice.underlying as? InvalidMarkupError)?.message
                == #"duplicate attribute "title" on <p>: it is given twice (HTML ignores the letter case of "#
                + "attribute names), and a browser would keep only the first")
    }

    @Test func manyAttributesAreCheckedForDuplicatesToo() async throws {
        var attributes = (0..<12).map { Attribute("data-\($0)", "\($0)") }
        #expect(try await html(Element("p", attributes: attributes) {}).hasPrefix(#"<p data-0="0""#))
        attributes.append(Attribute("DATA-3", "again"))
        let error = try await renderError(Element("p", attributes: attributes) {})
        #expect((error.underlying as? InvalidMarkupError)?.message.hasPrefix(#"duplicate attribute "data-3""#) == true)
    }

    @Test func onlyASCIILettersFoldAsHTMLFoldsThem() async throws {
        // `[` and `{` differ as `A` and `a` do, but are not letters.
        let page = Element("p", attributes: ["data-é": "1", "data-É": "2", "data-[": "3", "data-{": "4"]) {}
        #expect(try await html(page) == #"<p data-é="1" data-É="2" data-[="3" data-{="4"></p>"#)
    }

    @Test func aHandBuiltTreeFailsWhenRenderedAsHTML() throws {
        let node = Node(.element(tag: "p", attributes: [Attribute("Id", "a"), Attribute("id", "b")]))
        let error = try #require(throws: InvalidMarkupError.self) { try node.rendered(as: .html) }
        #expect(error.message.hasPrefix(#"duplicate attribute "Id" on <p>: it is given again as "id""#))
        #expect(throws: InvalidMarkupError.self) { try node.rendered(as: .html(pretty: true)) }
        #expect(try node.rendered(as: .tree) == #"<p Id="a" id="b">"#)
    }
}
