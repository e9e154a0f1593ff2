/// Renders the `.plain` format: the visible text, block elements on their own lines.
enum PlainRenderer {
    static let blockTags: Set<String> = [
        "address", "article", "aside", "blockquote", "body", "dd", "details", "dialog", "div", "dl",
        "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5",
        "h6", "header", "hgroup", "hr", "html", "li", "main", "nav", "ol", "p", "pre", "section",
        "summary", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul",
    ]

    /// What a tag does to the lines of `.plain`.
    private enum TagRole: UInt8 {
        case inline, block, lineBreak
    }

    /// The output and where the line stands; a struct with mutating methods, not closures over
    /// local variables, so that the compiler checks exclusive access statically.
    private struct Writer {
        var output: [UInt8] = []
        var lineIsEmpty = true
        var needsBreak = false

        mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) {
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
    }

    static func render(_ tree: RenderTree) -> [UInt8] {
        // One loop over the tree's entries, bytes into one buffer: see HTMLRenderer. Each tag
        // name is classified once per render, not looked up per element.
        var writer = Writer()
        writer.output.reserveCapacity(tree.bytes.count + 64)
        let roles: [TagRole] = tree.names.names.map { name in
            name == "br" ? .lineBreak : blockTags.contains(name) ? .block : .inline
        }
        // Where each open block element's subtree ends.
        var blockEnds: [Int] = []
        tree.bytes.withUnsafeBufferPointer { bytes in
            tree.entries.withUnsafeBufferPointer { entries in
                var index = 0
                while index < entries.count {
                    while let end = blockEnds.last, end <= index {
                        blockEnds.removeLast()
                        writer.needsBreak = true
                    }
                    let entry = entries[index]
                    switch entry.kind {
                    case .text:
                        writer.write(UnsafeBufferPointer(rebasing: bytes[Int(entry.a)..<Int(entry.a) + Int(entry.b)]))
                    case .rawHTML:
                        var text = strippingTags(tree.string(of: entry))
                        text.withUTF8 { writer.write($0) }
                    case .element:
                        switch roles[Int(entry.a)] {
                        case .lineBreak:
                            writer.output.append(UInt8(ascii: "\n"))
                            writer.lineIsEmpty = true
                            writer.needsBreak = false
                            index = Int(entry.end)  // its children, if any, show nothing
                            continue
                        case .block:
                            writer.needsBreak = true
                            blockEnds.append(Int(entry.end))
                        case .inline:
                            break
                        }
                    case .fragment, .component, .suspense, .errorBoundary:
                        break
                    }
                    index += 1
                }
            }
        }
        return writer.output
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
