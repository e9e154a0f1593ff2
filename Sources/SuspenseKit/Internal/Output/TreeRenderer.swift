/// Renders the `.tree` format: one node per line, box-drawing indentation.
enum TreeRenderer {
    static func render(_ tree: RenderTree) -> ByteBuffer {
        // One loop over the tree's entries, bytes into one buffer, one shared prefix that grows and
        // shrinks with the depth: see HTMLRenderer.
        // Room for the text (and its escapes) and, per line, a newline, a branch ("├─ " is 7
        // bytes) and a few levels of prefix: growing a large buffer costs more than reserving
        // address space that stays untouched.
        var output = ByteBuffer(capacity: tree.bytes.count + tree.bytes.count / 4 + tree.entries.count * 28 + 64)
        // The prefix and the branches are written from raw buffers: appending an array (or a
        // slice of one) per line retained and released its storage every time, a fifth of the
        // format's time.
        var prefix = PrefixBuffer()
        defer { prefix.deallocate() }
        // Escaped when they need it (valid names never do).
        let names = NameBytes(tree.names.names, write: appendName)
        let entries = tree.entries
        guard !entries.isEmpty else { return output }
        // The top-level nodes: the root's children when it is the fragment of a resolved tree.
        var top = entries[0].kind == .fragment ? 1 : 0
        let topEnd = entries[0].kind == .fragment ? Int(entries[0].end) : 1
        // Open ancestors: where each one's subtree ends, and the length of its children's prefix.
        var open: [(end: Int, prefixLength: Int)] = []
        var isFirstLine = true
        while top < topEnd {
            if !isFirstLine { output.append(UInt8(ascii: "\n")) }
            isFirstLine = false
            appendLabel(of: tree.describedText(at: top), in: tree, names: names, to: &output)
            let end = Int(entries[top].end)
            open.removeAll(keepingCapacity: true)
            open.append((end, 0))
            prefix.count = 0
            var index = top + 1
            while index < end {
                while let last = open.last, last.end <= index { open.removeLast() }
                let parent = open[open.count - 1]
                let entry = entries[index]
                let isLast = Int(entry.end) == parent.end
                output.append(UInt8(ascii: "\n"))
                output.append(UnsafeBufferPointer(start: prefix.bytes, count: parent.prefixLength))
                append(isLast ? lastBranch : branch, to: &output)
                appendLabel(of: tree.describedText(at: index), in: tree, names: names, to: &output)
                if Int(entry.end) > index + 1 {
                    prefix.count = parent.prefixLength
                    prefix.append(isLast ? space : bar)
                    open.append((Int(entry.end), prefix.count))
                }
                index += 1
            }
            top = end
        }
        return output
    }

    private static let branch: StaticString = "├─ "
    private static let lastBranch: StaticString = "└─ "
    private static let bar: StaticString = "│  "
    private static let space: StaticString = "   "

    @inline(__always)
    private static func append(_ bytes: StaticString, to output: inout ByteBuffer) {
        output.append(bytes)
    }

    /// The indentation of the current line, as bytes in a buffer of its own.
    private struct PrefixBuffer {
        var bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
        var capacity = 256
        var count = 0

        mutating func append(_ piece: StaticString) {
            let length = piece.utf8CodeUnitCount
            if count + length > capacity {
                let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: max(capacity * 2, count + length))
                grown.update(from: bytes, count: count)
                bytes.deallocate()
                bytes = grown
                capacity = max(capacity * 2, count + length)
            }
            (bytes + count).update(from: piece.utf8Start, count: length)
            count += length
        }

        func deallocate() {
            bytes.deallocate()
        }
    }

    /// Appends a node's label; text and elements, the nodes of every page, without building
    /// strings. The text of an ``ErrorMessage`` comes as its description (`describedText(at:)`).
    private static func appendLabel(
        of entry: RenderTree.Entry, in tree: RenderTree, names: NameBytes, to output: inout ByteBuffer
    ) {
        switch entry.kind {
        case .text:
            tree.withBytes(of: entry) { appendQuoted($0, to: &output) }
        case .element:
            output.append(UInt8(ascii: "<"))
            names.append(entry.a, to: &output)
            for attribute in tree.attributes(of: entry) {
                output.append(UInt8(ascii: " "))
                appendName(attribute.name, to: &output)
                output.append(UInt8(ascii: "="))
                var value = attribute.value
                value.withUTF8 { appendQuoted($0, to: &output) }
            }
            output.append(UInt8(ascii: ">"))
        case .component:
            names.append(entry.a, to: &output)
        case .fragment, .rawHTML, .suspense, .errorBoundary, .declaration:
            output.append(label(of: tree.kind(of: entry), id: tree.boundaryID(of: entry)))
        }
    }

    /// Appends an element, attribute or component name; names are escaped too, so that a
    /// hand-built tree with an invalid name still shows one node per line and sends no control
    /// to the terminal (valid names have nothing to escape).
    private static func appendName(_ name: String, to output: inout [UInt8]) {
        output.append(contentsOf: displayedName(name).utf8)
    }

    private static func appendName(_ name: String, to output: inout ByteBuffer) {
        output.append(displayedName(name))
    }

    /// A name as it is shown: escaped only when it holds what may be a control.
    private static func displayedName(_ name: String) -> String {
        name.utf8.contains(where: TerminalText.mayStartControl) ? escaped(name) : name
    }

    /// `quoted(text)`, appended as bytes: runs of plain bytes are copied whole, each escape is
    /// written between them, in one pass.
    private static func appendQuoted(_ text: UnsafeBufferPointer<UInt8>, to output: inout ByteBuffer) {
        output.append(UInt8(ascii: "\""))
        var runStart = 0
        var index = 0
        let count = text.count
        while index < count {
            index = TerminalText.firstSpecialByte(in: text, from: index, quotes: true)
            guard index < count else { break }
            let byte = text[index]
            let escape: UInt8
            var length = 1
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): escape = byte
            case UInt8(ascii: "\n"): escape = UInt8(ascii: "n")
            case UInt8(ascii: "\r"): escape = UInt8(ascii: "r")
            case UInt8(ascii: "\t"): escape = UInt8(ascii: "t")
            default:
                // What may start another control (see TerminalText) is rare: non-ASCII text, or
                // `\u{…}` for a control.
                length = TerminalText.controlLength(in: text, at: index)
                guard length > 0 else {
                    index += 1
                    continue
                }
                escape = 0
            }
            output.append(UnsafeBufferPointer(rebasing: text[runStart..<index]))
            if escape == 0 {
                TerminalText.appendEscape(TerminalText.controlValue(in: text, at: index, length: length), to: &output)
            } else {
                output.append(UInt8(ascii: "\\"), escape)
            }
            index += length
            runStart = index
        }
        output.append(UnsafeBufferPointer(rebasing: text[runStart..<count]))
        output.append(UInt8(ascii: "\""))
    }

    /// A node's label; a boundary with a position id shows it after its name, as in
    /// `Suspense #0.1 [resolved]`.
    static func label(of kind: Node.Kind, id: BoundaryID? = nil) -> String {
        let id = id.map { " #" + $0.description } ?? ""
        switch kind {
        case .fragment:
            return "Fragment"
        case .text(let text), .errorMessage(presented: _, description: let text):
            return quoted(text)
        case .rawHTML(let html):
            return "raw " + quoted(html)
        case .element(let tag, let attributes):
            // Names are escaped too, so that a hand-built tree with an invalid name still shows
            // one node per line (valid names have nothing to escape).
            var label = "<" + escaped(tag)
            for attribute in attributes {
                label += " " + escaped(attribute.name) + "=" + quoted(attribute.value)
            }
            return label + ">"
        case .component(let name):
            return escaped(name)
        case .suspense(.resolved):
            return "Suspense" + id + " [resolved]"
        case .suspense(.pending(let queries)):
            // Keys are escaped like text, so that a key cannot start a line of its own.
            return "Suspense" + id + " [pending: " + queries.map { escaped($0) }.joined(separator: ", ") + "]"
        case .suspense(.held(let row, let element)):
            let place = element.map { "row \(row), element \($0)" } ?? "row \(row)"
            return "Suspense" + id + " [held: waits for " + place + "]"
        case .errorBoundary(.clean):
            return "ErrorBoundary" + id
        case .errorBoundary(.caught(let description)):
            return "ErrorBoundary" + id + " [caught: " + escaped(description) + "]"
        case .errorBoundary(.caughtAfterRetries(let description, let attempts)):
            return "ErrorBoundary" + id + " [caught after \(attempts) attempts: " + escaped(description) + "]"
        case .responseDeclaration(.status(let status)):
            return "[http status \(status.code)]"
        case .responseDeclaration(.header(let name, let value)):
            return "[http header " + escaped(name) + ": " + escaped(value) + "]"
        case .responseDeclaration(.redirect(let location, let status)):
            return "[http redirect \(status.code) " + escaped(location) + "]"
        }
    }

    /// A string in double quotes, with quotes, backslashes and controls escaped so that one node
    /// always stays on one line and sends nothing a terminal would act on (see TerminalText).
    static func quoted(_ text: String) -> String {
        "\"" + escaped(text, quote: true) + "\""
    }

    static func escaped(_ text: String, quote: Bool = false) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"" where quote: result += "\\\""
            case "\\" where quote: result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where TerminalText.isControl(scalar.value):
                TerminalText.appendEscape(scalar.value, to: &result)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
