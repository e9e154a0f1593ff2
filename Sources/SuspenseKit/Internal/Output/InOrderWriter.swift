/// The in-order mode of a stream: writes the document top to bottom, each time from where it
/// stopped to the first place that may still change, so that what it sent is never taken back
/// and every byte of the page is written once.
///
/// It keeps a cursor into the visible tree: the index of the next entry to write and the entries
/// open there. Everything before the cursor was written from the trees before; the writer holds
/// back every region that could still change (see `stop(in:)`), so the entries before the cursor
/// are the same in every later tree, and the cursor stays valid in them. Only the ends of the
/// open entries move (their content after the cursor grows or shrinks): they are read from each
/// new tree.
struct InOrderWriter {
    /// An entry open at the cursor: an element (whose closing tag is written at its end) or
    /// another entry with children (kept for the path from the root, which `stop(in:)` reads).
    private struct Open {
        var index: Int
        /// The element's tag, -1 for any other entry.
        var tag: Int32
        /// Whether its closing tag goes to the document's end (a root `<html>` and its `<body>`).
        var held: Bool
    }

    /// Whether the closing tags of a root `<html>` element and its `<body>` are held back.
    let holdsDocumentEnd: Bool
    /// The index of the next entry to write.
    private var cursor = 0
    private var open: [Open] = []
    /// How many elements are open: a document's `<html>` is at depth 0, its `<body>` at 1.
    private var elementDepth = 0
    private var documentRoot = false
    /// Held-back closing tags (`</body></html>`), written last.
    private var tail: [UInt8] = []
    /// The tag names of the last tree written, for `unclosed`.
    private var names = NameTable()
    /// Whether the whole document was written.
    private(set) var isComplete = false

    init(holdsDocumentEnd: Bool) {
        self.holdsDocumentEnd = holdsDocumentEnd
    }

    /// Writes `tree` from the cursor to the first place that may still change, or to its end
    /// when `whole` (the render's final tree) or when nothing may change any more.
    mutating func advance(_ tree: RenderTree, whole: Bool) throws -> [UInt8] {
        guard !isComplete else { return [] }
        let entries = tree.entries
        let stop = whole ? entries.count : self.stop(in: tree) ?? entries.count
        // `stop(in:)` never holds back a place before the cursor: the held-region rule kept
        // every region that could change from being written.
        guard stop >= cursor else { throw StreamError.sentPrefixChanged }
        names = tree.names
        var html: [UInt8] = []
        var tags = TagTable(count: tree.names.names.count, namesAreChecked: tree.namesAreChecked)
        while cursor < stop {
            closeFinished(at: cursor, in: tree, to: &html)
            let index = cursor
            let entry = entries[index]
            let entryEnd = Int(entry.end)
            switch entry.kind {
            case .text:
                tree.withBytes(of: entry) { HTMLEscaping.append($0, to: &html, quotes: false) }
            case .rawHTML:
                tree.withBytes(of: entry) { html.append(contentsOf: $0) }
            case .element:
                let tag = tree.names[entry.a]
                let info = try tags.info(for: entry.a, in: tree.names.names)
                html.append(UInt8(ascii: "<"))
                html.append(contentsOf: tag.utf8)
                if entry.b >= 0 {
                    for attribute in tree.attributeLists[Int(entry.b)] {
                        if !tree.namesAreChecked { try HTMLNames.checkAttribute(attribute.name, tag: tag) }
                        html.append(UInt8(ascii: " "))
                        html.append(contentsOf: attribute.name.utf8)
                        html.append(contentsOf: "=\"".utf8)
                        HTMLEscaping.appendAttribute(attribute.value, to: &html)
                        html.append(UInt8(ascii: "\""))
                    }
                }
                html.append(UInt8(ascii: ">"))
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
                    open.append(Open(index: index, tag: entry.a, held: held))
                }
            case .suspense, .errorBoundary, .fragment, .component:
                if entryEnd > index + 1 { open.append(Open(index: index, tag: -1, held: false)) }
            }
            cursor += 1
        }
        closeFinished(at: stop, in: tree, to: &html)
        if stop == entries.count {
            html += tail
            tail = []
            isComplete = true
        }
        return html
    }

    /// Closes the open entries that end at or before `index`.
    private mutating func closeFinished(at index: Int, in tree: RenderTree, to html: inout [UInt8]) {
        while let top = open.last, Int(tree.entries[top.index].end) <= index {
            open.removeLast()
            guard top.tag >= 0 else { continue }
            elementDepth -= 1
            if top.held {
                append(closingTag: top.tag, of: tree, to: &tail)
            } else {
                append(closingTag: top.tag, of: tree, to: &html)
            }
        }
    }

    /// What closes the elements open at the cursor, innermost first (held tags included): the
    /// end of a page whose render failed after some of it was sent.
    var unclosed: [UInt8] {
        var html: [UInt8] = []
        for top in open.reversed() where top.tag >= 0 {
            html.append(contentsOf: "</".utf8)
            html.append(contentsOf: names[top.tag].utf8)
            html.append(UInt8(ascii: ">"))
        }
        return html
    }

    private func append(closingTag tag: Int32, of tree: RenderTree, to buffer: inout [UInt8]) {
        buffer.append(contentsOf: "</".utf8)
        buffer.append(contentsOf: tree.names[tag].utf8)
        buffer.append(UInt8(ascii: ">"))
    }

    // MARK: What may still change

    /// The first entry at or after the cursor whose region may still change; nil when nothing
    /// may. A region changes only because something pending settles: a pending Suspense (its
    /// fallback shows) resolves, or fails, or times out. For each one, `held(above:path:in:)`
    /// finds the outermost boundary around it that may change with it; the stop is the first of
    /// those places in the document.
    ///
    /// Only the part of the tree that matters is read: from the cursor to the first pending
    /// Suspense, then, when a resolved Suspense encloses the stop, the rest of that Suspense
    /// (a later place inside it can reopen it). A pending Suspense's own subtree is skipped: what
    /// its fallback holds can change only the Suspense itself or boundaries around it that its own
    /// place already accounts for.
    private func stop(in tree: RenderTree) -> Int? {
        let entries = tree.entries
        var path = open.map(\.index)
        var stop: Int?
        var scanEnd = entries.count
        var index = cursor
        while index < scanEnd {
            while let top = path.last, Int(entries[top].end) <= index { path.removeLast() }
            let entry = entries[index]
            if entry.kind == .suspense, case .pending = tree.suspenseStates[Int(entry.a)] {
                let held = Self.held(above: index, path: path, in: tree)
                if let first = stop {
                    stop = min(first, held)
                } else {
                    stop = held
                    // Later pending places can move the stop back only into a resolved Suspense
                    // around it, which they may reopen; the scan ends with the outermost one.
                    scanEnd = held
                    for ancestor in path where ancestor < held && entries[ancestor].kind == .suspense {
                        scanEnd = max(scanEnd, Int(entries[ancestor].end))
                    }
                }
                index = Int(entry.end)
                continue
            }
            if Int(entry.end) > index + 1 { path.append(index) }
            index += 1
        }
        return stop
    }

    /// The outermost place around the pending Suspense at `pending` (whose enclosing entries are
    /// `path`, outermost first) that may change when it settles:
    /// - every ErrorBoundary showing its content around it: the Suspense may fail, and the error
    ///   reaches it (an ErrorBoundary between them catches it, and its fallback may throw in turn);
    /// - the nearest Suspense around such an ErrorBoundary: when the boundary catches, its fallback
    ///   (or its retry) may suspend, and that Suspense, resolved, shows its fallback again;
    /// - a typed Suspense around it: a keyless promise beneath the pending one may deliver to it,
    ///   which builds its content again.
    /// An ErrorBoundary showing its fallback does not change again (a failure in its fallback goes
    /// to the boundaries around it), nor does a resolved Suspense with none of the above.
    private static func held(above pending: Int, path: [Int], in tree: RenderTree) -> Int {
        let entries = tree.entries
        var held = pending
        var reopens = false
        for ancestor in path.reversed() {
            let entry = entries[ancestor]
            switch entry.kind {
            case .errorBoundary:
                if case .clean = tree.errorBoundaryStates[Int(entry.a)] {
                    held = ancestor
                    reopens = true
                }
            case .suspense:
                if reopens || tree.suspenseIsTyped(Int(entry.a)) { held = ancestor }
                reopens = false
            default:
                break
            }
        }
        return held
    }
}
