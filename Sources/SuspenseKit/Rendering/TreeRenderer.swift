/// Renders the `.tree` format: one node per line, box-drawing indentation.
enum TreeRenderer {
    static func render(_ root: Node) -> String {
        var lines: [String] = []
        // Each entry: the node, the prefix of its own line, the prefix of its children's lines.
        var stack: [(node: Node, linePrefix: String, childPrefix: String)] = []
        let top = root.kind == .fragment ? root.children : [root]
        for node in top.reversed() {
            stack.append((node, "", ""))
        }
        while let (node, linePrefix, childPrefix) = stack.popLast() {
            lines.append(linePrefix + label(of: node))
            let count = node.children.count
            for (index, child) in node.children.enumerated().reversed() {
                let isLast = index == count - 1
                stack.append((child, childPrefix + (isLast ? "└─ " : "├─ "), childPrefix + (isLast ? "   " : "│  ")))
            }
        }
        return lines.joined(separator: "\n")
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
            // Names are escaped too, so that a hand-built tree with an invalid name still shows
            // one node per line (valid names have nothing to escape).
            var label = "<" + escaped(tag)
            for attribute in attributes {
                label += " " + escaped(attribute.name) + "=" + quoted(attribute.value)
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
