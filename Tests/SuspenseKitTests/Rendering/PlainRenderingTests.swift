import Testing

@testable import SuspenseKit

/// `.plain`: the visible text for a terminal. Blocks on lines of their own, blank lines around
/// blocks that hold blocks, list items marked `- `, `RawHTML` shown as its visible text.
struct PlainRenderingTests {
    struct Post {
        let title: String
        let summary: String
    }

    static let posts = [
        Post(title: "Release 1.0", summary: "Streaming is here."),
        Post(title: "Release 1.1", summary: "Faster trees."),
    ]

    @Test func theReadmeExampleShowsAsTheReadmeSays() async throws {
        let page = Group {
            ForEach(Self.posts) { post in
                Element("article") {
                    Element("h2") { Text(post.title) }
                    Element("p") { Text(post.summary) }
                }
            }
            RawHTML("<ul><li>one</li><li>two &amp; <!-- not shown --><ul><li>nested</li></ul></li></ul>")
        }
        #expect(
            try await render(page, as: .plain) == """
                Release 1.0
                Streaming is here.

                Release 1.1
                Faster trees.

                - one
                - two &
                  - nested
                """)
    }

    @Test func listItemsAreMarked() async throws {
        let list = Element("ul") {
            Element("li") { Text("one") }
            Element("li") { Text("two") }
        }
        #expect(try await render(list, as: .plain) == "- one\n- two")
    }

    @Test func nestedListsAreIndentedAndStayTight() async throws {
        let list = Element("ul") {
            Element("li") {
                Text("fruit")
                Element("ul") {
                    Element("li") { Text("apple") }
                    Element("li") {
                        Text("pear")
                        Element("ol") { Element("li") { Text("conference") } }
                    }
                }
            }
            Element("li") { Text("bread") }
        }
        #expect(
            try await render(list, as: .plain) == """
                - fruit
                  - apple
                  - pear
                    - conference
                - bread
                """)
    }

    @Test func cardsOfTitleAndSummaryAreSetApart() async throws {
        let page = Element("main") {
            Element("h1") { Text("News") }
            ForEach(Self.posts) { post in
                Element("article") {
                    Element("h2") { Text(post.title) }
                    Element("p") { Text(post.summary) }
                }
            }
            Element("footer") { Text("That is all.") }
        }
        #expect(
            try await render(page, as: .plain) == """
                News

                Release 1.0
                Streaming is here.

                Release 1.1
                Faster trees.

                That is all.
                """)
    }

    @Test func listItemsOfTitleAndSummaryAreSetApartAndIndented() async throws {
        let list = Element("ul") {
            ForEach(Self.posts) { post in
                Element("li") {
                    Element("h3") { Text(post.title) }
                    Element("p") { Text(post.summary) }
                }
            }
        }
        #expect(
            try await render(list, as: .plain) == """
                - Release 1.0
                  Streaming is here.

                - Release 1.1
                  Faster trees.
                """)
    }

    @Test func linesInsideAListItemAreIndented() async throws {
        let list = Element("ul") {
            Element("li") {
                Text("first")
                Element("br")
                Text("second\nthird")
            }
        }
        #expect(try await render(list, as: .plain) == "- first\n  second\n  third")
    }

    @Test func tagNamesCountInAnyLetterCase() async throws {
        let page = Element("DIV") {
            Text("one")
            Element("BR")
            Text("two")
            Element("Ul") {
                Element("LI") { Text("three") }
            }
            Element("SCRIPT") { Text("alert(1)") }
            Element("P") { Text("four") }
        }
        #expect(try await render(page, as: .plain) == "one\ntwo\n\n- three\n\nfour")
    }

    @Test func scriptsStylesAndTheDocumentHeadShowNothing() async throws {
        let page = Element("html") {
            Element("head") {
                Element("title") { Text("Title") }
                Element("style") { Text("p { color: red }") }
            }
            Element("body") {
                Element("p") { Text("visible") }
                Element("script") { Text("alert(1)") }
                Element("template") { Element("p") { Text("inert") } }
            }
        }
        #expect(try await render(page, as: .plain) == "visible")
    }

    @Test func rawHTMLShowsItsVisibleText() async throws {
        let page = Group {
            RawHTML(
                """
                <!DOCTYPE html><!-- a comment, <p>not shown</p> --><h2 class="a>b">Fish &amp; Chips</h2>
                <script>document.write("<p>not shown</p>")</script><style>p > b { x: "</p>" }</style>
                <p>2 &lt; 3, &lt;script&gt; is text, a < b &amp&ampx &#60;&#x3C; &eacute;&#233;&#xE9;&nbsp;!
                &unknown; &#150; &#0; &#xD800; &#x110000;</p><?php echo 1 ?>
                """)
        }
        #expect(
            try await render(page, as: .plain) == """
                Fish & Chips
                2 < 3, <script> is text, a < b &&x << ééé\u{A0}! &unknown; – \u{FFFD} \u{FFFD} \u{FFFD}
                """)
    }

    @Test func controlsInRawHTMLAreEscapedAfterDecoding() async throws {
        let raw = RawHTML("<b>\u{1B}[31m</b> &#x1B;]0;title&#7; &#27;&#x9b; \u{9B}\u{7}")
        #expect(try await render(raw, as: .plain) == #"\u{1B}[31m \u{1B}]0;title\u{7} \u{1B}› \u{9B}\u{7}"#)
    }

    @Test func rawHTMLWhitespaceCollapsesOutsidePre() async throws {
        let raw = RawHTML(
            """
            <ul>
              <li>one</li>
              <li>two,
                  wrapped</li>
              <li>three<li>four
            </ul>
            <pre>
              kept
                as is</pre>
            <p>   after   </p>
            """)
        #expect(
            try await render(raw, as: .plain) == """
                - one
                - two, wrapped
                - three
                - four

                  kept
                    as is
                after
                """)
    }

    @Test func rawHTMLListItemsJoinTheListAroundThem() async throws {
        let list = Element("ul") {
            Element("li") { Text("from the tree") }
            RawHTML("<li>from markup<ul><li>nested</li></ul></li>")
        }
        #expect(try await render(list, as: .plain) == "- from the tree\n- from markup\n  - nested")
    }

    @Test func textAreasAndTitlesOfRawHTMLAreText() async throws {
        let raw = RawHTML("<textarea>\n<b>&lt;kept&gt;</b></textarea><title>x</title>")
        #expect(try await render(raw, as: .plain) == "<b><kept></b>")
    }

    @Test func brokenMarkupShowsWhatABrowserWould() async throws {
        #expect(try await render(RawHTML("a <b>bold</i> c</b><p>open"), as: .plain) == "a bold c\nopen")
        #expect(try await render(RawHTML("cut <a href=\"x"), as: .plain) == "cut")
        #expect(try await render(RawHTML("<!-- never closed <p>x"), as: .plain) == "")
        #expect(try await render(RawHTML("x</br>y</p>z"), as: .plain) == "x\ny\nz")
        #expect(try await render(RawHTML("<"), as: .plain) == "<")
        #expect(try await render(RawHTML("a</>b</ x>c"), as: .plain) == "abc")
    }

    @Test func deepMarkupIsReadInLinearTime() async throws {
        // Each start tag would look through every open element for a `p` to close, each stray
        // end tag for its element: quadratic, minutes in a debug build, without their counts.
        let depth = 20_000
        let markup =
            String(repeating: "<div><span>", count: depth) + "deep" + String(repeating: "</b></p>", count: depth)
        let start = ContinuousClock.now
        #expect(try await render(RawHTML(markup), as: .plain) == "deep")
        #expect(ContinuousClock.now - start < .seconds(10))
    }

    @Test func breaksAreNeverWrittenAtTheStartOrTheEnd() async throws {
        let page = Group {
            Element("div") { Element("p") {} }
            Element("ul") { Element("li") {} }
            Element("p") { Text("only") }
            Element("div") { Element("p") {} }
        }
        #expect(try await render(page, as: .plain) == "only")
    }
}
