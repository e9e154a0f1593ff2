/// Renders the `.tree` format: one node per line, box-drawing indentation.
enum TreeRenderer {
    static func render(_ root: Node) -> String {
        // Bytes into one buffer, one shared prefix that grows and shrinks with the depth, children
        // walked by index: see HTMLRenderer.
        var output: [UInt8] = []
        output.reserveCapacity(4096)
        var prefix: [UInt8] = []
        struct Frame {
            let children: [Node]
            var index = 0
            /// The length of the prefix of these children's lines.
            let prefixLength: Int
        }
        let top = root.kind == .fragment ? root.children : [root]
        var stack: [Frame] = []
        for (position, node) in top.enumerated() {
            if position > 0 { output.append(UInt8(ascii: "\n")) }
            appendLabel(of: node, to: &output)
            stack.append(Frame(children: node.children, prefixLength: 0))
            prefix.removeAll(keepingCapacity: true)
            while !stack.isEmpty {
                let last = stack.count - 1
                let index = stack[last].index
                let children = stack[last].children
                if index == children.count {
                    stack.removeLast()
                    continue
                }
                stack[last].index = index + 1
                let child = children[index]
                let isLast = index == children.count - 1
                let prefixLength = stack[last].prefixLength
                output.append(UInt8(ascii: "\n"))
                output.append(contentsOf: prefix[..<prefixLength])
                output.append(contentsOf: isLast ? lastBranch : branch)
                appendLabel(of: child, to: &output)
                if !child.children.isEmpty {
                    prefix.removeSubrange(prefixLength...)
                    prefix.append(contentsOf: isLast ? space : bar)
                    stack.append(Frame(children: child.children, prefixLength: prefix.count))
                }
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static let branch = Array("├─ ".utf8)
    private static let lastBranch = Array("└─ ".utf8)
    private static let bar = Array("│  ".utf8)
    private static let space = Array("   ".utf8)

    /// Appends a node's label; text and elements, the nodes of every page, without building
    /// strings.
    private static func appendLabel(of node: Node, to output: inout [UInt8]) {
        switch node.kind {
        case .text(let text):
            appendQuoted(text, to: &output)
        case .element(let tag, let attributes):
            output.append(UInt8(ascii: "<"))
            output.append(contentsOf: tag.utf8)
            for attribute in attributes {
                output.append(UInt8(ascii: " "))
                output.append(contentsOf: attribute.name.utf8)
                output.append(UInt8(ascii: "="))
                appendQuoted(attribute.value, to: &output)
            }
            output.append(UInt8(ascii: ">"))
        case .component(let name):
            output.append(contentsOf: name.utf8)
        default:
            output.append(contentsOf: label(of: node).utf8)
        }
    }

    /// `quoted(text)`, appended as bytes: every character it escapes is ASCII.
    private static func appendQuoted(_ text: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""):
                output.append(UInt8(ascii: "\\"))
                output.append(byte)
            case UInt8(ascii: "\\"):
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
            case 0..<0x20, 0x7F:
                output.append(contentsOf: ("\\u{" + String(byte, radix: 16) + "}").utf8)
            default:
                output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    static func label(of node: Node) -> String {
        switch node.kind {
        case .fragment:
            return "Fragment"
        case .text(let text):
            return quoted(text)
        case .rawHTML(let html):
            return "raw " + quoted(html)
        case .element(let tag, let attributes):
            var label = "<" + tag
            for attribute in attributes {
                label += " " + attribute.name + "=" + quoted(attribute.value)
            }
            return label + ">"
        case .component(let name):
            return name
        case .suspense(.resolved):
            return "Suspense [resolved]"
        case .suspense(.pending(let queries)):
            return "Suspense [pending: " + queries.joined(separator: ", ") + "]"
        case .errorBoundary(.clean):
            return "ErrorBoundary"
        case .errorBoundary(.caught(let description)):
            return "ErrorBoundary [caught: " + escaped(description) + "]"
        }
    }

    /// A string in double quotes, with quotes, backslashes and control characters escaped so
    /// that one node always stays on one line.
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
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                result += "\\u{" + String(scalar.value, radix: 16) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
