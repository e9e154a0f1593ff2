import Testing

@testable import SuspenseKit

@Suite struct TextRenderingTests {
    private struct Article: Component {
        var body: some Component {
            Element("article") {
                Element("h1") { Text("Title") }
                Element("p") {
                    Text("First line")
                    Element("br")
                    Text("second, with ")
                    Element("em") { Text("emphasis") }
                    Text(".")
                }
                Element("ul") {
                    Element("li") { Text("one") }
                    Element("li") { Text("two") }
                }
                Text("tail")
            }
        }
    }

    @Test func plainShowsVisibleTextWithBlocksOnTheirOwnLines() async throws {
        #expect(
            try await render(Article(), as: .plain) == """
                Title
                First line
                second, with emphasis.

                - one
                - two

                tail
                """)
    }

    @Test func treeShowsComponentsElementsAndEscapedText() async throws {
        let page = Group {
            Article()
            Text("quote \" backslash \\ newline \n tab \t")
        }
        #expect(
            try await tree(page) == #"""
                Article
                └─ <article>
                   ├─ <h1>
                   │  └─ "Title"
                   ├─ <p>
                   │  ├─ "First line"
                   │  ├─ <br>
                   │  ├─ "second, with "
                   │  ├─ <em>
                   │  │  └─ "emphasis"
                   │  └─ "."
                   ├─ <ul>
                   │  ├─ <li>
                   │  │  └─ "one"
                   │  └─ <li>
                   │     └─ "two"
                   └─ "tail"
                "quote \" backslash \\ newline \n tab \t"
                """#)
    }

    @Test func resolvedNodesCanBeInspectedAndRenderedLater() async throws {
        let node = try await resolve(Element("p", attributes: ["class": "x"]) { Text("hi") })
        #expect(
            node
                == Node(
                    .fragment,
                    children: [
                        Node(.element(tag: "p", attributes: [Attribute("class", "x")]), children: [Node(.text("hi"))])
                    ]))
        #expect(try node.rendered(as: .html) == #"<p class="x">hi</p>"#)
        #expect(throws: InvalidMarkupError.self) {
            try Node(.element(tag: "bad tag", attributes: [])).rendered(as: .html)
        }
    }
}
