import Testing

@testable import SuspenseKit

/// `.plain` and `.tree` go to terminals: no character a terminal acts on (ESC, BEL, NUL and the
/// other C0 controls, DEL, the C1 controls, bidirectional overrides) reaches it as is. Each is
/// written as `\u{…}`, in uppercase hexadecimal.
struct TerminalSafeTextTests {
    /// Colours, a bell, a NUL, a C1 CSI (U+009B) clearing the screen, a right-to-left override.
    static let hostile = "a\u{1B}[31mred\u{7}\u{0}b\u{9B}2Jc\u{202E}dcba\u{2066}e\u{7F}"

    @Test func controlsInTextAreEscapedInPlain() async throws {
        #expect(
            try await render(Text(Self.hostile), as: .plain)
                == #"a\u{1B}[31mred\u{7}\u{0}b\u{9B}2Jc\u{202E}dcba\u{2066}e\u{7F}"#
        )
    }

    @Test func controlsInTextAreEscapedInTheTree() async throws {
        #expect(
            try await tree(Element("p") { Text(Self.hostile) }) == #"""
                <p>
                └─ "a\u{1B}[31mred\u{7}\u{0}b\u{9B}2Jc\u{202E}dcba\u{2066}e\u{7F}"
                """#)
    }

    @Test func everyControlIsEscapedAndNothingElse() async throws {
        let controls: [UInt32] = Array(0...0x1F) + Array(0x7F...0x9F) + Array(0x202A...0x202E) + Array(0x2066...0x2069)
        for value in controls where value != 0x0A && value != 0x09 {
            let character = String(Unicode.Scalar(value)!)
            let escape = "\\u{" + String(value, radix: 16).uppercased() + "}"
            #expect(try await render(Text("<\(character)>"), as: .plain) == "<\(escape)>")
            let quoted = value == 0x0D ? "\\r" : escape
            #expect(try await render(Text("<\(character)>"), as: .tree) == "\"<\(quoted)>\"")
        }
        // Neighbours of the controls in UTF-8 (same lead bytes C2 and E2) are shown as they are.
        let ordinary = "\u{A0}©«°±¶·»¼ – — ‘’ “” • … ‰ ‹› \u{2029}\u{202F}⁄ ⁰ €"
        #expect(try await render(Text(ordinary), as: .plain) == ordinary)
        #expect(try await render(Text(ordinary), as: .tree) == "\"\(ordinary)\"")
    }

    @Test func plainKeepsNewlinesTabsAndLineEndingsOnly() async throws {
        #expect(try await render(Text("a\tb\nc\r\nd\re"), as: .plain) == "a\tb\nc\r\nd\\u{D}e")
    }

    @Test func attributeValuesInTheTreeAreEscaped() async throws {
        let link = Element("a", attributes: ["href": "/x", "title": "x\u{1B}]0;pwned\u{7}\u{85}"]) { Text("y") }
        #expect(
            try await tree(link) == #"""
                <a href="/x" title="x\u{1B}]0;pwned\u{7}\u{85}">
                └─ "y"
                """#)
    }

    @Test func componentNamesInTheTreeAreEscaped() throws {
        let node = Node(
            .fragment,
            children: [
                Node(.component(name: "Evil\u{1B}[2J\u{9B}Name\u{202E}"), children: [Node(.text("x"))])
            ])
        #expect(
            try node.rendered(as: .tree) == #"""
                Evil\u{1B}[2J\u{9B}Name\u{202E}
                └─ "x"
                """#)
    }

    @Test func queryKeysInTheTreeAreEscaped() async throws {
        let key = "user/\u{1B}[2J\n\u{9B}1\u{2067}"
        let cache = QueryCache()
        cache.stub(.pending, for: key)
        let page = Suspense {
            try Loaded(key)
        } fallback: {
            Text("…")
        }
        #expect(
            try await tree(page, cache: cache) == #"""
                Suspense #0 [pending: user/\u{1B}[2J\n\u{9B}1\u{2067}]
                └─ "…"
                """#)
    }

    @Test func theLiveTerminalEscapesThePendingKeys() async throws {
        let key = "k\u{1B}[2J\n"
        let cache = QueryCache()
        cache.stub(.pending, for: key)
        let writes = Log()
        let terminal = LiveTerminal(format: .plain, isTerminal: true, columns: 80) { writes.append($0) }
        try await terminal.render(
            Suspense {
                try Loaded(key)
            } fallback: {
                Text("…")
            }, cache: cache)
        #expect(
            writes.all == [
                "\u{1B}[?25l…\n\u{1B}[2m… waiting on k\\u{1B}[2J\\n\u{1B}[0m", "\r\u{1B}[2K\u{1B}[?25h",
            ])
    }

    @Test func caughtErrorsInTheTreeAreEscaped() async throws {
        let page = ErrorBoundary {
            try ThrowsAtInit("bad\u{1B}[5m\u{90}thing")
        } fallback: { _ in
            Text("caught")
        }
        #expect(
            try await tree(page) == #"""
                ErrorBoundary #0 [caught: bad\u{1B}[5m\u{90}thing]
                └─ "caught"
                """#)
    }

    @Test func tagAndAttributeNamesOfAHandBuiltTreeAreEscaped() throws {
        let node = Node(.element(tag: "p\u{1B}x", attributes: [Attribute("a\u{9B}", "v")]))
        #expect(try node.rendered(as: .tree) == #"<p\u{1B}x a\u{9B}="v">"#)
    }
}

private struct ThrowsAtInit: Component {
    init(_ message: String) throws { throw TestFailure(message) }
    var body: some Component { Text("never") }
}
