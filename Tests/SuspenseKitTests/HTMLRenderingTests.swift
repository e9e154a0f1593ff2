import Testing

@testable import SuspenseKit

@Suite struct HTMLRenderingTests {
    @Test func escapesTextAndAttributeValues() async throws {
        let page = Element("a", attributes: ["href": "/search?q=\"x\"&y='z'", "title": "<b>"]) {
            Text("<script>alert('x') & \"y\"</script>")
        }
        #expect(
            try await html(page) == """
                <a href="/search?q=&quot;x&quot;&amp;y=&#39;z&#39;" title="&lt;b&gt;">\
                &lt;script&gt;alert('x') &amp; "y"&lt;/script&gt;</a>
                """)
    }

    @Test func keepsAttributesInTheOrderWritten() async throws {
        let page = Element("input", attributes: ["type": "text", "name": "q", "autofocus": "", "id": "q"])
        #expect(try await html(page) == #"<input type="text" name="q" autofocus="" id="q">"#)
        let listed = Element("img", attributes: [Attribute("z", "1"), Attribute("a", "2")]) {}
        #expect(try await html(listed) == #"<img z="1" a="2">"#)
    }

    @Test func voidElementsHaveNoClosingTag() async throws {
        let page = Element("p") {
            Text("a")
            Element("br")
            Element("img", attributes: ["src": "x.png"])
            Element("hr")
        }
        #expect(try await html(page) == #"<p>a<br><img src="x.png"><hr></p>"#)
    }

    @Test func aVoidElementWithChildrenIsAnErrorNotLostContent() async throws {
        let error = try await renderError(Element("br") { Text("lost?") })
        #expect(error.underlying is InvalidMarkupError)
    }

    @Test func anInvalidNameIsAnErrorAtTheElementThatAnErrorBoundaryCatches() async throws {
        let page = ErrorBoundary {
            Element("my tag") { Text("x") }
        } fallback: { error in
            Text("caught: \(error)")
        }
        #expect(try await render(page, as: .plain).hasPrefix("caught: invalid tag name \"my tag\""))
    }

    @Test func rawHTMLIsTheOnlyUnescapedOutput() async throws {
        let page = Group {
            RawHTML("<b>bold</b>")
            Text("<b>text</b>")
        }
        #expect(try await html(page) == "<b>bold</b>&lt;b&gt;text&lt;/b&gt;")
        #expect(try await render(page, as: .plain) == "bold<b>text</b>")
        #expect(
            try await tree(page) == """
                raw "<b>bold</b>"
                "<b>text</b>"
                """)
    }

    @Test(arguments: ["", "my tag", "<p>", "1p", "p\"", "a/b", "p>"])
    func invalidTagNamesAreAClearError(tag: String) async throws {
        let error = try await renderError(Element(tag) { Text("x") })
        let invalid = try #require(error.underlying as? InvalidMarkupError)
        #expect(invalid.message.hasPrefix("invalid tag name"))
        // A hand-built tree is checked when rendered.
        #expect(throws: InvalidMarkupError.self) {
            try Node(.element(tag: tag, attributes: [])).rendered(as: .html)
        }
    }

    @Test func rowsOfTwoOrThreeTagsKeepEachTagsFactsAndANewTagIsStillChecked() async throws {
        // The resolver remembers the last three tags it checked, so rows of `<p>` and `<br>`, or
        // of `<li>`, `<img>` and `<span>`, check each once: each keeps its own voidness, and a
        // tag new to them is checked.
        let twoTags = ForEach(0..<3) { index in
            Element("p") {
                Text("\(index)")
                Element("br") {}
            }
        }
        #expect(try await html(twoTags) == "<p>0<br></p><p>1<br></p><p>2<br></p>")
        let threeTags = ForEach(0..<3) { index in
            Element("li") {
                Element("img") {}
                Element("span") { Text("\(index)") }
            }
        }
        #expect(
            try await html(threeTags)
                == "<li><img><span>0</span></li><li><img><span>1</span></li><li><img><span>2</span></li>")
        let invalid = try await renderError(
            Group {
                twoTags
                threeTags
                Element("p>") {}
            })
        #expect((invalid.underlying as? InvalidMarkupError)?.message.hasPrefix("invalid tag name \"p>\"") == true)
        let filledVoid = try await renderError(
            Group {
                threeTags
                Element("img") { Text("x") }
            })
        #expect((filledVoid.underlying as? InvalidMarkupError)?.message.contains("<img>") == true)
        let filledBr = try await renderError(
            Group {
                twoTags
                Element("br") { Text("x") }
            })
        #expect((filledBr.underlying as? InvalidMarkupError)?.message.contains("<br>") == true)
    }

    @Test(arguments: ["", "on click", "a\"b", "x>y", "a=b", "x/", "c\u{0}d", "'q'"])
    func invalidAttributeNamesAreAClearError(name: String) async throws {
        let error = try await renderError(Element("div", attributes: [Attribute(name, "v")]) {})
        let invalid = try #require(error.underlying as? InvalidMarkupError)
        #expect(invalid.message.hasPrefix("invalid attribute name"))
        #expect(invalid.message.contains("on <div>"))
    }

    @Test func acceptsCustomElementsAndFrameworkAttributes() async throws {
        let page = Element("my-widget", attributes: ["data-id": "1", "aria-label": "w", "@click": "go", ":x": "y"]) {}
        #expect(try await html(page) == #"<my-widget data-id="1" aria-label="w" @click="go" :x="y"></my-widget>"#)
    }

    @Test func nulBecomesTheReplacementCharacter() async throws {
        #expect(try await html(Text("a\u{0}b")) == "a\u{FFFD}b")
    }

    @Test func prettyPrintingPutsBlockElementsOnIndentedLines() async throws {
        let page = Element("ul") {
            Element("li") {
                Text("one "); Element("b") { Text("bold") }
            }
            Element("li") { Text("two") }
        }
        #expect(
            try await render(page, as: .html(pretty: true)) == """
                <ul>
                  <li>one <b>bold</b></li>
                  <li>two</li>
                </ul>
                """)
    }
}
