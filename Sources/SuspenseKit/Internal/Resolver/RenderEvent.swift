/// What a render reports as it happens, in order, with the time it happened. The seam between
/// the resolver and everything that shows a render: frames, live frames and streaming HTML
/// observe these; render reports, diagnostics and tracing are to observe them too.
///
/// Boundary events come only after `.shell`, which shows everything before it. Each carries the
/// boundary's position id and, when the render's mode builds subtrees, the subtree that now
/// stands in its place (the boundary's own node, with its state and what it shows).
struct RenderEvent {
    /// When it happened: the time since the render started, on the render's clock
    /// (`RenderOptions.clock`). Never less than the time of an event before it.
    let time: Duration
    let kind: Kind

    enum Kind {
        /// Nothing outside a Suspense is pending any more: the first state worth showing.
        /// `pending` lists the Suspense boundaries showing their fallback. The tree is the whole
        /// tree when the mode builds subtrees, a window from the start when it builds a tree per
        /// pass (see `.progress`). `declared`: the response declarations of the whole visible
        /// tree, in document order, with their node ids (see `visibleDeclarations`).
        case shell(RenderTree?, pending: [BoundaryID], declared: [(node: Int32, declaration: ResponseDeclaration)])
        /// A Suspense has resolved: its content replaces its fallback.
        case resolved(BoundaryID, RenderTree?)
        /// Content of a resolved Suspense suspended again: it shows its fallback again.
        case suspended(BoundaryID, RenderTree?)
        /// A pending Suspense waits on other queries than before (some arrived, others are still
        /// pending): what it shows is unchanged, but its state in the `.tree` format is not.
        case waiting(BoundaryID, RenderTree?)
        /// An ErrorBoundary caught an error (or content of its fallback arrived): its fallback
        /// replaces its content.
        case caught(BoundaryID, RenderTree?, error: (any Error)?)
        /// The boundary events that follow, up to the next `.progress`, reveal rows of a
        /// SuspenseList together: an output that sends a piece per event sends them as one.
        case revealedTogether
        /// A region outside every boundary changed; the tree is the whole tree.
        case updated(RenderTree?)
        /// The render started a query, or `joined` one in flight in its cache for another
        /// render; `cause` is what led the pass that asked for it to run (a waterfall shows as a
        /// query started by the result of another).
        case queryStarted(String, joined: Bool, cause: PassCause)
        /// A query's value arrived; the boundary events it causes follow.
        case queryFinished(String)
        /// A query failed; the boundary events it causes follow.
        case queryFailed(String, any Error)
        /// The render stopped waiting on a query (nothing waits on it any more).
        case queryCancelled(String)
        /// A pass that changed something has ended (its boundary events came before); when the
        /// mode builds a tree per pass, a window of it (`RenderTree.Window`): from where its one
        /// reader, the in-order stream, stopped (its `passTreeResume`) to the first pending
        /// Suspense, whose pending Suspenses list no queries (the stream asks only whether they
        /// are pending). `settled` when nothing outside a Suspense waits (an ErrorBoundary's
        /// fallback outside every Suspense may wait after a late error).
        case progress(RenderTree?, settled: Bool)
        /// A Suspense's timeout passed while it showed its fallback: the error goes to the
        /// nearest ErrorBoundary above it (whose `.caught` follows) and its queries are left.
        case timedOut(BoundaryID, TimeoutError)
        /// The render's deadline passed: one error per Suspense left showing its fallback, which
        /// stays in the final tree. `.finished` follows.
        case deadlinePassed([TimeoutError])
        /// The render is complete: the final tree.
        case finished(RenderTree)
    }
}

/// What led a pass of the resolver to run: every pass enters through `_Resolver.pass`, which is
/// told why. Queries started after a pass carry its cause.
enum PassCause: Hashable, Sendable, CustomStringConvertible {
    /// The first pass, which evaluates the root.
    case firstPass
    /// A query's result (value or failure) was applied: the slots waiting on it ran again.
    case result(of: String)
    /// The backoff of an `ErrorBoundary(retry:)` ended: its content is tried again.
    case retry(of: BoundaryID)
    /// A Suspense's timeout passed.
    case timeout(BoundaryID)
    /// Fallback timing's hold on a Suspense may be over: it tries to resolve again.
    case recheck(BoundaryID)
    /// The render's deadline passed: what fallback timing held back is shown.
    case deadline

    var description: String {
        switch self {
        case .firstPass: return "first pass"
        case .result(let query): return "result of \(query)"
        case .retry(let id): return "retry of \(id)"
        case .timeout(let id): return "timeout of \(id)"
        case .recheck(let id): return "recheck of \(id)"
        case .deadline: return "deadline"
        }
    }
}

/// Something that receives a render's events: frames, a stream, a report. A render has any
/// number of them, each receiving every event in order. An object, used by the render's task
/// only: the render keeps it across its suspensions. What the events carry (subtrees, trees per
/// pass) is the render's `RenderMode`, chosen by its entry point, not the observer's.
protocol RenderObserver: AnyObject {
    func observe(_ event: RenderEvent)
    /// Asked before each `.progress` event in a mode that builds a tree per pass: whether this
    /// observer needs that tree. Building it costs the whole tree, every pass; an observer that
    /// can tell from the pass's boundary events that nothing it reads changed (the in-order
    /// stream, blocked at a boundary no event named) says no, and when none needs it, the event
    /// carries no tree.
    var needsPassTree: Bool { get }
    /// Where the window of the next `.progress` event should start (see `RenderTree.Window`):
    /// a place of the last window this observer read; nil for the start of the document.
    var passTreeResume: RenderTree.Resume? { get }
}

extension RenderObserver {
    var needsPassTree: Bool { true }
    var passTreeResume: RenderTree.Resume? { nil }
}

/// A change to the visible tree, noted while a pass runs and reported after it.
enum BoundaryChange {
    case resolved(SuspenseIndex)
    case suspended(SuspenseIndex)
    /// A slot of this Suspense resolved or suspended on another query.
    case progressed(SuspenseIndex)
    case caught(ErrorBoundaryIndex)
    case region(Region)
}

extension _Resolver {
    func noteChange(_ change: BoundaryChange) {
        changeLog.note(change)
    }

    /// Whether nothing outside a Suspense is pending.
    var shellIsReady: Bool {
        records.suspenses[Self.root].pendingCount == 0
    }

    /// The tree as it stands; without `pendingQueries`, pending Suspenses list no queries.
    func tree(pendingQueries: Bool = true) -> RenderTree {
        RenderTree(nodes, records: records, root: rootNode, pendingQueries: pendingQueries)
    }

    /// A window of the tree for the in-order stream (`RenderTree.Window`): from `resume` (the
    /// start when nil) to the first pending Suspense, which lists no queries.
    func window(from resume: RenderTree.Resume?) -> RenderTree {
        RenderTree(nodes, records: records, root: rootNode, pendingQueries: false, window: true, resume: resume)
    }

    /// Marks the shell as sent: changes are reported from now on.
    func markShellSent() {
        changeLog.markShellSent()
        if timing.isHonoured { timing.shellSentAt = scope.clock.elapsed() }
    }

    /// The shell event, for observers: with the whole tree, or with `window` a window from the
    /// start (`.progress` trees are windows of it).
    func shellEvent(withSubtree: Bool, window: Bool = false) -> RenderEvent.Kind {
        var pending: [BoundaryID] = []
        for index in records.suspenses.indices.dropFirst()
        where !records.suspenses[index].isResolved && records.isAlive(index) {
            pending.append(records.suspenses[index].id)
        }
        return .shell(
            window ? self.window(from: nil) : withSubtree ? tree() : nil, pending: pending,
            declared: visibleDeclarations())
    }

    /// Forgets the changes noted since the last call, when no observer would see their events.
    func dropChanges() {
        _ = changeLog.take()
    }

    /// The boundary events for the changes noted since the last call, with subtrees if asked:
    /// one event per boundary, in the order each was first changed, telling its state now. A
    /// change to a boundary that was discarded since is dropped.
    func takeChanges(withSubtrees: Bool) -> [RenderEvent.Kind] {
        var suspended = Set<SuspenseIndex>()
        var order: [Region] = []
        var seen = Set<String>()
        func add(_ region: Region) {
            let key: String
            switch region {
            case .root: key = "r"
            case .suspense(let index): key = "s\(index)"
            case .errorBoundary(let index): key = "e\(index)"
            }
            if seen.insert(key).inserted { order.append(region) }
        }
        var events: [RenderEvent.Kind] = []
        let together = changeLog.together
        if together { events.append(.revealedTogether) }
        for change in changeLog.take() {
            switch change {
            case .resolved(let index), .progressed(let index): add(.suspense(index))
            case .suspended(let index):
                suspended.insert(index)
                add(.suspense(index))
            case .caught(let index): add(.errorBoundary(index))
            case .region(let region): add(region)
            }
        }
        if together {
            // Rows revealed in one step are reported in document order (outer regions first).
            func link(_ region: Region) -> PositionLink? {
                switch region {
                case .root: return nil
                case .suspense(let index): return records.suspenses[index].id.link
                case .errorBoundary(let index): return records.errorBoundaries[index].id.link
                }
            }
            order.sort { PositionLink.precedes(link($0), link($1)) }
        }
        for region in order {
            switch region {
            case .root:
                events.append(.updated(withSubtrees ? tree() : nil))
            case .suspense(let index) where records.isAlive(index):
                let record = records.suspenses[index]
                let subtree = withSubtrees ? RenderTree(nodes, records: records, root: record.node) : nil
                if record.isResolved {
                    events.append(.resolved(record.id, subtree))
                } else if suspended.contains(index) {
                    events.append(.suspended(record.id, subtree))
                } else if record.pendingCount > 0 || record.row != nil {
                    // Pending, or held back by its SuspenseList (which row it waits for changed).
                    events.append(.waiting(record.id, subtree))
                }
            // Otherwise nothing is pending, but fallback timing holds its resolution back:
            // the `.resolved` event follows when the hold ends.
            case .errorBoundary(let index) where isAlive(errorBoundary: index):
                events.append(caughtEvent(index, withSubtree: withSubtrees))
            default:
                break
            }
        }
        return events
    }

    private func caughtEvent(_ index: ErrorBoundaryIndex, withSubtree: Bool) -> RenderEvent.Kind {
        let record = records.errorBoundaries[index]
        let subtree = withSubtree ? RenderTree(nodes, records: records, root: record.node) : nil
        return .caught(record.id, subtree, error: record.caught)
    }

    private func isAlive(errorBoundary index: ErrorBoundaryIndex) -> Bool {
        !records.scopes[records.errorBoundaries[index].outer.scope].isDead
    }
}
