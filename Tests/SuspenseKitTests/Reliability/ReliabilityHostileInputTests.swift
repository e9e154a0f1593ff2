import Testing

@testable import SuspenseKit

/// Markup injection, broken entities, control characters, invalid UTF-16 and very long strings in
/// text, attribute values, attribute names and tag names. The HTML a tree renders to, parsed back
/// by a real HTML parser, holds exactly the elements and attributes the tree declared, with its
/// text unchanged; a name HTML cannot carry is rejected with an `InvalidMarkupError`.
struct ReliabilityHostileInputTests {
    /// Hostile strings for text and attribute values.
    static let corpus: [String] = {
        var corpus = [
            "<script>alert(1)</script>", "\"><script>alert(1)</script>", "'><img src=x onerror=alert(1)>",
            "\" onmouseover=\"alert(1)", "' onfocus='alert(1)' autofocus '", "javascript:alert(1)",
            " JaVaScRiPt:alert(document.cookie)", "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
            "</div></body></html><div>", "<!-- comment -->", "--><script>x</script><!--", "<![CDATA[<x>]]>",
            "<?xml version=\"1.0\"?>", "<!DOCTYPE html>", "</script><script>alert(1)</script>", "</style>",
            "</textarea><b>", "</title><b>", "<svg onload=alert(1)>", "<a href=\"javascript:alert(1)\">x</a>",
            "&", "&amp;", "&amp", "&lt;script&gt;", "&#60;script&#62;", "&#x3C;script&#x3E;", "&#60", "&#",
            "&#;", "&#x;", "&#xZZ;", "&#0;", "&#128;", "&#xD800;", "&notanentity;", "&lt", "&ltx", "&;", "&&&;",
            "\u{0}", "a\u{0}b", "\u{0}<\u{0}script>", "\r\n", "\t\u{B}\u{C}", "\u{7F}\u{80}\u{85}\u{9F}",
            "\u{2028}\u{2029}", "\u{FEFF}bom", "\u{202E}rtl override", scalars(0xFFFE, 0xFFFF, 0xFDD0),
            "e\u{301}\u{301}\u{301}", "👩‍👩‍👧‍👦", "𝕏", "\"'`=<>/\\", "a\"b'c", "",
        ]
        corpus.append(String((0..<32).map { Character(Unicode.Scalar(UInt8($0))) }))
        // Lone surrogates cannot be in a String: decoding turns them into U+FFFD. Joined with
        // valid text and with each other, they must still come out as that text.
        let high = String(decoding: [0xD800] as [UInt16], as: UTF16.self)
        let low = String(decoding: [0xDC00, 0x41] as [UInt16], as: UTF16.self)
        let reversed = String(decoding: [0xDFFF, 0xD83D] as [UInt16], as: UTF16.self)
        corpus += [high, low, high + low, reversed + "<b>" + high, "a" + high + "&" + low + "\"", high + "\u{0}" + low]
        corpus += [
            String(repeating: "<script>alert(1)</script>", count: 4_000),
            String(repeating: "&", count: 100_000) + String(repeating: "\"'", count: 50_000),
            String(repeating: "\u{0}", count: 10_000), String(repeating: "é", count: 200_000),
        ]
        return corpus
    }()

    /// Names HTML can carry, in odd forms.
    static let validTags = [
        "div", "p", "span", "script", "style", "textarea", "title", "my-widget", "x:y", "a.b_c", "SPAN", "h1", "img",
        "br", "IMG",
    ]
    static let validAttributes = [
        "class", "data-x", "onclick", "aria-label", "x:y", "_private", "data-ü", "DATA-Upper", "href", "src", "style",
        "a-", "ü",
    ]

    /// Names HTML cannot carry, or that some parser would split into more than one.
    static let invalidTags = [
        "", "1div", "-x", "_x", "div onclick=alert(1)", "div>", "di<v", "div/", "<script>", "d\u{0}", "dív",
        "div\u{A0}",
        "script\n", "a b", "a\"b", "a'b", "a=b", "a&b", "\u{FFFD}", "div\u{2028}", "!--", "?xml",
    ]
    static let invalidAttributes = [
        "", " ", "a b", "a\"b", "a'b", "a<b", "a>b", "a/b", "a=b", "a`b", "a\u{0}", "a\tb", "a\nb", "a\rb", "a\u{C}b",
        "a\u{A0}b", "a\u{2028}b", "a\u{3000}b", "a\u{1680}b", "a\u{202F}b", "a\u{85}b", "a" + scalars(0xFFFE),
        "a" + scalars(0xFDD0), "\u{7F}",
        "onclick=alert(1)", "x\"><script>alert(1)</script>", "'", "\"", "=", "/", ">",
    ]

    @Test(.enabled(if: ReliabilityHTMLParser.isAvailable, "needs python3 (html.parser) on PATH to parse the HTML back"))
    func htmlParsedBackHoldsExactlyTheDeclaredTree() async throws {
        var random = ReliabilityRandom(seed: 0xBAD_1DEA)
        var trees: [Node] = []
        // Every corpus string once in text and once as an attribute value, on every valid name.
        for (index, hostile) in Self.corpus.enumerated() {
            let tag = Self.validTags[index % Self.validTags.count]
            let name = Self.validAttributes[index % Self.validAttributes.count]
            let content: [Node] = HTMLNames.isVoid(tag) ? [] : [Node(.text(hostile))]
            trees.append(Node(.element(tag: tag, attributes: [Attribute(name, hostile)]), children: content))
        }
        // Random trees mixing everything, written as components and resolved.
        for _ in 0..<300 {
            trees.append(try await resolve(ReliabilityHarness.page(randomTree(&random, depth: 0))))
        }
        let documents =
            try trees.map { try $0.rendered(as: .html) } + trees.map { try $0.rendered(as: .html(pretty: true)) }
        let parsed = try ReliabilityHTMLParser.parse(documents)
        for (index, events) in parsed.enumerated() {
            let tree = trees[index % trees.count]
            var expected = ReliabilityHTMLParser.expectedEvents(of: tree)
            var actual = events
            if index >= trees.count {
                // Pretty-printing adds whitespace between block elements: compare without it.
                expected = Self.withoutWhitespaceData(expected)
                actual = Self.withoutWhitespaceData(actual)
            }
            let extra = actual.filter { !["start", "end", "data"].contains($0[0]) }
            #expect(extra.isEmpty, "the parser saw markup the tree did not declare: \(extra)")
            #expect(
                actual.filter { $0[0] != "data" } == expected.filter { $0[0] != "data" },
                "elements or attributes differ in document \(index)")
            #expect(
                actual == expected,
                "text differs in document \(index): \(String(documents[index].prefix(300)).debugDescription)")
        }
    }

    @Test func invalidTagAndAttributeNamesAreRejected() async throws {
        for tag in Self.invalidTags {
            let node = Node(.element(tag: tag, attributes: []), children: [Node(.text("x"))])
            let error = try #require(throws: InvalidMarkupError.self, "tag \(tag.debugDescription)") {
                try node.rendered(as: .html)
            }
            #expect(error.message.hasPrefix("invalid tag name"))
            #expect(
                try node.rendered(as: .tree).split(separator: "\n", omittingEmptySubsequences: false).count == 2,
                "one line per node")
            // Resolving the element fails at the element, and an ErrorBoundary catches it.
            let caught = try await resolve(
                ErrorBoundary {
                    Element(tag) { Text("x") }
                } fallback: { error in
                    Text("\(error)")
                })
            #expect(try caught.rendered(as: .plain).hasPrefix("invalid tag name"))
        }
        for name in Self.invalidAttributes {
            let node = Node(.element(tag: "p", attributes: [Attribute("class", "ok"), Attribute(name, "v")]))
            let error = try #require(throws: InvalidMarkupError.self, "attribute \(name.debugDescription)") {
                try node.rendered(as: .html)
            }
            #expect(error.message.hasPrefix("invalid attribute name"))
            #expect(
                try node.rendered(as: .tree).split(separator: "\n", omittingEmptySubsequences: false).count == 1,
                "one line per node")
            let thrown = try await #require(throws: RenderError.self) {
                try await resolve(Element("p", attributes: [Attribute(name, "v")]) { Text("x") })
            }
            #expect(thrown.underlying is InvalidMarkupError)
        }
        for tag in Self.validTags {
            #expect(throws: Never.self) { try Node(.element(tag: tag, attributes: [])).rendered(as: .html) }
        }
        for name in Self.validAttributes {
            #expect(throws: Never.self) {
                try Node(.element(tag: "p", attributes: [Attribute(name, "v")])).rendered(as: .html)
            }
        }
        // A void element in any letter case cannot have children.
        #expect(throws: InvalidMarkupError.self) {
            try Node(.element(tag: "IMG", attributes: []), children: [Node(.text("x"))]).rendered(as: .html)
        }
    }

    @Test func hostileTextStaysOnOneLineInTheTreeFormat() async throws {
        for hostile in Self.corpus where hostile.utf8.count < 1_000 {
            let node = try await resolve(Element("p", attributes: [Attribute("title", hostile)]) { Text(hostile) })
            let tree = try node.rendered(as: .tree)
            let lines = tree.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.count == 2, "\(hostile.debugDescription)")
            #expect(!tree.unicodeScalars.contains(where: Self.actsOnATerminal), "\(hostile.debugDescription)")
            #expect(try node.rendered(as: .plain) == Self.terminalSafe(hostile), "\(hostile.debugDescription)")
        }
    }

    @Test func hostileMarkupShowsNoControlInPlainText() async throws {
        for hostile in Self.corpus where hostile.utf8.count < 1_000 {
            let plain = try Node(.rawHTML(hostile)).rendered(as: .plain)
            #expect(!plain.unicodeScalars.contains(where: Self.actsOnATerminal), "\(hostile.debugDescription)")
            #expect(!plain.unicodeScalars.contains("\r"), "\(hostile.debugDescription)")
        }
    }

    // MARK: Helpers

    /// Whether a terminal acts on `scalar` instead of showing it: a C0 control other than newline
    /// and tab (a carriage return may only end a line), DEL, a C1 control, a bidirectional
    /// embedding, override or isolate.
    static func actsOnATerminal(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09, 0x0D: return false
        case 0..<0x20, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// What `.plain` shows of text: each scalar a terminal acts on as `\u{…}`, a carriage
    /// return kept only before a newline.
    static func terminalSafe(_ text: String) -> String {
        var result = ""
        let scalars = Array(text.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            let crlf = scalar == "\r" && index + 1 < scalars.count && scalars[index + 1] == "\n"
            if (scalar == "\r" && !crlf) || actsOnATerminal(scalar) {
                result += "\\u{" + String(scalar.value, radix: 16).uppercased() + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Noncharacters cannot be written as literals.
    private static func scalars(_ values: UInt32...) -> String {
        String(String.UnicodeScalarView(values.map { Unicode.Scalar($0)! }))
    }

    private func randomTree(_ random: inout ReliabilityRandom, depth: Int) -> ReliabilityHarness.Desc {
        func hostile() -> String { Self.corpus[random.int(0...(Self.corpus.count - 1))] }
        let tag = Self.validTags[random.int(0...(Self.validTags.count - 1))]
        // Names drawn without replacement: a name given twice is an error at the element.
        var names = Self.validAttributes
        let attributes = (0..<random.int(0...3)).map { _ in
            Attribute(names.remove(at: random.int(0...(names.count - 1))), hostile())
        }
        var children: [ReliabilityHarness.Desc] = []
        if !HTMLNames.isVoid(tag) {
            for _ in 0..<random.int(0...4) {
                if depth < 4, tag != "script", tag != "style", tag != "textarea", tag != "title", random.chance(0.4) {
                    children.append(randomTree(&random, depth: depth + 1))
                } else {
                    let text = hostile()
                    children.append(.text(text.utf8.count > 1_000 ? String(text.prefix(500)) : text))
                }
            }
        }
        let element = ReliabilityHarness.Desc.element(tag: tag, attributes: attributes, children: children)
        return random.chance(0.3) ? .suspense(content: [element], fallback: []) : element
    }

    private static func withoutWhitespaceData(_ events: [ReliabilityHTMLParser.Event]) -> [ReliabilityHTMLParser.Event]
    {
        events.compactMap { event in
            guard event[0] == "data" else { return event }
            let trimmed = event[1].trimmingCharacters(in: .whitespacesAndNewlines)
            return trimmed.isEmpty ? nil : ["data", trimmed]
        }
    }
}

extension ReliabilityHarness {
    /// A page showing `description`, with no query.
    static func page(_ description: Desc) -> some Component {
        let testCase = Case(seed: 0, root: [description], outcomes: [:], deliveryOrder: .completion)
        return Page(children: testCase.root, environment: Environment(testCase))
    }
}
