/// Renders the `.plain` format: the visible text, block elements on their own lines.
enum PlainRenderer {
    static let blockTags: Set<String> = [
        "address", "article", "aside", "blockquote", "body", "dd", "details", "dialog", "div", "dl",
        "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5",
        "h6", "header", "hgroup", "hr", "html", "li", "main", "nav", "ol", "p", "pre", "section",
        "summary", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul",
    ]

    static func render(_ tree: RenderTree) -> [UInt8] {
        // One loop over the tree's entries, bytes into one buffer: see HTMLRenderer.
        var output: [UInt8] = []
        output.reserveCapacity(tree.bytes.count + 64)
        var lineIsEmpty = true
        var needsBreak = false
        func write(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard let last = bytes.last else { return }
            if needsBreak, !lineIsEmpty {
                output.append(UInt8(ascii: "\n"))
                lineIsEmpty = true
            }
            needsBreak = false
            output.append(contentsOf: bytes)
            // The last Character is "\n" (and not "\r\n", one Character) exactly when:
            lineIsEmpty =
                last == UInt8(ascii: "\n") && (bytes.count == 1 || bytes[bytes.count - 2] != UInt8(ascii: "\r"))
        }
        // Where each open block element's subtree ends.
        var blockEnds: [Int] = []
        let entries = tree.entries
        var index = 0
        while index < entries.count {
            while let end = blockEnds.last, end <= index {
                blockEnds.removeLast()
                needsBreak = true
            }
            let entry = entries[index]
            switch entry.kind {
            case .text:
                tree.withBytes(of: entry, write)
            case .rawHTML:
                var text = strippingTags(tree.string(of: entry))
                text.withUTF8(write)
            case .element:
                let tag = tree.names[entry.a]
                if tag == "br" {
                    output.append(UInt8(ascii: "\n"))
                    lineIsEmpty = true
                    needsBreak = false
                    index = Int(entry.end)  // its children, if any, show nothing
                    continue
                }
                if blockTags.contains(tag) {
                    needsBreak = true
                    blockEnds.append(Int(entry.end))
                }
            case .fragment, .component, .suspense, .errorBoundary:
                break
            }
            index += 1
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
