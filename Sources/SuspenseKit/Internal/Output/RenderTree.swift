/// A resolved tree as the renderers read it: the visible nodes only (pending boundaries show
/// their fallback, caught ones theirs; slots and fragments leave no node), in document order,
/// each entry knowing where its subtree ends. Walking it is a loop over one array, and building
/// it allocates per page, not per node.
///
/// Made from the resolver's ``NodeArena`` for ``render(_:as:cache:options:isolation:)`` and for render
/// events (a boundary's subtree), and from a ``Node``
/// for ``Node/rendered(as:)``; turned into a ``Node`` for ``resolve(_:cache:options:isolation:)``.
struct RenderTree {
    typealias Kind = NodeKind

    struct Entry {
        var a: Int32
        var b: Int32
        /// The index after this entry's subtree: the next sibling's, or the parent's end.
        var end: Int32
        var kind: Kind
    }

    var entries: [Entry] = []
    var bytes: [UInt8] = []
    var names = NameTable()
    var attributeLists: [[Attribute]] = []
    var suspenseStates: [SuspenseState] = []
    var errorBoundaryStates: [ErrorBoundaryState] = []
    /// The position id of each boundary entry, by its index in `suspenseStates` or
    /// `errorBoundaryStates`; nil in a tree built by hand.
    var suspenseIDs: [BoundaryID?] = []
    var errorBoundaryIDs: [BoundaryID?] = []
    /// For each text entry that is an ``ErrorMessage``, by its index: where the error's
    /// description is in `bytes`. The entry's own text is what HTML shows (safe for a visitor);
    /// `.tree` and `.plain` show the description. So every HTML writer is safe without knowing
    /// of it, and the tree stays the same for every format.
    var descriptions: [Int32: TextRange] = [:]
    /// The response declarations, by the `a` of their entries (shared with the arena's).
    var declarations: [ResponseDeclaration] = []
    /// Whether every tag and attribute name was checked already: true for a tree the resolver
    /// made (it checks each element as it resolves it), false for a ``Node`` built by hand.
    var namesAreChecked = false
    /// For the in-order stream: the part of the document this tree holds, when the resolver
    /// built only a window of it (see `Window`); nil for a whole tree.
    var window: Window?

    /// A window of the document: from a place the in-order stream stopped at (or the start) to
    /// the first pending Suspense after it (or the end). An in-order stream reads nothing before
    /// where it stopped (written already, and the same in every later tree) and nothing after
    /// the first pending Suspense (held back), so a tree of that part alone makes each pass cost
    /// what the stream goes on by, not the whole page.
    struct Window {
        /// The entries before this index stand for the entries open where the window starts,
        /// outermost first (an element as it is, any other entry as a fragment), whose ends are
        /// in this tree; the document from there on starts at this index.
        var start: Int
        /// The resolver's walk where it stopped, at the first pending Suspense (its last frame):
        /// what `resume(at:)` goes on from. Empty when the window reaches the document's end.
        var frames: [Frame]

        /// An open node of the resolver's walk: the arena node, the next sibling to visit after
        /// it, and its entry in this tree (-1 for a node that makes none).
        struct Frame {
            var node: Int32
            var next: Int32
            var entry: Int32
        }

        /// Where a window of a later tree starts: at the entry at `index`, a boundary on the
        /// path to the first pending Suspense (that Suspense included); nil for any other entry.
        func resume(at index: Int) -> Resume? {
            guard let level = frames.firstIndex(where: { Int($0.entry) == index }), level > 0 else { return nil }
            var path = Array(frames[..<level])
            path[level - 1].next = frames[level].node
            return Resume(frames: path)
        }
    }

    /// The start of a window (see `Window`), for the resolver, which alone reads it: its walk's
    /// open nodes there, the innermost one's next sibling being the node to visit first.
    struct Resume {
        var frames: [Window.Frame]
    }

    @inline(__always)
    func withBytes<R>(of entry: Entry, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try bytes.withUnsafeBufferPointer { all in
            try body(UnsafeBufferPointer(rebasing: all[Int(entry.a)..<Int(entry.a) + Int(entry.b)]))
        }
    }

    func string(of entry: Entry) -> String {
        withBytes(of: entry) { String(decoding: $0, as: UTF8.self) }
    }

    /// The entry at `index` as `.tree` and `.plain` show it: the text of an ``ErrorMessage``
    /// made its description, any other entry as it is.
    @inline(__always)
    func describedText(at index: Int) -> Entry {
        var entry = entries[index]
        if !descriptions.isEmpty, let range = descriptions[Int32(truncatingIfNeeded: index)] {
            entry.a = range.offset
            entry.b = range.length
        }
        return entry
    }

    func attributes(of entry: Entry) -> [Attribute] {
        entry.b < 0 ? [] : attributeLists[Int(entry.b)]
    }

    // MARK: Building

    /// An empty tree, for a reader that fills it by hand (HTMLTextReader).
    init() {}

    /// Opens an entry whose subtree ends at `close(_:)`.
    @inline(__always)
    private mutating func open(_ kind: Kind, _ a: Int32, _ b: Int32) -> Int {
        entries.append(Entry(a: a, b: b, end: 0, kind: kind))
        return entries.count - 1
    }

    @inline(__always)
    private mutating func close(_ index: Int) {
        entries[index].end = Int32(truncatingIfNeeded: entries.count)
    }

    private mutating func store(_ string: String) -> (Int32, Int32) {
        let offset = bytes.count
        var string = string
        string.withUTF8 { bytes.append(contentsOf: $0) }
        return (Int32(truncatingIfNeeded: offset), Int32(truncatingIfNeeded: bytes.count - offset))
    }

    /// The tree of a ``Node``. A fragment below the root (possible in a tree built by hand) keeps
    /// an entry of its own.
    init(_ root: Node) {
        var stack: [(children: [Node], index: Int, entry: Int)] = []
        func enter(_ node: Node) {
            let entry: Int
            switch node.kind {
            case .text(let text):
                let (offset, length) = store(text)
                entry = open(.text, offset, length)
            case .errorMessage(let presented, let description):
                let (offset, length) = store(presented)
                entry = open(.text, offset, length)
                let (descriptionOffset, descriptionLength) = store(description)
                descriptions[Int32(entry)] = TextRange(offset: descriptionOffset, length: descriptionLength)
            case .rawHTML(let html):
                let (offset, length) = store(html)
                entry = open(.rawHTML, offset, length)
            case .fragment:
                entry = open(.fragment, 0, 0)
            case .element(let tag, let attributes):
                var list: Int32 = -1
                if !attributes.isEmpty {
                    list = Int32(attributeLists.count)
                    attributeLists.append(attributes)
                }
                entry = open(.element, names.index(of: tag), list)
            case .component(let name):
                entry = open(.component, names.index(of: name), 0)
            case .suspense(let state):
                suspenseStates.append(state)
                suspenseIDs.append(node.boundaryID)
                entry = open(.suspense, Int32(suspenseStates.count - 1), 0)
            case .errorBoundary(let state):
                errorBoundaryStates.append(state)
                errorBoundaryIDs.append(node.boundaryID)
                entry = open(.errorBoundary, Int32(errorBoundaryStates.count - 1), 0)
            case .responseDeclaration(let declaration):
                declarations.append(declaration)
                entry = open(.declaration, Int32(declarations.count - 1), -1)
            }
            stack.append((node.children, 0, entry))
        }
        enter(root)
        while let top = stack.last {
            if top.index == top.children.count {
                stack.removeLast()
                close(top.entry)
                continue
            }
            stack[stack.count - 1].index += 1
            enter(top.children[top.index])
        }
    }

    /// The ``Node`` of entry 0's subtree. Iterative.
    func node() -> Node {
        var stack: [(kind: Node.Kind, id: BoundaryID?, end: Int, children: [Node])] = []
        var result: Node?
        func closeFinished(upTo index: Int) {
            while let top = stack.last, top.end <= index {
                stack.removeLast()
                var node = Node(top.kind, children: top.children)
                node.boundaryID = top.id
                if stack.isEmpty {
                    result = node
                } else {
                    stack[stack.count - 1].children.append(node)
                }
            }
        }
        for index in entries.indices {
            closeFinished(upTo: index)
            let entry = entries[index]
            stack.append((kind(at: index), boundaryID(of: entry), Int(entry.end), []))
        }
        closeFinished(upTo: entries.count)
        return result ?? Node(.fragment)
    }

    /// The position id of a boundary entry, if it has one.
    func boundaryID(of entry: Entry) -> BoundaryID? {
        switch entry.kind {
        case .suspense: return suspenseIDs[Int(entry.a)]
        case .errorBoundary: return errorBoundaryIDs[Int(entry.a)]
        default: return nil
        }
    }

    /// The kind of the entry at `index`: as `kind(of:)`, and an ``ErrorMessage``'s text as
    /// `.errorMessage`.
    func kind(at index: Int) -> Node.Kind {
        let entry = entries[index]
        if entry.kind == .text, !descriptions.isEmpty, let range = descriptions[Int32(truncatingIfNeeded: index)] {
            let description = String(
                decoding: bytes[Int(range.offset)..<Int(range.offset + range.length)], as: UTF8.self)
            return .errorMessage(presented: string(of: entry), description: description)
        }
        return kind(of: entry)
    }

    func kind(of entry: Entry) -> Node.Kind {
        switch entry.kind {
        case .fragment: return .fragment
        case .text: return .text(string(of: entry))
        case .rawHTML: return .rawHTML(string(of: entry))
        case .element: return .element(tag: names[entry.a], attributes: attributes(of: entry))
        case .component: return .component(name: names[entry.a])
        case .suspense: return .suspense(suspenseStates[Int(entry.a)])
        case .errorBoundary: return .errorBoundary(errorBoundaryStates[Int(entry.a)])
        case .declaration: return .responseDeclaration(declarations[Int(entry.a)])
        }
    }
}

extension RenderTree {
    /// The response declarations among the entries `range`, in document order, each with its
    /// arena node id (-1 in a tree built by hand).
    func declarations(in range: Range<Int>) -> [(node: Int32, declaration: ResponseDeclaration)] {
        guard !declarations.isEmpty else { return [] }
        var found: [(node: Int32, declaration: ResponseDeclaration)] = []
        for index in range where entries[index].kind == .declaration {
            found.append((entries[index].b, declarations[Int(entries[index].a)]))
        }
        return found
    }

    /// What the whole tree declared about its response.
    var responseHead: ResponseHead {
        ResponseHead(declarations: declarations(in: entries.indices).map(\.declaration))
    }
}

/// A run of a tree's `bytes`.
struct TextRange {
    var offset: Int32
    var length: Int32
}
