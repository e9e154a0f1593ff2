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
        case .declarative: return Array("<?start name=\"\(key)\">".utf8)
        }
    }

    /// The marker that closes the region named `key`.
    func end(_ key: String) -> [UInt8] {
        switch swap {
        case .script: return Array("<!--/sk:\(key)-->".utf8)
        case .declarative: return Array("<?end>".utf8)
        }
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
        var output = Output()
        output.html = prefix
        output.html.reserveCapacity(prefix.count + HTMLRenderer.estimatedSize(of: tree) + 64)
        var tags = TagTable(count: tree.names.names.count, namesAreChecked: tree.namesAreChecked)
        /// Tag names as bytes, copied instead of read from a `String` for every element.
        let names = NameBytes(utf8: tree.names.names)
        /// What closes at each open entry's end: a tag, or a boundary's end marker.
        enum Closing {
            case tag(Int32, held: Bool)
            case marker(BoundaryID)
            /// The end of a boundary inside a held element: its index in `output.boundaries`.
            case heldBoundary(Int)
            /// The end of the held element that starts at this byte offset.
            case heldElement(Int32, start: Int, firstBoundary: Int)
        }
        var open: [(end: Int, closing: Closing)] = []
        /// How many elements are open: a document's `<html>` is at depth 0, its `<body>` at 1.
        var elementDepth = 0
        var documentRoot = false
        /// Whether the entries written now are inside a held element (or held content).
        var inHeld = heldContent
        /// The boundaries around the entry written now, innermost last (indices in
        /// `output.boundaries`).
        var around: [Int] = []
        var unmarkable = [Bool?](repeating: nil, count: markers && !heldContent ? tree.names.names.count : 0)
        func close(_ closing: Closing) {
            switch closing {
            case .tag(let tag, let held):
                elementDepth -= 1
                if held {
                    append(closingTag: tag, of: names, to: &output.tail)
                } else {
                    append(closingTag: tag, of: names, to: &output.html)
                }
            case .marker(let id):
                around.removeLast()
                output.html += self.end(id.description)
            case .heldBoundary(let index):
                around.removeLast()
                let range = output.boundaries[index].held!.range
                output.boundaries[index].held!.range = range.lowerBound..<output.html.count
            case .heldElement(let tag, let start, let firstBoundary):
                elementDepth -= 1
                append(closingTag: tag, of: names, to: &output.html)
                inHeld = false
                guard firstBoundary < output.boundaries.count else { return }
                // Marked as a whole: the boundaries' ranges become offsets in the element.
                let key = "h" + output.boundaries[firstBoundary].id.description
                let bytes = Array(output.html[start...])
                output.html.removeSubrange(start...)
                output.html += self.start(key)
                output.html += bytes
                output.html += self.end(key)
                let element = output.held.count
                output.held.append(HeldElement(key: key, bytes: bytes))
                for index in firstBoundary..<output.boundaries.count {
                    let range = output.boundaries[index].held!.range
                    output.boundaries[index].held = (element, (range.lowerBound - start)..<(range.upperBound - start))
                }
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
                let elementStart = output.html.count
                output.html.append(UInt8(ascii: "<"))
                output.html += names.bytes[names.ranges[Int(entry.a)]]
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
                    if !inHeld && !unmarkable.isEmpty && isUnmarkable(entry.a, tree, &unmarkable) {
                        inHeld = true
                        open.append(
                            (
                                entryEnd,
                                .heldElement(entry.a, start: elementStart, firstBoundary: output.boundaries.count)
                            ))
                    } else {
                        open.append((entryEnd, .tag(entry.a, held: held)))
                    }
                }
            case .suspense, .errorBoundary:
                if markers, let id = tree.boundaryID(of: entry) {
                    let index = output.boundaries.count
                    var boundary = Boundary(id: id, parent: around.last, pending: Self.isPending(entry, in: tree))
                    if inHeld {
                        boundary.held = (nil, output.html.count..<output.html.count)
                        open.append((Int(entry.end), .heldBoundary(index)))
                    } else {
                        output.html += self.start(id.description)
                        open.append((Int(entry.end), .marker(id)))
                    }
                    output.boundaries.append(boundary)
                    around.append(index)
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
                case .tag(let tag, _): append(closingTag: tag, of: names, to: &output.unclosed)
                case .marker(let id): output.unclosed += self.end(id.description)
                case .heldBoundary: break
                case .heldElement(let tag, _, _): append(closingTag: tag, of: names, to: &output.unclosed)
                }
            }
        }
        return output
    }

    /// Whether the element named at `index` cannot hold markers, looked up once per name.
    private func isUnmarkable(_ index: Int32, _ tree: RenderTree, _ known: inout [Bool?]) -> Bool {
        if let known = known[Int(index)] { return known }
        let result = TagTraits(tag: tree.names[index]).contains(.unmarkable)
        known[Int(index)] = result
        return result
    }

    private func append(closingTag tag: Int32, of names: NameBytes, to buffer: inout [UInt8]) {
        buffer.append(contentsOf: "</".utf8)
        buffer += names.bytes[names.ranges[Int(tag)]]
        buffer.append(UInt8(ascii: ">"))
    }
}
