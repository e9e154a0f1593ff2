// Who owns what: the resolver owns every record below, in the arrays of one `Records` value.
// Records refer to each other by index, never by reference, so no record can keep another (or
// the resolver) alive: when the resolver goes, everything a render captured goes with it. The
// closures records hold capture only the user's component values.

/// Indices of records in `Records`.
typealias SlotIndex = Int
typealias SuspenseIndex = Int
typealias ErrorBoundaryIndex = Int
typealias ScopeIndex = Int
typealias ListIndex = Int

/// The boundary whose visible region holds a place: where a change there shows.
enum Region: Equatable {
    case root
    case suspense(SuspenseIndex)
    case errorBoundary(ErrorBoundaryIndex)
}

/// Where evaluation is happening: what a suspended child captures to be evaluated again later.
@usableFromInline
struct EvaluationContext {
    var parent: NodeArena.ID
    var scope: ScopeIndex
    /// The nearest Suspense; the root's record (index 0) when there is none.
    var suspense: SuspenseIndex
    /// The nearest ErrorBoundary, or -1.
    var errorBoundary: ErrorBoundaryIndex
    var region: Region
    var path: ComponentPath
    /// How many components, elements and boundaries enclose this place.
    @usableFromInline var depth: Int
    /// The environment values of this place, in `Records.environments`.
    var environment: EnvironmentIndex
    /// The SuspenseList whose rows this place is in (not inside a Suspense of a row), or -1.
    var list: ListIndex = -1
}

/// A region of the tree that can be discarded as a whole: the content of a boundary that caught
/// an error, the fallback of a Suspense that resolved. Discarding it retires every slot in it.
struct ScopeRecord {
    var isDead = false
    var children: [ScopeIndex] = []
    var slots: [SlotIndex] = []
}

/// A child evaluated later in its captured context: once its query resolves (a child that
/// suspended, `isPending`), or from the pass loop (a subtree deferred below the stack's bound,
/// `isReady`; see Resolver+Pass).
struct SlotRecord {
    let node: NodeArena.ID
    let context: EvaluationContext
    /// Its place, below which its content is numbered again when it is evaluated again.
    let position: SlotPosition
    /// Whether a boundary had taken that position already.
    let positionClaimed: Bool
    let component: String
    /// Whether the component's name ends its error path (not for a body, whose component is
    /// already on the path, nor for builder plumbing).
    let pathAddsComponent: Bool
    /// Evaluates the child again; dropped once the slot is retired.
    var thunk: (any _SlotThunk)?
    var isPending = true
    /// A deferred subtree not evaluated yet; it counts in no Suspense's pending slots.
    var isReady = false
    var waitsInFlight = false
    var query: QueryID
    var queryLabel: String
    var resuspensions = 0
    /// The typed Suspense that takes the value of this slot's keyless promise, or -1.
    var deliversTo: SuspenseIndex = -1
}

struct SuspenseRecord {
    let id: BoundaryID
    /// Where the Suspense itself stands; nil for the root's record.
    let outer: EvaluationContext?
    /// The boundary's own node, and the fragments of its content and fallback.
    let node: NodeArena.ID
    let contentNode: NodeArena.ID
    let fallbackNode: NodeArena.ID
    var contentScope: ScopeIndex
    var fallbackScope: ScopeIndex = -1
    /// Pending slots whose nearest Suspense this is.
    var pendingCount = 0
    var slots: [SlotIndex] = []
    var isResolved = false
    let typedValueType: (any Any.Type)?
    /// Its timeout and fallback timing, if any.
    var timing: _SuspenseTiming? = nil
    /// When it last began showing its fallback, on the render's clock (kept only with timing).
    var pendingSince: Duration = .zero
    /// Deferred subtrees in its region (and in the Suspenses inside it) not evaluated yet.
    var deferred = 0
    /// Whether its content returned with deferred subtrees beneath it and nothing pending: it
    /// decides between content and fallback once they have been evaluated (Resolver+Pass).
    var undecided = false
    /// How many values of keyless promises its content was evaluated again with.
    var deliveries = 0
    /// The row of a SuspenseList it is a boundary of, which decides when it may reveal.
    var row: ListRow? = nil
    let content: ((_Resolver, Any?) throws -> Void)?
    let fallback: ((_Resolver) throws -> Void)?

    var isRoot: Bool { outer == nil }
}

struct ErrorBoundaryRecord {
    let id: BoundaryID
    /// Where the ErrorBoundary itself stands; its fallback is evaluated here.
    let outer: EvaluationContext
    let node: NodeArena.ID
    let contentNode: NodeArena.ID
    let fallbackNode: NodeArena.ID
    /// Its content's scope; a new one for each attempt of a retry.
    var contentScope: ScopeIndex
    var caught: (any Error)?
    let fallback: (_Resolver, any Error) throws -> Void
    /// Which errors it catches (for a typed boundary); nil for every error.
    let filter: ((any Error) -> Bool)?
    /// The boundary's `onError` handlers.
    let onError: ((CaughtError) -> Void)?
    /// How its content is tried again before its fallback shows, and the content to evaluate.
    var retry: RetryPolicy? = nil
    var retryContent: ((_Resolver) throws -> Void)? = nil
    /// How many times its content was evaluated: 1, plus one per retry.
    var attempts = 1

    /// Whether it catches `error` (the underlying error, not located): never a ``Promise``,
    /// which suspends and is no error to any boundary.
    func catches(_ error: any Error) -> Bool {
        !(error is any AnyPromise) && (filter?(error) ?? true)
    }
}

/// Every record of one render.
struct Records {
    var slots: [SlotRecord] = []
    var suspenses: [SuspenseRecord] = []
    var errorBoundaries: [ErrorBoundaryRecord] = []
    var scopes: [ScopeRecord] = []
    /// Every SuspenseList of the render; see Records+Lists.
    var lists: [ListRecord] = []
    /// Every environment an `.environment` made, by index; 0 holds the default values.
    var environments = [EnvironmentValues()]

    /// How many records captured an evaluation context (and so its environment): slots, and
    /// boundaries, which keep the context they stand in.
    var contextCaptures: Int {
        slots.count + suspenses.count + errorBoundaries.count
    }

    /// Makes room for the slots the hint says the last render of the root type made. A slot
    /// record is a few hundred bytes: grown by doubling, 100,000 of them were copied about
    /// seventeen times, onto fresh pages each time.
    mutating func reserve(_ hint: RenderSizeHints.Size) {
        slots.reserveCapacity(hint.slots)
    }

    mutating func makeScope(parent: ScopeIndex?) -> ScopeIndex {
        let index = scopes.count
        scopes.append(ScopeRecord())
        if let parent { scopes[parent].children.append(index) }
        return index
    }

    func isAlive(_ suspense: SuspenseIndex) -> Bool {
        guard let outer = suspenses[suspense].outer else { return true }
        return !scopes[outer.scope].isDead
    }

    /// Marks `scope` and every scope inside it dead.
    /// Iterative, so that deep trees cannot overflow the stack.
    /// Returns the slots it discarded that were still pending or ready, for the resolver to retire.
    mutating func kill(_ scope: ScopeIndex) -> [SlotIndex] {
        var discarded: [SlotIndex] = []
        var stack = [scope]
        while let index = stack.popLast() {
            guard !scopes[index].isDead else { continue }
            scopes[index].isDead = true
            let slots = scopes[index].slots
            scopes[index].slots = []
            for slot in slots where self.slots[slot].isPending || self.slots[slot].isReady {
                discarded.append(slot)
            }
            stack.append(contentsOf: scopes[index].children)
            scopes[index].children = []
        }
        return discarded
    }

    /// The queries a Suspense's pending slots wait on, each once, in document order: the order
    /// of the slots' places, whatever order they suspended in.
    func pendingQueries(of suspense: SuspenseIndex) -> [String] {
        var pending = suspenses[suspense].slots.filter { slots[$0].isPending }
        if pending.count > 1 {
            // Each slot's link made once, not in every comparison.
            pending = pending.map { ($0, slots[$0].position.link) }
                .sorted { PositionLink.precedes($0.1, $1.1) }
                .map(\.0)
        }
        var seen = Set<String>()
        var labels: [String] = []
        for slot in pending where seen.insert(slots[slot].queryLabel).inserted {
            labels.append(slots[slot].queryLabel)
        }
        return labels
    }
}

/// Identifies one query execution: by key, or, for a keyless promise, by a number of this render.
enum QueryID: Hashable, Sendable {
    case key(String)
    case anonymous(Int)
}
