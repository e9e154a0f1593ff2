/// Renders the `.plain` format: the visible text, for a terminal.
///
/// - Block elements (`p`, `div`, `li`, `h1`…) start a line and end it; one that holds blocks
///   itself (a card of a title and a summary, a list) is set off by a blank line, so that a list
///   of cards does not run together. A list nested in a list item stays tight.
/// - Each `li` is marked `- `, indented two spaces per enclosing list item, and so are the
///   further lines inside it.
/// - `br` ends the line; `script`, `style`, `template`, `head` and `title` show nothing.
/// - Tag names count in any letter case.
/// - ``RawHTML`` shows its visible text: read as a browser would (see HTMLTextReader), its
///   elements follow the rules above, its character references are decoded, its whitespace
///   collapses outside `pre` and `textarea`.
/// - Controls are written as escapes (see ``TerminalText``): nothing in the output acts on a
///   terminal.
enum PlainRenderer {
    static func render(_ tree: RenderTree) -> ByteBuffer {
        // The text, and room for a line end and a list marker (`- `) for every two entries (an
        // item and its text): a list then fills its buffer without growing it.
        var writer = PlainWriter(capacity: tree.bytes.count + tree.entries.count * 2 + 64)
        write(tree, isMarkup: false, to: &writer)
        return writer.output
    }

    /// What closes at the end of an open element.
    private struct Closing {
        var end: Int
        var breakLevel: Int
        var isListItem: Bool
        var keepsWhitespace: Bool
    }

    /// Writes `tree`: a resolved tree, or (when `isMarkup`) the tree HTMLTextReader read out of
    /// markup, whose text collapses its whitespace. One loop over the entries; each tag name is
    /// classified once per tree, not looked up per element.
    static func write(_ tree: RenderTree, isMarkup: Bool, to writer: inout PlainWriter) {
        let traits = tree.names.names.map { TagTraits(tag: $0) }
        // The open elements that close something, innermost last.
        var open = PointerStack<Closing>(capacity: 16)
        // How many open elements of markup keep their whitespace (`pre`, `textarea`).
        var keeping = 0
        tree.bytes.withUnsafeBufferPointer { bytes in
            tree.entries.withUnsafeBufferPointer { entries in
                traits.withUnsafeBufferPointer { traits in
                    var index = 0
                    while index < entries.count {
                        while !open.isEmpty, open.top.end <= index {
                            let top = open.pop()
                            if top.isListItem { writer.closeListItem() }
                            if top.keepsWhitespace { keeping -= 1 }
                            writer.requestBreak(top.breakLevel)
                        }
                        let entry = entries[index]
                        switch entry.kind {
                        case .text:
                            // An ErrorMessage shows its description here, not what HTML shows.
                            let entry = tree.describedText(at: index)
                            let text = UnsafeBufferPointer(
                                start: bytes.baseAddress.map { $0 + Int(entry.a) }, count: Int(entry.b))
                            if isMarkup && keeping == 0 {
                                writer.writeHTMLText(text)
                            } else {
                                writer.writeText(text)
                            }
                        case .rawHTML:
                            // Markup in markup cannot happen: HTMLTextReader makes only elements and text.
                            write(HTMLTextReader.read(tree.string(of: entry)), isMarkup: true, to: &writer)
                        case .element:
                            let tag = traits[Int(entry.a)]
                            if tag.contains(.hidden) {
                                index = Int(entry.end)
                                continue
                            }
                            if tag.contains(.lineBreak) {
                                writer.lineBreak()
                                index = Int(entry.end)  // its children, if any, show nothing
                                continue
                            }
                            let keeps = isMarkup && tag.contains(.keepsWhitespace)
                            if tag.contains(.block) {
                                let level =
                                    isLoose(
                                        entries, at: index, traits: traits, tag: tag, indentation: writer.indentation)
                                    ? 2 : 1
                                writer.requestBreak(level)
                                if tag.contains(.listItem) { writer.openListItem() }
                                open.push(
                                    Closing(
                                        end: Int(entry.end), breakLevel: level, isListItem: tag.contains(.listItem),
                                        keepsWhitespace: keeps))
                            } else if keeps {
                                open.push(
                                    Closing(
                                        end: Int(entry.end), breakLevel: 0, isListItem: false, keepsWhitespace: true))
                            }
                            if keeps { keeping += 1 }
                        case .fragment, .component, .suspense, .errorBoundary, .declaration:
                            break
                        }
                        index += 1
                    }
                }
            }
        }
        while !open.isEmpty {
            let top = open.pop()
            if top.isListItem { writer.closeListItem() }
            writer.requestBreak(top.breakLevel)
        }
    }

    /// Whether the block element at `index` is set off by blank lines: whether it holds a block
    /// element, looking through components and boundaries. A list item's lists do not count, and
    /// a list inside a list item is never loose: nested lists stay tight.
    private static func isLoose(
        _ entries: UnsafeBufferPointer<RenderTree.Entry>,
        at index: Int,
        traits: UnsafeBufferPointer<TagTraits>,
        tag: TagTraits,
        indentation: Int
    ) -> Bool {
        if tag.contains(.list) && indentation > 0 { return false }
        let isListItem = tag.contains(.listItem)
        let end = Int(entries[index].end)
        var child = index + 1
        while child < end {
            let entry = entries[child]
            if entry.kind == .element {
                let childTag = traits[Int(entry.a)]
                if childTag.contains(.block) && !(isListItem && childTag.contains(.list)) { return true }
                child = Int(entry.end)
            } else {
                child += 1
            }
        }
        return false
    }
}
