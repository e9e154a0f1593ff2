/// The in-order mode of a stream: writes the document top to bottom, each time from where it
/// stopped to the first place that may still change, so that what it sent is never taken back
/// and every byte of the page is written once.
///
/// It keeps a cursor into the visible tree: the index of the next entry to write and the entries
/// open there. Everything before the cursor was written from the trees before; the writer holds
/// back every region that could still change (see `stop(in:from:)`), so the entries before the
/// cursor are the same in every later tree, and the cursor stays valid in them. Only the ends of
/// the open entries move (their content after the cursor grows or shrinks): they are read from
/// each new tree.
///
/// A tree may hold only a window of the document (`RenderTree.Window`): from where the writer
/// stopped, which it names in `resume`, to the first pending Suspense. Its indices are then
/// the window's: the writer keeps its cursor and open entries as indices of the whole document
/// too, and reads each tree in its own.
///
/// The writing itself is ``HTMLWriter``'s walk; the in-order mode adds the doctype's place, the
/// held document end and the indices of the whole document (see `Walk`).
struct InOrderWriter {
    /// Whether the closing tags of a root `<html>` element and its `<body>` are held back.
    let holdsDocumentEnd: Bool
    /// The index of the next entry to write, in the whole document.
    private var cursor = 0
    /// The entries open at the cursor, by their index in the tree being read (their index in the
    /// whole document is their closing's): elements (whose closing tags are written at their
    /// ends) and other entries with children (kept for the path from the root, which
    /// `stop(in:from:)` reads).
    private var open: [(index: Int, closing: Walk.Closing)] = []
    private var walk: Walk
    /// The tag names of the last tree written, for `unclosed`.
    private var names = NameTable()
    /// Whether the whole document was written.
    private(set) var isComplete = false
    /// The boundary the document stopped at: only a change to it or inside it lets the document
    /// go on (nil when unknown: any change may).
    private(set) var heldBoundary: BoundaryID?
    /// Where the next window should start: at the place the document stopped (nil: the start).
    private(set) var resume: RenderTree.Resume?
    /// The entries the last `advance` wrote, in its tree's indices.
    private(set) var lastWritten = 0..<0
    /// How many bytes at the end of the last `advance`'s output are the held document end.
    private(set) var tailCount = 0

    init(holdsDocumentEnd: Bool) {
        self.holdsDocumentEnd = holdsDocumentEnd
        walk = Walk(document: DocumentEnd(holds: holdsDocumentEnd))
    }

    /// Writes `tree` from the cursor to the first place that may still change, or to its end
    /// when `whole` (the render's final tree) or when nothing may change any more.
    mutating func advance(_ tree: RenderTree, whole: Bool) throws -> [UInt8] {
        guard !isComplete else { return [] }
        let entries = tree.entries
        // The cursor in the tree's indices: a window's start from where the document stopped, or
        // the whole document's.
        let start: Int
        if let window = tree.window, window.start > 0 {
            guard window.start == open.count else { throw StreamError.sentPrefixChanged }
            for level in open.indices { open[level].index = level }
            start = window.start
        } else {
            for level in open.indices { open[level].index = open[level].closing.absolute }
            start = cursor
        }
        guard start <= entries.count else { throw StreamError.sentPrefixChanged }
        let stop = whole ? entries.count : self.stop(in: tree, from: start) ?? entries.count
        // `stop(in:from:)` never holds back a place before the cursor: the held-region rule kept
        // every region that could change from being written.
        guard stop >= start else { throw StreamError.sentPrefixChanged }
        names = tree.names
        var writer = HTMLWriter(tree)
        walk.offset = cursor - start
        walk.html = []
        lastWritten = start..<stop
        tailCount = 0
        try writer.walk(from: start, to: stop, open: &open, &walk)
        writer.close(upTo: stop, open: &open, &walk)
        cursor = stop + walk.offset
        heldBoundary = stop < entries.count ? tree.boundaryID(of: entries[stop]) : nil
        resume = stop < entries.count ? tree.window?.resume(at: stop) : nil
        if stop == entries.count {
            walk.html += walk.tail
            tailCount = walk.tail.count
            walk.tail = []
            isComplete = true
        }
        if !walk.html.isEmpty { walk.wroteContent = true }
        let html = walk.html
        walk.html = []
        return html
    }

    /// Whether an element open at the cursor is one where a `<meta>` written there would not
    /// stand as one (``TagTraits/unmarkable``: raw text, a table, …).
    var isInsideUnmarkable: Bool {
        open.contains { $0.closing.tag >= 0 && TagTraits(tag: names[$0.closing.tag]).contains(.unmarkable) }
    }

    /// What closes the elements open at the cursor, innermost first (held tags included): the
    /// end of a page whose render failed after some of it was sent.
    var unclosed: [UInt8] {
        var html: [UInt8] = []
        for top in open.reversed() where top.closing.tag >= 0 {
            html.append(contentsOf: "</".utf8)
            html.append(contentsOf: names[top.closing.tag].utf8)
            html.append(UInt8(ascii: ">"))
        }
        return html
    }

    /// What the in-order mode adds to the walk: the doctype right before a document's `html`
    /// element, its held end, and every entry with children on the stack with its index in the
    /// whole document.
    private struct Walk: HTMLWalk {
        struct Closing {
            /// The element's tag, -1 for any other entry.
            var tag: Int32
            /// Whether its closing tag goes to the document's end (a root `<html>` and its `<body>`).
            var held: Bool
            /// Its index in the whole document.
            var absolute: Int
        }

        var document: DocumentEnd
        /// What the tree's indices add to make the whole document's (a window's start is not
        /// the document's).
        var offset = 0
        /// Whether an earlier advance wrote anything (text, raw HTML or an element): then no later
        /// `html` element is the document's (`RenderTree.documentElement`, which a window, missing
        /// what was written, cannot tell).
        var wroteContent = false
        /// What this advance writes.
        var html: [UInt8] = []
        /// Held-back closing tags (`</body></html>`), written last.
        var tail: [UInt8] = []

        mutating func append(_ byte: UInt8) { html.append(byte) }
        mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) { html.append(contentsOf: bytes) }
        mutating func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, quotes: Bool) {
            HTMLEscaping.append(bytes, to: &html, quotes: quotes)
        }

        mutating func willOpen(element index: Int, info: TagTable.Info, depth: Int, writer: HTMLWriter) {
            // The doctype, right before a document's `html` element (see Doctype): written only
            // now, since a boundary before it could still replace it; only if nothing (but empty
            // text) came before it, in this advance or an earlier one.
            if document.isAtRoot, !wroteContent, html.isEmpty,
                HTMLNames.sameName(writer.tree.names[writer.tree.entries[index].a], "html")
            {
                html += Doctype.bytes
            }
        }

        mutating func opened(element index: Int, info: TagTable.Info, depth: Int, writer: HTMLWriter) -> Closing {
            let tag = writer.tree.entries[index].a
            return Closing(tag: tag, held: document.open(writer.tree.names[tag]), absolute: index + offset)
        }

        mutating func entered(_ index: Int, writer: HTMLWriter) -> Closing? {
            guard Int(writer.tree.entries[index].end) > index + 1 else { return nil }
            return Closing(tag: -1, held: false, absolute: index + offset)
        }

        mutating func close(_ closing: Closing, writer: HTMLWriter) {
            guard closing.tag >= 0 else { return }
            document.close()
            if closing.held {
                writer.writeEndTag(closing.tag, to: &tail)
            } else {
                writer.writeEndTag(closing.tag, to: &html)
            }
        }
    }

    // MARK: What may still change

    /// The first entry at or after the cursor whose region may still change; nil when nothing
    /// may: the outermost Suspense or ErrorBoundary showing its content around the first pending
    /// Suspense (whose fallback shows), or that Suspense itself.
    ///
    /// A region changes only because something pending settles. The pending Suspense resolves,
    /// or fails (its query, or its timeout); the error reaches every ErrorBoundary showing its
    /// content around it (one catches, and its fallback may throw in turn). A resolved Suspense
    /// around it may show its fallback again: when an ErrorBoundary inside it catches and its
    /// fallback (or its retry) suspends; when a value reaches it while it is typed; and when a
    /// Suspense inside it reopens and its fallback, evaluated again (or for the first time, if
    /// it resolved at once), suspends in turn. The pending Suspense may also resolve into
    /// content holding any of these. So every Suspense around it is held, as is every
    /// ErrorBoundary showing its content; an ErrorBoundary showing its fallback does not change
    /// again, and is written. Later pending places need not be read: whatever they may change
    /// around them, a Suspense or ErrorBoundary around the first one as well, is held already.
    ///
    /// What was written never had anything pending inside it, so nothing before the cursor is
    /// held: the stop is never before the cursor, and the tree is read from the cursor to the
    /// first pending Suspense only.
    private func stop(in tree: RenderTree, from cursor: Int) -> Int? {
        let entries = tree.entries
        var path = open.map(\.index)
        var index = cursor
        while index < entries.count {
            while let top = path.last, Int(entries[top].end) <= index { path.removeLast() }
            let entry = entries[index]
            if entry.kind == .suspense, tree.suspenseStates[Int(entry.a)] != .resolved {
                return path.first(where: { Self.mayChange(entries[$0], in: tree) }) ?? index
            }
            if Int(entry.end) > index + 1 { path.append(index) }
            index += 1
        }
        return nil
    }

    /// Whether a boundary around a pending Suspense may change when it settles: any Suspense,
    /// and an ErrorBoundary showing its content.
    private static func mayChange(_ entry: RenderTree.Entry, in tree: RenderTree) -> Bool {
        switch entry.kind {
        case .suspense:
            return true
        case .errorBoundary:
            if case .clean = tree.errorBoundaryStates[Int(entry.a)] { return true }
            return false
        default:
            return false
        }
    }
}
