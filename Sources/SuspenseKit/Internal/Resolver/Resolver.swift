/// Walks a component tree into a tree of nodes, suspending and re-evaluating components as their
/// queries resolve. Public only because `Component._resolve` names it; not API.
///
/// One suspended component, from throw to re-evaluation:
///
/// 1. `evaluate` makes a child (`try UserCard(id: 1)`); the initializer calls `resolveValue`, which
///    finds no entry in the cache and throws a keyed ``Promise``.
/// 2. `childFailed` (Resolver+Suspension) turns the promise into a *slot*: a fragment node in the
///    child's place, the context it was evaluated in (parent node, nearest Suspense and
///    ErrorBoundary, component path, position) and a thunk that makes and resolves it again. The
///    nearest Suspense counts it as pending, and the query goes into the wait table.
/// 3. The pass goes on with the next sibling, so every query under a boundary is found in one
///    pass. The Suspense evaluates its fallback, since something beneath it is pending.
/// 4. After the pass the render loop (RenderLoop) hands new queries to the `QueryRunner`, which
///    starts them, or joins a run of the same key already in flight in the same cache.
/// 5. When the result arrives, `apply` takes the slots waiting on it and `rerun`s each in its
///    captured context: the initializer runs again, finds the value, and the component's subtree
///    fills the slot's fragment. The slot is retired; when a Suspense has no pending slot left,
///    `settle` resolves it (its fallback is discarded) and reports it as an event.
///
/// Failures travel the same way: an error thrown at the component goes to the nearest
/// ErrorBoundary (on the stack in a pass, by `route` for a slot), whose content is discarded,
/// retiring every slot in it.
///
/// The resolver owns every record of the render (see Records); nothing points back at it, so
/// when the render ends everything it captured is released.
public final class _Resolver {
    // The resolver's state is exempt from the runtime's exclusivity checks (each access was a
    // call into the runtime, and a thread-local lookup: together 4% of benchmark 6): the
    // resolver is used by one thread at a time, and never lends a property out while it writes it.
    @usableFromInline @exclusivity(unchecked) var context: EvaluationContext
    /// The tree being resolved; see ``NodeArena``.
    @exclusivity(unchecked) var nodes = NodeArena()
    /// The links of the component paths; see ``ComponentPath``.
    @exclusivity(unchecked) var paths = PathTable()
    /// Slots, boundaries and scopes, by index.
    @exclusivity(unchecked) var records = Records()
    /// The position of the place being evaluated, for boundary ids.
    @usableFromInline let positions = PositionStack()
    let rootNode: NodeArena.ID
    let options: RenderOptions
    let cache: QueryCache
    /// How many results the cache stored when the render's loop ended (for the size hints).
    @exclusivity(unchecked) var storedAtEnd = 0
    /// The cache and mailbox components read queries through (`resolveValue(key:)`).
    let scope: RenderScope
    /// How many levels of evaluation the pass running now has on the machine stack; past
    /// `maxLevelsOnStack` a subtree is deferred (see Resolver+Pass).
    @usableFromInline @exclusivity(unchecked) var levelsOnStack = 0
    /// How many levels a pass keeps on the stack (`RenderOptions.levelsOnStack`, 48): a level is
    /// at most a few kilobytes in a debug build with AddressSanitizer, so this fits the 512 KiB
    /// stacks of secondary threads on Apple platforms with room for the components' own work.
    @usableFromInline let maxLevelsOnStack: Int
    /// Deferred subtrees waiting to be evaluated from the pass loop, in the order deferred.
    @exclusivity(unchecked) var ready = ReadyQueue()
    /// The queries slots wait on; see WaitTable.
    @exclusivity(unchecked) var waits = WaitTable()
    /// The Suspenses the pass must settle.
    @exclusivity(unchecked) var settling = SettleQueue()
    /// What changed in the visible tree since the shell, not reported yet.
    @exclusivity(unchecked) var changeLog = ChangeLog()
    /// Fallback timing, timeouts and the deadline.
    @exclusivity(unchecked) var timing = TimingState()
    /// Failures met, reported, and the one that reached the root.
    @exclusivity(unchecked) var failures = FailureState()
    /// What led to the last pass (see `pass`): the cause of the queries it discovered.
    @exclusivity(unchecked) var passCause = PassCause.firstPass
    /// Collects the render's report and diagnostics, when asked for (see ReportCollector).
    @usableFromInline @exclusivity(unchecked) var collector: ReportCollector?
    @exclusivity(unchecked) var naming = TypeNaming()
    /// Recognizes thrown promises without an existential cast.
    @exclusivity(unchecked) var promiseTypes = PromiseTypes()
    /// The last tags checked; see ``RecentTags``.
    @exclusivity(unchecked) private var recentTags = RecentTags()
    /// Whether components get a node of their own (`RenderMode.componentNodes`). A void
    /// element's content turns it on while it is evaluated, so that what counts as a child
    /// there, and the error's message, are the same in every format.
    @exclusivity(unchecked) var componentNodes = true

    static let root: SuspenseIndex = 0

    init(cache: QueryCache, options: RenderOptions) {
        self.cache = cache
        self.scope = RenderScope(cache: cache, mailbox: QueryMailbox(), clock: RenderClock(options.clock))
        self.options = options
        maxLevelsOnStack = max(1, options.levelsOnStack)
        if let spare = NodeArena.spareRecords.take() { nodes.records = spare }
        rootNode = nodes.makeFragment()
        let rootScope = records.makeScope(parent: nil)
        context = EvaluationContext(
            parent: rootNode, scope: rootScope, suspense: Self.root, errorBoundary: -1, region: .root,
            path: ComponentPath(), depth: 0, environment: 0)
        records.suspenses.append(
            SuspenseRecord(
                id: BoundaryID(nil), outer: nil, node: rootNode, contentNode: rootNode,
                fallbackNode: rootNode, contentScope: rootScope, typedValueType: nil, content: nil,
                fallback: nil))
    }

    deinit {
        NodeArena.spareRecords.give(&nodes.records)
    }

    // MARK: Evaluation

    /// The first pass: makes and evaluates the root, exactly as a builder child is made and
    /// evaluated, so that a root that reads data suspends the render instead of failing it.
    func evaluateRoot<C: Component>(_ make: @escaping () throws -> C) {
        pass(.firstPass) {
            do {
                try evaluate(make, newLevel: false)
            } catch {
                // Behind the subtrees deferred before it, which may fail first.
                if ready.hasFresh {
                    postpone(at: context) { $0.failures.uncaught = $0.renderError(error) }
                } else {
                    failures.uncaught = renderError(error)
                }
            }
        }
    }

    // The generic path below, and the `_resolve` of every primitive, are `@inlinable`: a user's
    // components live in the user's module, where only inlinable code is specialized for them.
    // Without it every node went through unspecialized generics (metadata lookups, value
    // witnesses, boxes), most of the time of a static render. What is not generic stays out of
    // line, behind the `@usableFromInline` helpers.

    /// Evaluates one child: makes it, then resolves it, one position deeper. A promise thrown
    /// while making it suspends the child in a slot; any other error goes up, located at it. A
    /// container that kept what its builder closure threw (a `BuildFailure`, thrown as it is
    /// resolved) failed as it was made: the same.
    @inlinable
    func evaluate<C: Component>(_ make: @escaping () throws -> C) throws {
        try evaluate(make, newLevel: true)
    }

    /// `evaluate(_:)`, at the current position when `newLevel` is false: a boundary's content,
    /// whose children are numbered directly below the boundary.
    @inlinable
    func evaluate<C: Component>(_ make: @escaping () throws -> C, newLevel: Bool) throws {
        if newLevel { positions.push() }
        defer { if newLevel { positions.pop() } }
        // Past the levels a pass keeps on the machine stack, the subtree is evaluated later,
        // from the pass loop, in this place (Resolver+Pass).
        if levelsOnStack >= maxLevelsOnStack {
            deferSubtree(with: make) { try $0.evaluate($1, newLevel: false) }
            return
        }
        levelsOnStack &+= 1
        defer { levelsOnStack &-= 1 }
        let component: C
        do {
            component = try make()
        } catch {
            try childFailed(error, making: make)
            return
        }
        do {
            try C._resolve(component, in: self)
        } catch {
            try resolveFailed(error, making: make)
        }
    }

    /// `evaluate(_:)` for a child made from an input, such as one element of a ``ForEach``: the
    /// closure that makes it again is built only if it suspends, so that a list of children
    /// costs no allocation per child.
    @inlinable
    func evaluate<Input, C: Component>(_ input: Input, with make: @escaping (Input) throws -> C) throws {
        positions.push()
        defer { positions.pop() }
        if levelsOnStack >= maxLevelsOnStack {
            deferSubtree(with: (input, make)) { resolver, child in
                try resolver.evaluate({ try child.1(child.0) }, newLevel: false)
            }
            return
        }
        levelsOnStack &+= 1
        defer { levelsOnStack &-= 1 }
        let component: C
        do {
            component = try make(input)
        } catch {
            try childFailed(error, making: make, from: input)
            return
        }
        do {
            try C._resolve(component, in: self)
        } catch {
            try resolveFailed(error, making: make, from: input)
        }
    }

    /// Resolves a ``Text`` or ``Element`` the builder made already, one position deeper, like
    /// `evaluate(_:)`: what making it threw (`failed`) is handled as `evaluate` handles it, with
    /// the closure that makes it again. Its content's own failure was taken out when it was
    /// made (see `ComponentBuilder`), so resolving it throws no `BuildFailure`.
    @inlinable
    func resolveMade<C: Component>(_ made: C, failed: _MadeFailure<C>?) throws {
        positions.push()
        defer { positions.pop() }
        if levelsOnStack >= maxLevelsOnStack {
            deferSubtree(with: (made, failed)) { try $0.resolveMadeHere($1.0, failed: $1.1) }
            return
        }
        levelsOnStack &+= 1
        defer { levelsOnStack &-= 1 }
        try resolveMadeHere(made, failed: failed)
    }

    /// `resolveMade(_:failed:)` at the current position.
    @inlinable
    func resolveMadeHere<C: Component>(_ made: C, failed: _MadeFailure<C>?) throws {
        if let failed {
            try childFailed(failed.error, making: failed.make)
            return
        }
        try C._resolve(made, in: self)
    }

    @inlinable
    func resolveComposite<C: Component>(_ component: C) throws {
        if levelsOnStack >= maxLevelsOnStack {
            deferSubtree(with: component) { try $0.resolveComposite($1) }
            return
        }
        levelsOnStack &+= 1
        defer { levelsOnStack &-= 1 }
        let name = name(of: C.self)
        let parent = try enterComponent(named: name)
        defer { leaveComponent(restoring: parent) }
        let body: C.Body
        do {
            body = try component.body
        } catch {
            try bodyFailed(error, of: component, named: name)
            return
        }
        if let collector { collector.bodyReturned(name) }
        do {
            try C.Body._resolve(body, in: self)
        } catch {
            try bodyResolveFailed(error, of: component, named: name)
        }
    }

    /// Adds a user component's node and makes it the parent, one level deeper, its name on the
    /// path; returns the parent node (a `NodeArena.ID`) to restore (`leaveComponent`). Only what
    /// it changes is saved and restored, not the whole context: a copy of the context retained
    /// its path, and restoring it released one, for every component.
    @usableFromInline
    func enterComponent(named name: String) throws -> Int32 {
        let nameIndex = nodes.names.index(of: name)
        // Sealed in the parent's own context, so that its other children find it sealed too.
        paths.append(nameIndex, to: &context.path)
        context.depth += 1
        do {
            try checkDepth(context.depth, name)
        } catch {
            paths.removeLast(from: &context.path)
            context.depth -= 1
            throw error
        }
        let parent = context.parent
        if componentNodes {
            context.parent = nodes.appendComponent(name: nameIndex, to: parent)
        }
        collector?.componentMade(name)
        return parent
    }

    /// Undoes `enterComponent`. Everything else a component's content changes in the context
    /// (a boundary's place, an environment, an element's parent) is restored by what changed
    /// it, on the way out, thrown errors included.
    @usableFromInline
    func leaveComponent(restoring parent: Int32) {
        paths.removeLast(from: &context.path)
        context.depth -= 1
        context.parent = parent
    }

    /// A node without children.
    @usableFromInline
    enum Leaf {
        case text(String)
        case rawHTML(String)
    }

    @usableFromInline
    func appendLeaf(_ leaf: Leaf) {
        switch leaf {
        case .text(let text): nodes.appendText(text, to: context.parent)
        case .rawHTML(let html): nodes.appendRawHTML(html, to: context.parent)
        }
    }

    /// A ``ResponseDeclaration``, checked here so that the response never sees one HTTP cannot
    /// carry: an invalid one is an error at the component that declared it.
    @usableFromInline
    func appendDeclaration(_ declaration: ResponseDeclaration) throws {
        do {
            try HTTPNames.check(declaration)
        } catch {
            throw located(error, at: context.path)
        }
        nodes.appendDeclaration(declaration, to: context.parent)
    }

    /// An ``ErrorMessage``: text whose HTML is safe to show a visitor, and the error's
    /// description, which `.tree` and `.plain` show instead. The choice is made here, once, so
    /// that renderers need no options: with details hidden, HTML shows a generic message for an
    /// error that is not presentable.
    func appendErrorMessage(_ error: any Error) {
        let description = describeError(error, suggestion: true)
        let presented: String
        if error is any PresentableError || options.errorDetails == .shown {
            presented = description.isEmpty ? ErrorMessage.genericMessage : description
        } else {
            presented = ErrorMessage.genericMessage
        }
        nodes.appendErrorMessage(presented: presented, description: description, to: context.parent)
    }

    @usableFromInline
    func resolveElement(tag: String, attributes: [Attribute], content: (_Resolver) throws -> Void) throws {
        try checkDepth(context.depth + 1, "<\(tag)>")
        // A name HTML cannot carry, or an attribute given twice, is an error at the element,
        // routed to its ErrorBoundary, rather than a render that fails only when HTML is asked for.
        if !recentTags.moveToFront(tag) {
            do {
                try HTMLNames.checkTag(tag)
            } catch {
                throw located(error, at: context.path)
            }
            recentTags.add(TagCheck(tag: tag, isVoid: HTMLNames.isVoid(tag), name: nodes.names.index(of: tag)))
        }
        if !attributes.isEmpty {
            do {
                try HTMLNames.checkAttributes(attributes, tag: tag)
            } catch {
                throw located(error, at: context.path)
            }
        }
        let node = nodes.appendElement(name: recentTags.last.name, attributes: attributes, to: context.parent)
        let saved = context.parent
        let savedDepth = context.depth
        context.parent = node
        context.depth += 1
        defer {
            context.parent = saved
            context.depth = savedDepth
        }
        if recentTags.last.isVoid {  // this tag's, since nothing else was checked since
            try resolveVoidContent(tag, node, content)
        } else {
            try content(self)
        }
    }

    /// Resolves a void element's content, which may leave no node (an empty Group, an `if` that
    /// is false); anything else is an error at the element, in every format. Content that
    /// suspended counts too, checked now in its pass: it could not be checked when it later
    /// resolves. Out of line, so that other elements pay for nothing but the test of `isVoid`.
    @inline(never)
    private func resolveVoidContent(_ tag: String, _ node: NodeArena.ID, _ content: (_Resolver) throws -> Void) throws {
        let saved = componentNodes
        componentNodes = true
        defer { componentNodes = saved }
        try content(self)
        if nodes.records[Int(node)].first >= 0 {
            throw located(nodes.voidElementError(tag, childrenOf: node), at: context.path)
        }
    }

    /// Fails, at the current path, when a level at `depth` would nest deeper than
    /// ``RenderOptions/maxDepth``. The machine stack is bounded by deferring (Resolver+Pass).
    @inline(__always)
    func checkDepth(_ depth: Int, _ what: @autoclosure () -> String) throws {
        if depth > options.maxDepth {
            throw located(SuspenseError.tooDeep(component: what(), limit: options.maxDepth), at: context.path)
        }
    }
}
