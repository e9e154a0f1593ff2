/// Renders the `.tree` format: one node per line, box-drawing indentation.
enum TreeRenderer {
    static func render(_ tree: RenderTree) -> [UInt8] {
        // One loop over the tree's entries, bytes into one buffer, one shared prefix that grows and
        // shrinks with the depth: see HTMLRenderer.
        var output: [UInt8] = []
        // Room for the text (and its escapes) and, per line, a newline, a branch ("├─ " is 7
        // bytes) and a few levels of prefix: growing a large buffer costs more than reserving
        // address space that stays untouched.
        output.reserveCapacity(tree.bytes.count + tree.bytes.count / 4 + tree.entries.count * 28 + 64)
        var prefix: [UInt8] = []
        let entries = tree.entries
        guard !entries.isEmpty else { return [] }
        // The top-level nodes: the root's children when it is the fragment of a resolved tree.
        var top = entries[0].kind == .fragment ? 1 : 0
        let topEnd = entries[0].kind == .fragment ? Int(entries[0].end) : 1
        // Open ancestors: where each one's subtree ends, and the length of its children's prefix.
        var open: [(end: Int, prefixLength: Int)] = []
        var isFirstLine = true
        while top < topEnd {
            if !isFirstLine { output.append(UInt8(ascii: "\n")) }
            isFirstLine = false
            appendLabel(of: entries[top], in: tree, to: &output)
            let end = Int(entries[top].end)
            open.removeAll(keepingCapacity: true)
            open.append((end, 0))
            prefix.removeAll(keepingCapacity: true)
            var index = top + 1
            while index < end {
                while let last = open.last, last.end <= index { open.removeLast() }
                let parent = open[open.count - 1]
                let entry = entries[index]
                let isLast = Int(entry.end) == parent.end
                output.append(UInt8(ascii: "\n"))
                output.append(contentsOf: prefix[..<parent.prefixLength])
                output.append(contentsOf: isLast ? lastBranch : branch)
                appendLabel(of: entry, in: tree, to: &output)
                if Int(entry.end) > index + 1 {
                    prefix.removeSubrange(parent.prefixLength...)
                    prefix.append(contentsOf: isLast ? space : bar)
                    open.append((Int(entry.end), prefix.count))
                }
                index += 1
            }
            top = end
        }
        return output
    }

    private static let branch = Array("├─ ".utf8)
    private static let lastBranch = Array("└─ ".utf8)
    private static let bar = Array("│  ".utf8)
    private static let space = Array("   ".utf8)

    /// Appends a node's label; text and elements, the nodes of every page, without building
    /// strings.
    private static func appendLabel(of entry: RenderTree.Entry, in tree: RenderTree, to output: inout [UInt8]) {
        switch entry.kind {
        case .text:
            tree.withBytes(of: entry) { appendQuoted($0, to: &output) }
        case .element:
            output.append(UInt8(ascii: "<"))
            appendName(tree.names[entry.a], to: &output)
            for attribute in tree.attributes(of: entry) {
                output.append(UInt8(ascii: " "))
                appendName(attribute.name, to: &output)
                output.append(UInt8(ascii: "="))
                var value = attribute.value
                value.withUTF8 { appendQuoted($0, to: &output) }
            }
            output.append(UInt8(ascii: ">"))
        case .component:
            appendName(tree.names[entry.a], to: &output)
        case .fragment, .rawHTML, .suspense, .errorBoundary:
            output.append(contentsOf: label(of: tree.kind(of: entry), id: tree.boundaryID(of: entry)).utf8)
        }
    }

    /// Appends an element, attribute or component name; names are escaped too, so that a
    /// hand-built tree with an invalid name still shows one node per line and sends no control
    /// to the terminal (valid names have nothing to escape).
    private static func appendName(_ name: String, to output: inout [UInt8]) {
        if name.utf8.contains(where: TerminalText.mayStartControl) {
            output.append(contentsOf: escaped(name).utf8)
        } else {
            output.append(contentsOf: name.utf8)
        }
    }

    /// `quoted(text)`, appended as bytes.
    private static func appendQuoted(_ text: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        // Common text: count what escaping adds (a backslash before `"`, `\\`, newline, return,
        // tab), grow the buffer once and write through a pointer. Other controls (see
        // TerminalText), rare, take the byte-by-byte path below.
        var extra = 0
        var isCommon = true
        for index in text.indices {
            let byte = text[index]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                extra &+= 1
            } else if TerminalText.mayStartControl(byte) {
                switch byte {
                case UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                    extra &+= 1
                default:
                    if TerminalText.controlLength(in: text, at: index) > 0 { isCommon = false }
                }
            }
        }
        if isCommon {
            if extra == 0 {
                output.append(contentsOf: text)
            } else {
                let start = output.count
                output.append(contentsOf: repeatElement(0, count: text.count + extra))
                output.withUnsafeMutableBufferPointer { buffer in
                    var position = buffer.baseAddress! + start
                    for byte in text {
                        switch byte {
                        case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                            position[0] = UInt8(ascii: "\\")
                            position[1] = byte
                            position += 2
                        case UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                            position[0] = UInt8(ascii: "\\")
                            position[1] =
                                byte == UInt8(ascii: "\n")
                                ? UInt8(ascii: "n") : byte == UInt8(ascii: "\r") ? UInt8(ascii: "r") : UInt8(ascii: "t")
                            position += 2
                        default:
                            position.pointee = byte
                            position += 1
                        }
                    }
                }
            }
            output.append(UInt8(ascii: "\""))
            return
        }
        var index = 0
        while index < text.count {
            let byte = text[index]
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                output.append(UInt8(ascii: "\\"))
                output.append(byte)
            case UInt8(ascii: "\n"):
                output.append(UInt8(ascii: "\\"))
                output.append(UInt8(ascii: "n"))
            case UInt8(ascii: "\r"):
                output.append(UInt8(ascii: "\\"))
                output.append(UInt8(ascii: "r"))
            case UInt8(ascii: "\t"):
                output.append(UInt8(ascii: "\\"))
                output.append(UInt8(ascii: "t"))
            default:
                let length = TerminalText.mayStartControl(byte) ? TerminalText.controlLength(in: text, at: index) : 0
                if length > 0 {
                    TerminalText.appendEscape(
                        TerminalText.controlValue(in: text, at: index, length: length), to: &output)
                    index += length
                    continue
                }
                output.append(byte)
            }
            index += 1
        }
        output.append(UInt8(ascii: "\""))
    }

    /// A node's label; a boundary with a position id shows it after its name, as in
    /// `Suspense #0.1 [resolved]`.
    static func label(of kind: Node.Kind, id: BoundaryID? = nil) -> String {
        let id = id.map { " #" + $0.description } ?? ""
        switch kind {
        case .fragment:
            return "Fragment"
        case .text(let text):
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
        case .errorBoundary(.clean):
            return "ErrorBoundary" + id
        case .errorBoundary(.caught(let description)):
            return "ErrorBoundary" + id + " [caught: " + escaped(description) + "]"
        case .errorBoundary(.caughtAfterRetries(let description, let attempts)):
            return "ErrorBoundary" + id + " [caught after \(attempts) attempts: " + escaped(description) + "]"
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
