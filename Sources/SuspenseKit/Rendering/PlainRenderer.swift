/// Renders the `.plain` format: the visible text, block elements on their own lines.
enum PlainRenderer {
    static let blockTags: Set<String> = [
        "address", "article", "aside", "blockquote", "body", "dd", "details", "dialog", "div", "dl",
        "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5",
        "h6", "header", "hgroup", "hr", "html", "li", "main", "nav", "ol", "p", "pre", "section",
        "summary", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul",
    ]

    static func render(_ root: Node) -> String {
        // Bytes into one buffer, children walked by index: see HTMLRenderer.
        var output: [UInt8] = []
        output.reserveCapacity(4096)
        var lineIsEmpty = true
        var needsBreak = false
        func write(_ text: String) {
            var text = text
            text.withUTF8 { bytes in
                guard let last = bytes.last else { return }
                if needsBreak, !lineIsEmpty {
                    output.append(UInt8(ascii: "\n"))
                    lineIsEmpty = true
                }
                needsBreak = false
                output.append(contentsOf: bytes)
                // The last Character is "\n" (and not "\r\n", one Character) exactly when:
                lineIsEmpty = last == UInt8(ascii: "\n") && (bytes.count == 1 || bytes[bytes.count - 2] != UInt8(ascii: "\r"))
            }
        }
        struct Frame {
            let children: [Node]
            var index = 0
            let isBlock: Bool
        }
        var stack: [Frame] = [Frame(children: [root], isBlock: false)]
        while !stack.isEmpty {
            let top = stack.count - 1
            let index = stack[top].index
            if index == stack[top].children.count {
                if stack.removeLast().isBlock { needsBreak = true }
                continue
            }
            stack[top].index = index + 1
            let node = stack[top].children[index]
            switch node.kind {
            case .text(let text):
                write(text)
            case .rawHTML(let html):
                write(strippingTags(html))
            case .element(let tag, _):
                if tag == "br" {
                    output.append(UInt8(ascii: "\n"))
                    lineIsEmpty = true
                    needsBreak = false
                    continue
                }
                let isBlock = blockTags.contains(tag)
                if isBlock { needsBreak = true }
                stack.append(Frame(children: node.children, isBlock: isBlock))
            case .fragment, .component, .suspense, .errorBoundary:
                stack.append(Frame(children: node.children, isBlock: false))
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    static func strippingTags(_ html: String) -> String {
        var result = ""
        var inTag = false
        for character in html {
            switch character {
            case "<": inTag = true
            case ">" where inTag: inTag = false
            default: if !inTag { result.append(character) }
            }
        }
        return result
    }
}
