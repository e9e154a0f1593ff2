import Testing

@testable import SuspenseKit

/// Pretty HTML puts blocks on indented lines of their own, and adds nothing inside an element
/// whose whitespace is its content.
struct PrettyHTMLTests {
    @Test func preformattedContentIsLeftUntouched() async throws {
        let page = Element("main") {
            Element("p") { Text("before") }
            Element("pre") {
                Text("  indented\n\n    more\n")
                Element("div") { Text("a block inside") }
                Element("code") { Text("  x = 1\n") }
            }
            Element("p") { Text("after") }
        }
        let pretty = try await render(page, as: .html(pretty: true))
        #expect(
            pretty == """
                <main>
                  <p>before</p>
                  <pre>  indented

                    more
                <div>a block inside</div><code>  x = 1
                </code></pre>
                  <p>after</p>
                </main>
                """)
        // From `<pre>` to `</pre>`, the pretty form is the compact one.
        let compact = try await render(page, as: .html)
        let start = try #require(compact.firstRange(of: "<pre>"))
        let end = try #require(compact.firstRange(of: "</pre>"))
        #expect(pretty.contains(compact[start.lowerBound..<end.upperBound]))
    }

    @Test func textAreasScriptsAndStylesAreLeftUntouched() async throws {
        let page = Element("form") {
            Element("textarea") { Element("div") { Text(" kept ") } }
            Element("script") { Element("section") { Text("x") } }
            Element("STYLE") { Element("p") { Text("y") } }
        }
        #expect(
            try await render(page, as: .html(pretty: true)) == """
                <form><textarea><div> kept </div></textarea><script><section>x</section></script>\
                <STYLE><p>y</p></STYLE></form>
                """)
    }

    @Test func uppercaseBlocksGetLinesOfTheirOwn() async throws {
        let page = Element("DIV") {
            Element("P") { Text("one") }
            Element("Pre") { Element("DIV") { Text("two") } }
        }
        #expect(
            try await render(page, as: .html(pretty: true)) == """
                <DIV>
                  <P>one</P>
                  <Pre><DIV>two</DIV></Pre>
                </DIV>
                """)
    }
}
