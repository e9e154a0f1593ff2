/// Compact HTML of a render tree for a stream: like ``HTMLRenderer``'s compact form, with each
/// boundary's region between two markers that carry its position id (`<!--sk:0.1-->` …
/// `<!--/sk:0.1-->`, or `<?start name="0.1">` … `<?end>` for declarative swaps), so that a later
/// chunk can replace the region; and able to stop at a place (the in-order mode) and to hold
/// back the end of a whole document.
///
/// Inside an element where a marker cannot stand (``TagTraits/unmarkable``: `title`,
/// `textarea`, `script`, a table, …), boundaries are not marked: the outermost such element is
/// *held*, marked as a whole under the key `h` + its first boundary's id, and the output tells
/// where each boundary's bytes lie in it, so that the stream can write the element again when
/// one of them changes.
struct StreamMarkup {
    /// Whether boundaries are written between markers.
    var markers: Bool
    /// Whether the closing tags of a root `<html>` element and its `<body>` are held back.
    var holdsDocumentEnd: Bool
    /// The markers' syntax.
    var swap: StreamOptions.Swap = .script

    /// A boundary a rendering wrote, marked or inside a held element.
    struct Boundary {
        let id: BoundaryID
        /// The index in ``Output/boundaries`` of the nearest boundary around this one in the
        /// same rendering, or nil.
        let parent: Int?
        /// A Suspense showing its fallback.
        let pending: Bool
        /// Inside a held element: its index in ``Output/held`` (nil when the whole rendering is
        /// held content), and where the boundary's bytes lie in that element's bytes.
        var held: (element: Int?, range: Range<Int>)?
    }

    /// An element written whole between markers of its own, for the boundaries inside it.
    struct HeldElement {
        let key: String
        /// The element's bytes, from its start tag to its end tag.
        let bytes: [UInt8]
    }

    /// What one rendering wrote.
    struct Output {
        var html: [UInt8] = []
        /// Held-back closing tags (`</body></html>`), to be written last.
        var tail: [UInt8] = []
        /// The boundaries written, in document order (outermost first).
        var boundaries: [Boundary] = []
        /// The held elements written, in document order.
        var held: [HeldElement] = []
        /// What closes the elements left open at a stop, innermost first (held tags included).
        var unclosed: [UInt8] = []
    }

    static func startMarker(_ id: BoundaryID) -> String { "<!--sk:\(id)-->" }
    static func endMarker(_ id: BoundaryID) -> String { "<!--/sk:\(id)-->" }

    /// The marker that opens the region named `key`.
    func start(_ key: String) -> [UInt8] {
        switch swap {
        case .script: return Array("<!--sk:\(key)-->".utf8)
        case .declarative, .declarativeWithScript: return Array("<?start name=\"\(key)\">".utf8)
        }
    }

    /// The marker that closes the region named `key`.
    func end(_ key: String) -> [UInt8] {
        switch swap {
        case .script: return Array("<!--/sk:\(key)-->".utf8)
        case .declarative, .declarativeWithScript: return Array("<?end>".utf8)
        }
    }

    /// Whether the entries of `tree` after the first hold nothing a stream marks or holds back:
    /// no boundary and no `html` element (in any letter case). Then a region's content is
    /// exactly the compact form of `tree` (whose first entry, the boundary, writes nothing).
    static func isUnmarked(_ tree: RenderTree) -> Bool {
        if tree.names.names.contains(where: { HTMLNames.sameName($0, "html") }) { return false }
        let entries = tree.entries
        var index = 1
        while index < entries.count {
            switch entries[index].kind {
            case .suspense, .errorBoundary: return false
            case .text, .rawHTML, .element, .fragment, .component, .declaration: index += 1
            }
        }
        return true
    }

    /// Whether a Suspense entry shows its fallback.
    static func isPending(_ entry: RenderTree.Entry, in tree: RenderTree) -> Bool {
        entry.kind == .suspense && tree.suspenseStates[Int(entry.a)] != .resolved
    }

    /// Writes the entries `first..<end` of `tree` (stopping before `stop` if given), closing
    /// whatever is open at `end` but nothing left open at `stop`. `heldContent`: the entries are the
    /// content of a held element, whose boundaries are recorded but not marked. `prefix`: bytes
    /// the HTML begins with (not with held content, whose offsets count from its start).
    func render(
        _ tree: RenderTree, from first: Int, to end: Int, stop: Int? = nil, heldContent: Bool = false,
        prefix: [UInt8] = []
    ) throws -> Output {
        var walk = Walk(
            markup: self, heldContent: heldContent, names: markers && !heldContent ? tree.names.names.count : 0)
        walk.output.html = prefix
        walk.output.html.reserveCapacity(prefix.count + HTMLRenderer.estimatedSize(of: tree) + 64)
        var writer = HTMLWriter(tree)
        let limit = min(stop ?? end, end)
        // The very start of a document, before any marker (see Doctype); in order, only once the
        // `html` element is written: a boundary before it may still replace it.
        if first == 0, let document = tree.documentElement, document < limit { walk.output.html += Doctype.bytes }
        var open: [(index: Int, closing: Walk.Closing)] = []
        try writer.walk(from: first, to: limit, open: &open, &walk)
        writer.close(upTo: limit == end ? Int.max : limit, open: &open, &walk)
        if limit < end {
            for top in open.reversed() {
                switch top.closing {
                case .tag(let tag, _): writer.writeEndTag(tag, to: &walk.output.unclosed)
                case .marker(let id): walk.output.unclosed += self.end(id.description)
                case .heldBoundary: break
                case .heldElement(let tag, _, _): writer.writeEndTag(tag, to: &walk.output.unclosed)
                }
            }
        }
        return walk.output
    }

    /// What the stream adds to the walk: markers around boundaries, held elements, the held
    /// document end.
    private struct Walk: HTMLWalk {
        /// What closes at each open entry's end: a tag, or a boundary's end marker.
        enum Closing {
            case tag(Int32, held: Bool)
            case marker(BoundaryID)
            /// The end of a boundary inside a held element: its index in `output.boundaries`.
            case heldBoundary(Int)
            /// The end of the held element that starts at this byte offset.
            case heldElement(Int32, start: Int, firstBoundary: Int)
        }

        let markup: StreamMarkup
        var output = Output()
        var document: DocumentEnd
        /// Whether the entries written now are inside a held element (or held content).
        var inHeld: Bool
        /// The boundaries around the entry written now, innermost last (indices in
        /// `output.boundaries`).
        var around: [Int] = []
        /// Whether each name cannot hold markers, once known (empty: nothing is held).
        var unmarkable: [Bool?]
        /// Where the element being opened starts in `output.html`.
        var elementStart = 0

        init(markup: StreamMarkup, heldContent: Bool, names: Int) {
            self.markup = markup
            document = DocumentEnd(holds: markup.holdsDocumentEnd)
            inHeld = heldContent
            unmarkable = [Bool?](repeating: nil, count: names)
        }

        mutating func append(_ byte: UInt8) { output.html.append(byte) }
        mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) { output.html.append(contentsOf: bytes) }
        mutating func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, quotes: Bool) {
            HTMLEscaping.append(bytes, to: &output.html, quotes: quotes)
        }

        mutating func willOpen(element index: Int, info: TagTable.Info, depth: Int, writer: HTMLWriter) {
            elementStart = output.html.count
        }

        mutating func opened(element index: Int, info: TagTable.Info, depth: Int, writer: HTMLWriter) -> Closing {
            let tag = writer.tree.entries[index].a
            let held = document.open(writer.tree.names[tag])
            if !inHeld && !unmarkable.isEmpty && isUnmarkable(tag, writer.tree) {
                inHeld = true
                return .heldElement(tag, start: elementStart, firstBoundary: output.boundaries.count)
            }
            return .tag(tag, held: held)
        }

        mutating func entered(_ index: Int, writer: HTMLWriter) -> Closing? {
            let entry = writer.tree.entries[index]
            guard entry.kind == .suspense || entry.kind == .errorBoundary, markup.markers,
                let id = writer.tree.boundaryID(of: entry)
            else { return nil }
            let boundaryIndex = output.boundaries.count
            var boundary = Boundary(
                id: id, parent: around.last, pending: StreamMarkup.isPending(entry, in: writer.tree))
            let closing: Closing
            if inHeld {
                boundary.held = (nil, output.html.count..<output.html.count)
                closing = .heldBoundary(boundaryIndex)
            } else {
                output.html += markup.start(id.description)
                closing = .marker(id)
            }
            output.boundaries.append(boundary)
            around.append(boundaryIndex)
            return closing
        }

        mutating func close(_ closing: Closing, writer: HTMLWriter) {
            switch closing {
            case .tag(let tag, let held):
                document.close()
                if held {
                    writer.writeEndTag(tag, to: &output.tail)
                } else {
                    writer.writeEndTag(tag, to: &output.html)
                }
            case .marker(let id):
                around.removeLast()
                output.html += markup.end(id.description)
            case .heldBoundary(let index):
                around.removeLast()
                let range = output.boundaries[index].held!.range
                output.boundaries[index].held!.range = range.lowerBound..<output.html.count
            case .heldElement(let tag, let start, let firstBoundary):
                document.close()
                writer.writeEndTag(tag, to: &output.html)
                inHeld = false
                guard firstBoundary < output.boundaries.count else { return }
                // Marked as a whole: the boundaries' ranges become offsets in the element.
                let key = "h" + output.boundaries[firstBoundary].id.description
                let bytes = Array(output.html[start...])
                output.html.removeSubrange(start...)
                output.html += markup.start(key)
                output.html += bytes
                output.html += markup.end(key)
                let element = output.held.count
                output.held.append(HeldElement(key: key, bytes: bytes))
                for index in firstBoundary..<output.boundaries.count {
                    let range = output.boundaries[index].held!.range
                    output.boundaries[index].held = (element, (range.lowerBound - start)..<(range.upperBound - start))
                }
            }
        }

        /// Whether the element named at `index` cannot hold markers, looked up once per name.
        private mutating func isUnmarkable(_ index: Int32, _ tree: RenderTree) -> Bool {
            if let known = unmarkable[Int(index)] { return known }
            let result = TagTraits(tag: tree.names[index]).contains(.unmarkable)
            unmarkable[Int(index)] = result
            return result
        }
    }
}
