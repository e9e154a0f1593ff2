/// A region of the tree that can be discarded as a whole: the content of a boundary that caught
/// an error, the fallback of a Suspense that resolved. Discarding it retires every slot in it.
final class Scope {
    private(set) var isDead = false
    private var children: [Scope] = []
    private var slots: [Slot] = []

    init(parent: Scope?) {
        parent?.children.append(self)
    }

    func register(_ slot: Slot) {
        slots.append(slot)
    }

    /// Marks this scope and every scope inside it dead and hands each pending slot to `retire`.
    /// Iterative, so that deep trees cannot overflow the stack.
    func kill(retiring retire: (Slot) -> Void) {
        var stack: [Scope] = [self]
        while let scope = stack.popLast() {
            guard !scope.isDead else { continue }
            scope.isDead = true
            for slot in scope.slots where slot.isPending {
                retire(slot)
            }
            scope.slots = []
            stack.append(contentsOf: scope.children)
            scope.children = []
        }
    }
}

/// Identifies one query execution: by key, or, for a keyless promise, by a number of this render.
enum QueryID: Hashable, Sendable {
    case key(String)
    case anonymous(Int)
}

/// The slots waiting on one query, in the order they suspended, and whether it is running.
struct Waiters {
    var slots: [Slot] = []
    var isRunning = false

    /// Adds a slot; returns whether the query must start now (`running`, and not yet started).
    mutating func add(_ slot: Slot, running: Bool) -> Bool {
        slots.append(slot)
        guard running, !isRunning else { return false }
        isRunning = true
        return true
    }
}

/// A query discovered in a pass, to start once the pass is over: with the outcome a test
/// stubbed for it, if any, looked up once when it was discovered.
struct NewQuery {
    let id: QueryID
    let promise: any AnyPromise
    let stub: QueryOutcome?
}

/// Where evaluation is happening: what a suspended child captures to be re-evaluated later.
@usableFromInline
struct EvaluationContext {
    var parent: NodeArena.ID
    var scope: Scope
    var suspense: SuspenseRecord
    var errorBoundary: ErrorBoundaryRecord?
    var path: ComponentPath
    /// How many components, elements and boundaries enclose this place.
    var depth = 0
}

/// A child that suspended: re-evaluated in its captured context once its query resolves.
final class Slot {
    let node: NodeArena.ID
    let context: EvaluationContext
    let component: String
    /// Whether the component's name ends its error path (not when its context's path already
    /// ends with it, nor for builder plumbing).
    let pathAddsComponent: Bool
    /// The path of the component, where errors it throws are located.
    var errorPath: ComponentPath {
        pathAddsComponent ? context.path.appending(component) : context.path
    }
    let thunk: (_Resolver) throws -> Void
    var isPending = true
    var waitsInFlight = false
    var query: QueryID
    var queryLabel: String
    var resuspensions = 0
    /// A typed Suspense that takes the value of this slot's keyless promise.
    var deliversTo: SuspenseRecord?

    init(
        node: NodeArena.ID,
        context: EvaluationContext,
        component: String,
        pathAddsComponent: Bool,
        query: QueryID,
        queryLabel: String,
        thunk: @escaping (_Resolver) throws -> Void
    ) {
        self.node = node
        var context = context
        context.parent = node
        self.context = context
        self.component = component
        self.pathAddsComponent = pathAddsComponent
        self.query = query
        self.queryLabel = queryLabel
        self.thunk = thunk
    }
}

final class SuspenseRecord {
    /// Where the Suspense itself lives; its fallback is evaluated here.
    let outer: EvaluationContext?
    /// Fragments in the resolver's arena holding the content and the fallback.
    let contentNode: NodeArena.ID
    let fallbackNode: NodeArena.ID
    var contentScope: Scope
    var fallbackScope: Scope?
    var pendingCount = 0
    var slots: [Slot] = []
    var isResolved = false
    var isRoot: Bool { outer == nil }
    let typedValueType: (any Any.Type)?
    var deliveries = 0
    let content: ((_Resolver, Any?) throws -> Void)?
    let fallback: ((_Resolver) throws -> Void)?

    init(
        outer: EvaluationContext?,
        contentNode: NodeArena.ID,
        fallbackNode: NodeArena.ID,
        typedValueType: (any Any.Type)?,
        content: ((_Resolver, Any?) throws -> Void)?,
        fallback: ((_Resolver) throws -> Void)?
    ) {
        self.outer = outer
        self.contentNode = contentNode
        self.fallbackNode = fallbackNode
        self.contentScope = Scope(parent: outer?.scope)
        self.typedValueType = typedValueType
        self.content = content
        self.fallback = fallback
    }

    var isAlive: Bool { !(outer?.scope.isDead ?? false) }

    /// The queries its live pending slots wait on, in discovery order, each once.
    var pendingQueries: [String] {
        var seen = Set<String>()
        var labels: [String] = []
        for slot in slots where slot.isPending && seen.insert(slot.queryLabel).inserted {
            labels.append(slot.queryLabel)
        }
        return labels
    }
}

final class ErrorBoundaryRecord {
    /// Where the ErrorBoundary itself lives; its fallback is evaluated here.
    let outer: EvaluationContext
    /// Fragments in the resolver's arena holding the content and the fallback.
    let contentNode: NodeArena.ID
    let fallbackNode: NodeArena.ID
    let contentScope: Scope
    var caught: (any Error)?
    let fallback: (_Resolver, any Error) throws -> Void

    init(
        outer: EvaluationContext,
        contentNode: NodeArena.ID,
        fallbackNode: NodeArena.ID,
        fallback: @escaping (_Resolver, any Error) throws -> Void
    ) {
        self.outer = outer
        self.contentNode = contentNode
        self.fallbackNode = fallbackNode
        self.contentScope = Scope(parent: outer.scope)
        self.fallback = fallback
    }
}

/// An error on its way to a boundary, with the path of the component that threw it.
struct LocatedError: Error {
    let path: ComponentPath
    let underlying: any Error
}

/// The names of the components and boundaries from the root to a place in the tree. Places share
/// their common prefix, so that going one level deeper costs O(1): copying an array at every
/// level made deep trees quadratic.
struct ComponentPath: Sendable {
    /// Immutable once made; `parent` is cleared only in `deinit`, on links no one else holds.
    private final class Link: @unchecked Sendable {
        let name: String
        var parent: Link?

        init(_ name: String, parent: Link?) {
            self.name = name
            self.parent = parent
        }

        /// Releases the chain above without recursion, as far as only this link holds it.
        deinit {
            var next = parent
            parent = nil
            while isKnownUniquelyReferenced(&next) {
                let following = next?.parent
                next?.parent = nil
                next = following
            }
        }
    }

    private var last: Link?

    init() {}

    mutating func append(_ name: String) {
        last = Link(name, parent: last)
    }

    func appending(_ name: String) -> ComponentPath {
        var copy = self
        copy.append(name)
        return copy
    }

    /// The names, root first.
    var names: [String] {
        var names: [String] = []
        var link = last
        while let current = link {
            names.append(current.name)
            link = current.parent
        }
        return names.reversed()
    }
}
