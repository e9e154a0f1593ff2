/// A resolved tree as the renderers read it: the visible nodes only (pending boundaries show
/// their fallback, caught ones theirs; slots and fragments leave no node), in document order,
/// each entry knowing where its subtree ends. Walking it is a loop over one array, and building
/// it allocates per page, not per node.
///
/// Made from the resolver's ``NodeArena`` for ``render(_:as:cache:options:isolation:)`` and for render
/// events (a boundary's subtree), and from a ``Node``
/// for ``Node/rendered(as:)``; turned into a ``Node`` for ``resolve(_:cache:options:isolation:)``.
struct RenderTree {
    enum Kind: UInt8 {
        /// The root, entry 0, and only there.
        case fragment
        /// `a`: offset in `bytes`, `b`: length.
        case text
        /// `a`: offset in `bytes`, `b`: length.
        case rawHTML
        /// `a`: tag in `names`, `b`: list in `attributeLists`, or -1 for none.
        case element
        /// `a`: name in `names`.
        case component
        /// `a`: state in `suspenseStates`.
        case suspense
        /// `a`: state in `errorBoundaryStates`.
        case errorBoundary
    }

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
    /// Whether every tag and attribute name was checked already: true for a tree the resolver
    /// made (it checks each element as it resolves it), false for a ``Node`` built by hand.
    var namesAreChecked = false

    @inline(__always)
    func withBytes<R>(of entry: Entry, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try bytes.withUnsafeBufferPointer { all in
            try body(UnsafeBufferPointer(rebasing: all[Int(entry.a)..<Int(entry.a) + Int(entry.b)]))
        }
    }

    func string(of entry: Entry) -> String {
        withBytes(of: entry) { String(decoding: $0, as: UTF8.self) }
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

    /// The visible tree of a resolution as it stands now, from `root`: the whole tree from the
    /// root fragment, or one boundary's subtree (the boundary first, as entry 0). Iterative, so
    /// that deep trees cannot overflow the stack.
    init(_ nodes: NodeArena, records: Records, root: NodeArena.ID) {
        bytes = nodes.bytes  // shared, not copied
        namesAreChecked = true
        names = nodes.names
        attributeLists = nodes.attributeLists
        var suspenseStates: [SuspenseState] = []
        var suspenseIDs: [BoundaryID?] = []
        var errorBoundaryStates: [ErrorBoundaryState] = []
        var errorBoundaryIDs: [BoundaryID?] = []
        // Written through pointers: every visible record makes at most one entry (the root's
        // fragment included), so the arena's size bounds the entries, and the stack of open
        // nodes grows only with the depth. Appending to arrays checked uniqueness and capacity
        // twice per node.
        entries = nodes.records.withUnsafeBufferPointer { arena in
            [Entry](unsafeUninitializedCapacity: arena.count + 1) { out, initialized in
                var count = 0
                // Opens an entry whose subtree ends when its frame is popped.
                @inline(__always) func open(_ kind: Kind, _ a: Int32, _ b: Int32) -> Int {
                    out.initializeElement(at: count, to: Entry(a: a, b: b, end: 0, kind: kind))
                    count += 1
                    return count - 1
                }
                // Each frame: the next arena child to visit, and the entry to close after the
                // last one (-1 for a transparent fragment).
                var stack = PointerStack<Frame>()
                let single = arena[Int(root)].kind != .fragment
                if single {
                    // A subtree: visit `root` alone, not its siblings.
                    stack.push(Frame(next: root, entry: -1))
                } else {
                    stack.push(Frame(next: arena[Int(root)].first, entry: open(.fragment, 0, 0)))
                }
                while !stack.isEmpty {
                    let id = stack.top.next
                    if id < 0 {
                        let entry = stack.pop().entry
                        if entry >= 0 { out[entry].end = Int32(truncatingIfNeeded: count) }
                        continue
                    }
                    let record = arena[Int(id)]
                    stack.top.next = single && stack.count == 1 ? -1 : record.next
                    switch record.kind {
                    case .text, .rawHTML:
                        out.initializeElement(
                            at: count,
                            to: Entry(
                                a: record.a, b: record.b, end: Int32(truncatingIfNeeded: count + 1),
                                kind: record.kind == .text ? .text : .rawHTML))
                        count += 1
                    case .element:
                        stack.push(Frame(next: record.first, entry: open(.element, record.a, record.b)))
                    case .component:
                        stack.push(Frame(next: record.first, entry: open(.component, record.a, 0)))
                    case .fragment:
                        stack.push(Frame(next: record.first, entry: -1))
                    case .suspense:
                        let suspense = records.suspenses[Int(record.a)]
                        let state: SuspenseState
                        let shown: NodeArena.ID
                        if suspense.isResolved {
                            state = .resolved
                            shown = suspense.contentNode
                        } else {
                            state = .pending(records.pendingQueries(of: Int(record.a)))
                            shown = suspense.fallbackNode
                        }
                        suspenseStates.append(state)
                        suspenseIDs.append(suspense.id)
                        let entry = open(.suspense, Int32(suspenseStates.count - 1), 0)
                        stack.push(Frame(next: arena[Int(shown)].first, entry: entry))
                    case .errorBoundary:
                        let boundary = records.errorBoundaries[Int(record.a)]
                        let state: ErrorBoundaryState
                        let shown: NodeArena.ID
                        if let error = boundary.caught {
                            let description = describeError(error, suggestion: false)
                            state =
                                boundary.attempts > 1
                                ? .caughtAfterRetries(description, attempts: boundary.attempts)
                                : .caught(description)
                            shown = boundary.fallbackNode
                        } else {
                            state = .clean
                            shown = boundary.contentNode
                        }
                        errorBoundaryStates.append(state)
                        errorBoundaryIDs.append(boundary.id)
                        let entry = open(.errorBoundary, Int32(errorBoundaryStates.count - 1), 0)
                        stack.push(Frame(next: arena[Int(shown)].first, entry: entry))
                    }
                }
                initialized = count
            }
        }
        self.suspenseStates = suspenseStates
        self.suspenseIDs = suspenseIDs
        self.errorBoundaryStates = errorBoundaryStates
        self.errorBoundaryIDs = errorBoundaryIDs
    }

    /// An open node of the walk in `init(_:records:root:)`: the next arena child to visit, and
    /// the entry to close after the last one (-1 for a transparent fragment).
    private struct Frame {
        var next: NodeArena.ID
        var entry: Int
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
            stack.append((kind(of: entry), boundaryID(of: entry), Int(entry.end), []))
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

    func kind(of entry: Entry) -> Node.Kind {
        switch entry.kind {
        case .fragment: return .fragment
        case .text: return .text(string(of: entry))
        case .rawHTML: return .rawHTML(string(of: entry))
        case .element: return .element(tag: names[entry.a], attributes: attributes(of: entry))
        case .component: return .component(name: names[entry.a])
        case .suspense: return .suspense(suspenseStates[Int(entry.a)])
        case .errorBoundary: return .errorBoundary(errorBoundaryStates[Int(entry.a)])
        }
    }
}
