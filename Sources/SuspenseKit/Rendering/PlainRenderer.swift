/// Renders the `.plain` format: the visible text, block elements on their own lines.
enum PlainRenderer {
    static let blockTags: Set<String> = [
        "address", "article", "aside", "blockquote", "body", "dd", "details", "dialog", "div", "dl",
        "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5",
        "h6", "header", "hgroup", "hr", "html", "li", "main", "nav", "ol", "p", "pre", "section",
        "summary", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul",
    ]

    static func render(_ root: Node) -> String {
        var output = ""
        var lineIsEmpty = true
        var needsBreak = false
        func write(_ text: String) {
            guard !text.isEmpty else { return }
            if needsBreak, !lineIsEmpty {
                output += "\n"
                lineIsEmpty = true
            }
            needsBreak = false
            output += text
            lineIsEmpty = text.last == "\n"
        }
        enum Step { case enter(Node), leaveBlock }
        var stack: [Step] = [.enter(root)]
        while let step = stack.popLast() {
            switch step {
            case .leaveBlock:
                needsBreak = true
            case .enter(let node):
                switch node.kind {
                case .text(let text):
                    write(text)
                case .rawHTML(let html):
                    write(strippingTags(html))
                case .element(let tag, _):
                    if tag == "br" {
                        output += "\n"
                        lineIsEmpty = true
                        needsBreak = false
                        continue
                    }
                    let isBlock = blockTags.contains(tag)
                    if isBlock {
                        needsBreak = true
                        stack.append(.leaveBlock)
                    }
                    for child in node.children.reversed() { stack.append(.enter(child)) }
                case .fragment, .component, .suspense, .errorBoundary:
                    for child in node.children.reversed() { stack.append(.enter(child)) }
                }
            }
        }
        return output
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
