/// The one walk over the visible tree that pretty HTML, stream markup and the in-order writer
/// share: the open-element stack, start tags with their attributes, end tags, escaped text, raw
/// HTML, each name checked and each distinct tag classified once per render, and the rule that a
/// void element cannot have children. What differs (indentation, markers and held elements, a
/// held document end, the doctype's place) is an ``HTMLWalk``'s. The compact form writes the
/// same bytes through a pointer after sizing them (see ``HTMLRenderer/CompactPlan``), its own
/// loop kept for speed.
struct HTMLWriter {
    let tree: RenderTree
    private var tags: TagTable
    /// The names' bytes, copied instead of read from a `String` for every element.
    let names: NameBytes

    init(_ tree: RenderTree) {
        self.tree = tree
        tags = TagTable(count: tree.names.names.count, namesAreChecked: tree.namesAreChecked)
        names = NameBytes(utf8: tree.names.names)
    }

    /// The traits of the tag named at `index` of the tree's names, checked the first time.
    @inline(__always)
    mutating func info(of name: Int32) throws -> TagTable.Info {
        try tags.info(for: name, in: tree.names.names)
    }

    /// Walks the entries `first..<limit`: writes text, raw HTML and tags to `walk`, and pushes
    /// on `open` what each entry with children closes with (an element's, or what `walk` says
    /// for any other entry), closing what ends before each entry. `open` may hold entries from
    /// an earlier walk (over an earlier tree whose entries before `first` were the same); their
    /// ends are read from this tree. What is open at `limit` stays open.
    mutating func walk<Walk: HTMLWalk & ~Copyable>(
        from first: Int, to limit: Int, open: inout [(index: Int, closing: Walk.Closing)], _ walk: inout Walk
    ) throws {
        let entries = tree.entries
        var index = first
        while index < limit {
            close(upTo: index, open: &open, &walk)
            let entry = entries[index]
            switch entry.kind {
            case .text, .rawHTML:
                writeContent(entry, to: &walk)
            case .declaration:
                break  // for the response's head, not the page
            case .element:
                let info = try self.info(of: entry.a)
                walk.willOpen(element: index, info: info, depth: open.count, writer: self)
                try writeStartTag(at: index, to: &walk)
                if !info.isVoid {
                    open.append((index, walk.opened(element: index, info: info, depth: open.count, writer: self)))
                }
            case .fragment, .component, .suspense, .errorBoundary:
                if let closing = walk.entered(index, writer: self) { open.append((index, closing)) }
            }
            index += 1
        }
    }

    /// Closes the open entries that end at or before `index`, innermost first.
    @inline(__always)
    func close<Walk: HTMLWalk & ~Copyable>(
        upTo index: Int, open: inout [(index: Int, closing: Walk.Closing)], _ walk: inout Walk
    ) {
        while let top = open.last, Int(tree.entries[top.index].end) <= index {
            open.removeLast()
            walk.close(top.closing, writer: self)
        }
    }

    /// Writes the start tag of the element entry at `index` with its attributes, checking them
    /// unless the tree's names are checked; throws for a void element with children. Returns
    /// the tag's traits.
    @discardableResult
    mutating func writeStartTag<Output: HTMLOutput & ~Copyable>(
        at index: Int, to output: inout Output
    ) throws -> TagTable.Info {
        let entry = tree.entries[index]
        let info = try self.info(of: entry.a)
        output.append(UInt8(ascii: "<"))
        appendName(entry.a, to: &output)
        if entry.b >= 0 {
            let attributes = tree.attributeLists[Int(entry.b)]
            if !tree.namesAreChecked { try HTMLNames.checkAttributes(attributes, tag: tree.names[entry.a]) }
            for attribute in attributes {
                output.append(UInt8(ascii: " "))
                var name = attribute.name
                name.withUTF8 { output.append($0) }
                output.append(UInt8(ascii: "="))
                output.append(UInt8(ascii: "\""))
                var value = attribute.value
                value.withUTF8 { output.appendEscaped($0, quotes: true) }
                output.append(UInt8(ascii: "\""))
            }
        }
        output.append(UInt8(ascii: ">"))
        if info.isVoid {
            let end = Int(entry.end)
            guard end == index + 1 else {
                throw voidElementError(tree.names[entry.a], at: index, end: end, in: tree.entries)
            }
        }
        return info
    }

    /// Writes the end tag of the tag named at `name`.
    @inline(__always)
    func writeEndTag<Output: HTMLOutput & ~Copyable>(_ name: Int32, to output: inout Output) {
        output.append(UInt8(ascii: "<"))
        output.append(UInt8(ascii: "/"))
        appendName(name, to: &output)
        output.append(UInt8(ascii: ">"))
    }

    /// Writes a text entry escaped, or a raw HTML entry as it is; nothing for any other entry.
    @inline(__always)
    func writeContent<Output: HTMLOutput & ~Copyable>(_ entry: RenderTree.Entry, to output: inout Output) {
        switch entry.kind {
        case .text: tree.withBytes(of: entry) { output.appendEscaped($0, quotes: false) }
        case .rawHTML: tree.withBytes(of: entry) { output.append($0) }
        case .element, .fragment, .component, .suspense, .errorBoundary, .declaration: break
        }
    }

    @inline(__always)
    private func appendName<Output: HTMLOutput & ~Copyable>(_ name: Int32, to output: inout Output) {
        names.bytes.withUnsafeBufferPointer {
            output.append(UnsafeBufferPointer(rebasing: $0[names.ranges[Int(name)]]))
        }
    }
}

/// What an output that walks the tree with ``HTMLWriter/walk(from:to:open:_:)`` adds to it: what
/// it writes around elements, and what each open entry closes with.
protocol HTMLWalk: HTMLOutput, ~Copyable {
    /// What an open entry closes with.
    associatedtype Closing
    /// Before the start tag of the element at `index`, inside `depth` open entries.
    mutating func willOpen(element index: Int, info: TagTable.Info, depth: Int, writer: HTMLWriter)
    /// After the start tag of the non-void element at `index`: what closes it.
    mutating func opened(element index: Int, info: TagTable.Info, depth: Int, writer: HTMLWriter) -> Closing
    /// At a fragment, component or boundary entry: what closes it, or nil if nothing need be.
    mutating func entered(_ index: Int, writer: HTMLWriter) -> Closing?
    /// At the end of an open entry.
    mutating func close(_ closing: Closing, writer: HTMLWriter)
}

/// Where an ``HTMLWriter`` writes: a ``ByteBuffer`` (whole renders) or an array (stream chunks,
/// whose regions are cut and spliced).
protocol HTMLOutput: ~Copyable {
    mutating func append(_ byte: UInt8)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>)
    /// Appends `bytes` with what HTML would read as markup escaped (`quotes`: in an attribute value).
    mutating func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, quotes: Bool)
}

extension ByteBuffer: HTMLOutput {
    @inline(__always)
    mutating func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, quotes: Bool) {
        HTMLEscaping.append(bytes, to: &self, quotes: quotes)
    }
}

extension Array: HTMLOutput where Element == UInt8 {
    @inline(__always)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        append(contentsOf: bytes)
    }

    @inline(__always)
    mutating func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, quotes: Bool) {
        HTMLEscaping.append(bytes, to: &self, quotes: quotes)
    }
}

/// Which closing tags a stream holds back to the end of the page: a root `<html>` element's and
/// its `<body>`'s (tag names in any letter case, as HTML reads them), so that chunks written later
/// still land inside the body.
struct DocumentEnd {
    /// Whether anything is held at all (a stream's whole page, not a region of it).
    let holds: Bool
    /// How many elements are open: a document's `<html>` is at depth 0, its `<body>` at 1.
    private var depth = 0
    private var documentRoot = false

    init(holds: Bool) {
        self.holds = holds
    }

    /// Opens a (non-void) element named `tag`; returns whether its closing tag is held back.
    @inline(__always)
    mutating func open(_ tag: @autoclosure () -> String) -> Bool {
        defer { depth += 1 }
        if depth == 0 {
            documentRoot = holds && HTMLNames.sameName(tag(), "html")
            return documentRoot
        }
        return documentRoot && depth == 1 && HTMLNames.sameName(tag(), "body")
    }

    /// Closes the innermost open element.
    @inline(__always)
    mutating func close() {
        depth -= 1
    }

    /// Whether no element is open.
    var isAtRoot: Bool { depth == 0 }
}
