import Testing

@testable import SuspenseKit

/// Renders trees built by hand, including shapes the resolver never makes (a root that is not a
/// fragment, fragments below the root), and the errors HTML raises.
struct NodeRenderingTests {
    let tree = Node(
        .element(tag: "div", attributes: [Attribute("id", "a&b")]),
        children: [
            Node(
                .fragment,
                children: [
                    Node(.text("one")), Node(.element(tag: "p", attributes: []), children: [Node(.text("two"))]),
                ]),
            Node(
                .component(name: "Card"),
                children: [
                    Node(
                        .suspense(.pending(["k1", "k2"])),
                        children: [
                            Node(.element(tag: "br", attributes: []), children: [Node(.text("hidden in plain"))])
                        ]),
                    Node(.errorBoundary(.caught("bad\nthing")), children: [Node(.rawHTML("<i>raw</i> text"))]),
                ]),
            Node(.element(tag: "span", attributes: []), children: [Node(.text("three\r\n"))]),
            Node(.text("four")),
            Node(
                .element(tag: "section", attributes: []),
                children: [
                    Node(.component(name: "Inner"), children: [Node(.element(tag: "h2", attributes: []))])
                ]),
        ])

    var withoutBreak: Node {
        var node = tree
        node.children[1].children[0].children = []
        return node
    }

    @Test func treeFormatOfANonFragmentRoot() throws {
        #expect(
            try tree.rendered(as: .tree) == """
                <div id="a&b">
                ├─ Fragment
                │  ├─ "one"
                │  └─ <p>
                │     └─ "two"
                ├─ Card
                │  ├─ Suspense [pending: k1, k2]
                │  │  └─ <br>
                │  │     └─ "hidden in plain"
                │  └─ ErrorBoundary [caught: bad\\nthing]
                │     └─ raw "<i>raw</i> text"
                ├─ <span>
                │  └─ "three\\r\\n"
                ├─ "four"
                └─ <section>
                   └─ Inner
                      └─ <h2>
                """
        )
    }

    @Test func plainFormatOfANonFragmentRoot() throws {
        #expect(try tree.rendered(as: .plain) == "one\ntwo\nraw textthree\r\nfour")
    }

    @Test func htmlOfANonFragmentRoot() throws {
        #expect(
            try Node(.fragment, children: [withoutBreak]).rendered(as: .html)
                == "<div id=\"a&amp;b\">one<p>two</p><i>raw</i> text<span>three\r\n</span>four<section><h2></h2></section></div>"
        )
    }

    @Test func voidElementWithChildrenFails() throws {
        #expect(throws: InvalidMarkupError.self) { try tree.rendered(as: .html) }
        do {
            _ = try tree.rendered(as: .html)
        } catch let error as InvalidMarkupError {
            #expect(error.message == "<br> is a void element and cannot have children; its 1 child would be lost")
        }
    }

    @Test func invalidNamesFail() throws {
        let badTag = Node(.element(tag: "1p", attributes: []))
        #expect(throws: InvalidMarkupError.self) { try badTag.rendered(as: .html) }
        let badAttribute = Node(.element(tag: "p", attributes: [Attribute("on click", "x")]))
        #expect(throws: InvalidMarkupError.self) { try badAttribute.rendered(as: .html) }
        #expect(try badAttribute.rendered(as: .tree) == "<p on click=\"x\">")
    }

    @Test func prettyHTMLLooksThroughComponents() throws {
        let page = Node(
            .element(tag: "main", attributes: []),
            children: [
                Node(
                    .component(name: "A"),
                    children: [Node(.element(tag: "p", attributes: []), children: [Node(.text("x"))])]),
                Node(.element(tag: "b", attributes: []), children: [Node(.text("y"))]),
            ])
        #expect(try page.rendered(as: .html(pretty: true)) == "<main>\n  <p>x</p><b>y</b>\n</main>")
    }

    @Test func escapingInTextAndAttributes() throws {
        let node = Node(
            .fragment,
            children: [
                Node(
                    .element(
                        tag: "p", attributes: [Attribute("title", "a\u{0}b \"é\" <&> 'x' 🙂"), Attribute("data-x", "")]),
                    children: [
                        Node(.text("\u{0}<é>&🙂\"'")), Node(.rawHTML("<br>")),
                        Node(.element(tag: "img", attributes: [])),
                    ])
            ])
        #expect(
            try node.rendered(as: .html)
                == "<p title=\"a\u{FFFD}b &quot;é&quot; &lt;&amp;&gt; &#39;x&#39; 🙂\" data-x=\"\">\u{FFFD}&lt;é&gt;&amp;🙂\"'<br><img></p>"
        )
    }

    @Test func emptyTrees() throws {
        for format in [RenderFormat.tree, .plain, .html, .html(pretty: true)] {
            #expect(try Node(.fragment).rendered(as: format) == "")
        }
        #expect(try Node(.text("")).rendered(as: .tree) == "\"\"")
    }
}
