/// Compact HTML of a render tree for a stream: like ``HTMLRenderer``'s compact form, with each
/// boundary's region between two comments that carry its position id (`<!--sk:0.1-->` …
/// `<!--/sk:0.1-->`), so that a later chunk can replace the region; and able to stop at a place
/// (the in-order mode) and to hold back the end of a whole document.
struct StreamMarkup {
    /// Whether boundaries are written between markers.
    var markers: Bool
    /// Whether the closing tags of a root `<html>` element and its `<body>` are held back.
    var holdsDocumentEnd: Bool

    /// What one rendering wrote.
    struct Output {
        var html: [UInt8] = []
        /// Held-back closing tags (`</body></html>`), to be written last.
        var tail: [UInt8] = []
        /// The boundaries written between markers, outermost first.
        var boundaries: [BoundaryID] = []
        /// What closes the elements left open at a stop, innermost first (held tags included).
        var unclosed: [UInt8] = []
    }

    static func startMarker(_ id: BoundaryID) -> String { "<!--sk:\(id)-->" }
    static func endMarker(_ id: BoundaryID) -> String { "<!--/sk:\(id)-->" }

    /// Writes the entries `first..<end` of `tree` (stopping before `stop` if given), closing
    /// whatever is open at `end` but nothing left open at `stop`.
    func render(_ tree: RenderTree, from first: Int, to end: Int, stop: Int? = nil) throws -> Output {
        var output = Output()
        output.html.reserveCapacity(HTMLRenderer.estimatedSize(of: tree))
        var tags = TagTable(count: tree.names.names.count, namesAreChecked: tree.namesAreChecked)
        /// What closes at each open entry's end: a tag, or a boundary's end marker.
        enum Closing {
            case tag(Int32, held: Bool)
            case marker(BoundaryID)
        }
        var open: [(end: Int, closing: Closing)] = []
        /// How many elements are open: a document's `<html>` is at depth 0, its `<body>` at 1.
        var elementDepth = 0
        var documentRoot = false
        func close(_ closing: Closing) {
            switch closing {
            case .tag(let tag, let held):
                elementDepth -= 1
                if held {
                    append(closingTag: tag, of: tree, to: &output.tail)
                } else {
                    append(closingTag: tag, of: tree, to: &output.html)
                }
            case .marker(let id):
                output.html.append(contentsOf: Self.endMarker(id).utf8)
            }
        }
        let entries = tree.entries
        let limit = min(stop ?? end, end)
        // The very start of a document, before any marker (see Doctype); in order, only once the
        // `html` element is written: a boundary before it may still replace it.
        if first == 0, let document = tree.documentElement, document < limit { output.html += Doctype.bytes }
        var index = first
        while index < limit {
            while let top = open.last, top.end <= index {
                open.removeLast()
                close(top.closing)
            }
            let entry = entries[index]
            switch entry.kind {
            case .text:
                tree.withBytes(of: entry) { HTMLEscaping.append($0, to: &output.html, quotes: false) }
            case .rawHTML:
                tree.withBytes(of: entry) { output.html.append(contentsOf: $0) }
            case .element:
                let tag = tree.names[entry.a]
                let info = try tags.info(for: entry.a, in: tree.names.names)
                output.html.append(UInt8(ascii: "<"))
                output.html.append(contentsOf: tag.utf8)
                if entry.b >= 0 {
                    for attribute in tree.attributeLists[Int(entry.b)] {
                        if !tree.namesAreChecked { try HTMLNames.checkAttribute(attribute.name, tag: tag) }
                        output.html.append(UInt8(ascii: " "))
                        output.html.append(contentsOf: attribute.name.utf8)
                        output.html.append(contentsOf: "=\"".utf8)
                        HTMLEscaping.appendAttribute(attribute.value, to: &output.html)
                        output.html.append(UInt8(ascii: "\""))
                    }
                }
                output.html.append(UInt8(ascii: ">"))
                let entryEnd = Int(entry.end)
                if info.isVoid {
                    guard entryEnd == index + 1 else {
                        throw voidElementError(tag, at: index, end: entryEnd, in: entries)
                    }
                } else {
                    // Tag names in any letter case, as HTML reads them (`HTML`, `Body`).
                    if elementDepth == 0 { documentRoot = holdsDocumentEnd && HTMLNames.sameName(tag, "html") }
                    let held =
                        documentRoot && (elementDepth == 0 || (elementDepth == 1 && HTMLNames.sameName(tag, "body")))
                    elementDepth += 1
                    open.append((entryEnd, .tag(entry.a, held: held)))
                }
            case .suspense, .errorBoundary:
                if markers, let id = tree.boundaryID(of: entry) {
                    output.html.append(contentsOf: Self.startMarker(id).utf8)
                    output.boundaries.append(id)
                    open.append((Int(entry.end), .marker(id)))
                }
            case .fragment, .component:
                break
            }
            index += 1
        }
        while let top = open.last, top.end <= limit || limit == end {
            open.removeLast()
            close(top.closing)
        }
        if limit < end {
            for top in open.reversed() {
                switch top.closing {
                case .tag(let tag, _): append(closingTag: tag, of: tree, to: &output.unclosed)
                case .marker(let id): output.unclosed.append(contentsOf: Self.endMarker(id).utf8)
                }
            }
        }
        return output
    }

    private func append(closingTag tag: Int32, of tree: RenderTree, to buffer: inout [UInt8]) {
        buffer.append(contentsOf: "</".utf8)
        buffer.append(contentsOf: tree.names[tag].utf8)
        buffer.append(UInt8(ascii: ">"))
    }

    /// Where the in-order mode stops writing: at the first pending Suspense in document order, or
    /// before it at the outermost ErrorBoundary around it (which may still replace its whole
    /// region with its fallback). Nil when nothing is pending.
    static func firstUnsettled(in tree: RenderTree) -> Int? {
        let entries = tree.entries
        guard
            let pending = entries.indices.first(where: {
                entries[$0].kind == .suspense && tree.suspenseStates[Int(entries[$0].a)] != .resolved
            })
        else { return nil }
        return entries.indices.prefix(pending).first(where: {
            entries[$0].kind == .errorBoundary && Int(entries[$0].end) > pending
        }) ?? pending
    }
}
