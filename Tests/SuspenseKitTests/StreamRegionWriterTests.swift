import Testing

@testable import SuspenseKit

/// A streamed region with nothing to mark is written by the compact renderer straight into its
/// chunk; it must be the bytes the stream markup writes for it, and every other region must go
/// to the stream markup.
struct StreamRegionWriterTests {
    let opening = Array("<template>".utf8)
    let closing = Array("</template><script>$sk(\"0\")</script>".utf8)

    /// Escaped text and attribute values, a void element, raw HTML, an element a marker cannot
    /// stand in, a component and a fragment, inside one resolved Suspense.
    let region = Node(
        .suspense(.resolved),
        children: [
            Node(
                .element(tag: "ul", attributes: [Attribute("class", "a\"b'<&>"), Attribute("data-x", "")]),
                children: [
                    Node(.element(tag: "li", attributes: []), children: [Node(.text("one < two & \"three\""))]),
                    Node(.element(tag: "LI", attributes: []), children: [Node(.text("\u{0}nul"))]),
                    Node(.element(tag: "br", attributes: [])),
                ]),
            Node(.component(name: "Row"), children: [Node(.rawHTML("<i>raw</i> & text"))]),
            Node(
                .fragment,
                children: [Node(.element(tag: "textarea", attributes: []), children: [Node(.text("a\n b"))])]),
            Node(.element(tag: "p", attributes: [])),
        ])

    @Test func aRegionWithNothingToMarkIsWrittenAsTheStreamMarkupWritesIt() throws {
        let tree = RenderTree(region)
        #expect(StreamMarkup.isUnmarked(tree))
        let markup = StreamMarkup(markers: true, holdsDocumentEnd: true)
        let output = try markup.render(tree, from: 1, to: tree.entries.count, prefix: opening)
        let chunk = try HTMLRenderer.renderCompactString(tree, after: opening, before: closing)
        #expect(Array(chunk.utf8) == output.html + closing)
        #expect(output.tail.isEmpty && output.boundaries.isEmpty)
    }

    @Test func aRegionWithABoundaryOrAnHTMLElementInsideIsMarked() {
        let nested = Node(
            .suspense(.resolved),
            children: [Node(.element(tag: "div", attributes: []), children: [Node(.suspense(.pending(["k"])))])])
        let caught = Node(.suspense(.resolved), children: [Node(.errorBoundary(.caught("bad")))])
        let document = Node(.suspense(.resolved), children: [Node(.element(tag: "Html", attributes: []))])
        for node in [nested, caught, document] {
            #expect(!StreamMarkup.isUnmarked(RenderTree(node)))
        }
    }
}
