// The resolver produces the visible tree; the renderers only read it. So the walk from the
// resolver's arena and records to a `RenderTree` lives here, beside them, and `Output/` knows
// nothing of the resolver.

extension RenderTree {
    /// The visible tree of a resolution as it stands now, from `root`: the whole tree from the
    /// root fragment, or one boundary's subtree (the boundary first, as entry 0). Iterative, so
    /// that deep trees cannot overflow the stack. Without `pendingQueries`, a pending Suspense's
    /// state lists no queries (`.pending([])`): listing them allocates per pending Suspense, and
    /// a tree built after every pass for a reader that only asks whether it is pending (the
    /// in-order stream) would pay that for every pending Suspense, every pass.
    ///
    /// With `window`, the tree is a window of the document for the in-order stream (see
    /// `RenderTree.Window`): from `resume` (the start when nil) to the first pending Suspense,
    /// which ends it, as a leaf; `root` is then the root fragment.
    init(
        _ nodes: NodeArena, records: Records, root: NodeArena.ID, pendingQueries: Bool = true,
        window: Bool = false, resume: Resume? = nil
    ) {
        bytes = nodes.bytes  // shared, not copied
        namesAreChecked = true
        names = nodes.names
        attributeLists = nodes.attributeLists
        declarations = nodes.declarations
        var suspenseStates: [SuspenseState] = []
        var suspenseIDs: [BoundaryID?] = []
        var errorBoundaryStates: [ErrorBoundaryState] = []
        var errorBoundaryIDs: [BoundaryID?] = []
        var descriptions: [Int32: TextRange] = [:]
        let hasDescriptions = !nodes.descriptions.isEmpty
        var windowStart = 0
        var windowFrames: [Window.Frame] = []
        // Written through pointers: every visible record makes at most one entry (the root's
        // fragment included), so the arena's size bounds the entries, and the stack of open
        // nodes grows only with the depth. Appending to arrays checked uniqueness and capacity
        // twice per node.
        entries = nodes.records.withUnsafeBufferPointer { arena in
            [Entry](unsafeUninitializedCapacity: arena.count + 1 + (resume?.frames.count ?? 0)) { out, initialized in
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
                let single = !window && arena[Int(root)].kind != .fragment
                if let resume {
                    // The entries open at the start, then the walk goes on from the innermost
                    // frame's next node.
                    for frame in resume.frames {
                        var entry = -1
                        if frame.entry >= 0 {
                            let record = arena[Int(frame.node)]
                            entry =
                                record.kind == .element ? open(.element, record.a, record.b) : open(.fragment, 0, 0)
                        }
                        stack.push(Frame(next: frame.next, entry: entry, node: frame.node))
                    }
                    windowStart = count
                } else if single {
                    // A subtree: visit `root` alone, not its siblings.
                    stack.push(Frame(next: root, entry: -1, node: root))
                } else {
                    stack.push(Frame(next: arena[Int(root)].first, entry: open(.fragment, 0, 0), node: root))
                }
                walk: while !stack.isEmpty {
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
                        if hasDescriptions, let description = nodes.descriptions[id] {
                            descriptions[Int32(truncatingIfNeeded: count)] = description
                        }
                        out.initializeElement(
                            at: count,
                            to: Entry(
                                a: record.a, b: record.b, end: Int32(truncatingIfNeeded: count + 1),
                                kind: record.kind))
                        count += 1
                    case .declaration:
                        // `b`: the arena's node, which tells the stream a declaration it counted.
                        out.initializeElement(
                            at: count,
                            to: Entry(a: record.a, b: id, end: Int32(truncatingIfNeeded: count + 1), kind: .declaration)
                        )
                        count += 1
                    case .element:
                        stack.push(Frame(next: record.first, entry: open(.element, record.a, record.b), node: id))
                    case .component:
                        stack.push(Frame(next: record.first, entry: open(.component, record.a, 0), node: id))
                    case .fragment:
                        stack.push(Frame(next: record.first, entry: -1, node: id))
                    case .suspense:
                        // Fields read in place: a copy of the whole record retains each of its
                        // references, which cost most of a tree built per pass.
                        let index = Int(record.a)
                        let state: SuspenseState
                        let shown: NodeArena.ID
                        if records.suspenses[index].isResolved {
                            state = .resolved
                            shown = records.suspenses[index].contentNode
                        } else if records.suspenses[index].row == nil {
                            state = .pending(pendingQueries ? records.pendingQueries(of: Int(record.a)) : [])
                            shown = records.suspenses[index].fallbackNode
                        } else {
                            // A SuspenseList's row: held back once its content is ready, and
                            // showing its fallback only where the list's tail shows one.
                            let ready = records.suspenses[index].pendingCount == 0
                            if ready, let holder = records.holder(of: index) {
                                let element = holder.place.element
                                state = .held(
                                    row: Int(holder.place.index) + 1, element: element < 0 ? nil : Int(element) + 1)
                            } else {
                                state = .pending(pendingQueries ? records.pendingQueries(of: Int(record.a)) : [])
                            }
                            shown = records.showsFallback(index) ? records.suspenses[index].fallbackNode : -1
                        }
                        suspenseStates.append(state)
                        suspenseIDs.append(records.suspenses[index].id)
                        let entry = open(.suspense, Int32(suspenseStates.count - 1), 0)
                        if window, !records.suspenses[index].isResolved {
                            // The window ends here: its walk is kept, to go on from any boundary
                            // on the path, and every entry open ends after this one.
                            out[entry].end = Int32(truncatingIfNeeded: count)
                            windowFrames.append(Window.Frame(node: id, next: -1, entry: Int32(entry)))
                            while !stack.isEmpty {
                                let frame = stack.pop()
                                if frame.entry >= 0 { out[frame.entry].end = Int32(truncatingIfNeeded: count) }
                                windowFrames.append(
                                    Window.Frame(node: frame.node, next: frame.next, entry: Int32(frame.entry)))
                            }
                            windowFrames.reverse()
                            break walk
                        }
                        stack.push(Frame(next: shown < 0 ? -1 : arena[Int(shown)].first, entry: entry, node: id))
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
                        stack.push(Frame(next: arena[Int(shown)].first, entry: entry, node: id))
                    }
                }
                initialized = count
            }
        }
        self.suspenseStates = suspenseStates
        self.suspenseIDs = suspenseIDs
        self.errorBoundaryStates = errorBoundaryStates
        self.errorBoundaryIDs = errorBoundaryIDs
        self.descriptions = descriptions
        if window { self.window = Window(start: windowStart, frames: windowFrames) }
    }

    /// An open node of the walk in `init(_:records:root:)`: the next arena child to visit, and
    /// the entry to close after the last one (-1 for a transparent fragment).
    fileprivate struct Frame {
        var next: NodeArena.ID
        var entry: Int
        /// The node that opened it, for a window's walk (`Window.Frame`).
        var node: NodeArena.ID
    }
}
