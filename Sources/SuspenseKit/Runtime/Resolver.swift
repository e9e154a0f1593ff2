/// Walks a component tree into a tree of nodes, suspending and re-evaluating components as their
/// queries resolve. Public only because `Component._resolve` names it; not API.
///
/// Components are evaluated on the render's own task, one at a time; only queries run
/// concurrently, in one task group. A child that throws a ``Promise`` becomes a *slot*: its
/// place in the tree, its context (parent node, nearest boundaries, component path) and how to
/// evaluate it again. When a query finishes, only the slots waiting on it are re-evaluated.
public final class _Resolver {
    // The two properties touched for every node are exempt from the runtime's exclusivity
    // checks (each access was a call into the runtime): the resolver is used by one task at a
    // time, and never lends either one out while it writes it.
    @exclusivity(unchecked) var context: EvaluationContext
    let root: SuspenseRecord
    /// The tree being resolved; see ``NodeArena``.
    @exclusivity(unchecked) var nodes = NodeArena()
    let rootNode: NodeArena.ID
    let options: RenderOptions
    /// The last tag whose name was checked, so that a list of one tag checks it once.
    private var lastCheckedTag: String?
    /// The effective ``RenderOptions/maxDepth``: lower when renders cannot run on large stacks.
    let maxDepth: Int
    /// How much of the current thread's stack a pass may use, and what happens past it.
    enum StackPolicy {
        /// No limit but `maxDepth`: the render runs on a large stack.
        case unlimited
        /// Past `budget` bytes, throw `NeedsLargerStack`: the render starts over on a large stack.
        case restartBeyond(budget: Int)
        /// Past `budget` bytes, fail at the component: the render must stay on its caller's actor.
        case failBeyond(budget: Int)
    }

    var stackPolicy = StackPolicy.unlimited
    /// Where the current pass must stop: anchored at the start of every pass, since an actor may
    /// resume a render on another thread between passes.
    private var stackLimit: StackLimit?

    /// Queries discovered since the last call to `takeNewQueries()`, in discovery order.
    private var newQueries: [NewQuery] = []
    /// The slots waiting on each query, and whether it is running: one table, so that each
    /// suspension and each result looks its key up once.
    private var waiting: [QueryID: Waiters] = [:]
    /// Pending slots waiting on a query that is running; the render goes on while this is > 0.
    private(set) var activeWaiters = 0
    private var nextAnonymousQuery = 0
    /// What each keyless query is called in frame causes: its promise's type.
    private(set) var anonymousLabels: [Int: String] = [:]
    private var touched: [SuspenseRecord] = []
    private var typeNames: [ObjectIdentifier: String] = [:]
    /// The type named last: lists name one component type many times in a row.
    private var lastNamed: (type: ObjectIdentifier, name: String)?
    let cache: QueryCache
    /// Set when an error reached the root; the render stops and throws it.
    private(set) var fatalError: RenderError?

    init(cache: QueryCache, options: RenderOptions) {
        self.cache = cache
        self.options = options
        self.maxDepth =
            DeepStackExecutor.shared == nil
            ? min(options.maxDepth, DeepStackExecutor.fallbackMaxDepth) : options.maxDepth
        let rootScope = Scope(parent: nil)
        rootNode = nodes.makeFragment()
        root = SuspenseRecord(
            outer: nil,
            contentNode: nodes.makeFragment(),
            fallbackNode: nodes.makeFragment(),
            typedValueType: nil,
            content: nil,
            fallback: nil
        )
        root.contentScope = rootScope
        context = EvaluationContext(
            parent: rootNode, scope: rootScope, suspense: root, errorBoundary: nil, path: ComponentPath())
    }

    // MARK: Evaluation

    /// Evaluates the root component. Throws a ``RenderError`` for an error no boundary caught.
    func evaluateRoot<C: Component>(_ component: C) throws {
        anchorStackLimit()
        do {
            try QueryCache.$current.withValue(cache) {
                try evaluate { component }
            }
        } catch let error as NeedsLargerStack {
            throw error
        } catch {
            throw renderError(error)
        }
        settle()
    }

    // The generic path below, and the `_resolve` of every primitive, are `@inlinable`: a user's
    // components live in the user's module, where only inlinable code is specialized for them.
    // Without it every node went through unspecialized generics (metadata lookups, value
    // witnesses, boxes), most of the time of a static render. What is not generic stays out of
    // line, behind the `@usableFromInline` helpers.

    /// Evaluates one child: makes it, then resolves it. A promise thrown while making it
    /// suspends the child in a slot; any other error goes up, located at the child.
    @inlinable
    func evaluate<C: Component>(_ make: @escaping () throws -> C) throws {
        let component: C
        do {
            component = try make()
        } catch {
            try childFailed(error, type: C.self) { resolver in
                try C._resolve(try make(), in: resolver)
            }
            return
        }
        try C._resolve(component, in: self)
    }

    /// `evaluate(_:)` for a child made from an input, such as one element of a ``ForEach``: the
    /// closure that makes it again is built only if it suspends, so that a list of children
    /// costs no allocation per child.
    @inlinable
    func evaluate<Input, C: Component>(_ input: Input, with make: @escaping (Input) throws -> C) throws {
        let component: C
        do {
            component = try make(input)
        } catch {
            try childFailed(error, type: C.self) { resolver in
                try C._resolve(try make(input), in: resolver)
            }
            return
        }
        try C._resolve(component, in: self)
    }

    /// Making a child of type `type` threw: a promise suspends it in a slot that `rerun`
    /// evaluates again; any other error goes up, located at the child.
    @usableFromInline
    func childFailed(_ error: any Error, type: any Any.Type, rerun: @escaping (_Resolver) throws -> Void) throws {
        if error is NeedsLargerStack { throw error }
        let name = name(of: type)
        if let promise = error as? any AnyPromise {
            try suspend(promise, component: name, pathAddsComponent: addsName(name), thunk: rerun)
            return
        }
        throw located(error, at: errorPath(child: name))
    }

    @inlinable
    func resolveComposite<C: Component>(_ component: C) throws {
        let name = name(of: C.self)
        let saved = try enterComponent(named: name)
        defer { leave(restoring: saved) }
        let body: C.Body
        do {
            body = try component.body
        } catch {
            // The slot re-evaluates only the body: the component itself was made already.
            try bodyFailed(error, component: name) { resolver in
                try C.Body._resolve(try component.body, in: resolver)
            }
            return
        }
        try C.Body._resolve(body, in: self)
    }

    /// Adds a user component's node and makes it the parent; returns the context to restore.
    @usableFromInline
    func enterComponent(named name: String) throws -> EvaluationContext {
        let saved = context
        context.path.append(name)
        context.depth += 1
        do {
            try checkDepth(context.depth, name)
        } catch {
            context = saved
            throw error
        }
        context.parent = nodes.appendComponent(name: name, to: saved.parent)
        return saved
    }

    @usableFromInline
    func leave(restoring saved: EvaluationContext) {
        context = saved
    }

    /// A component's body threw: a promise suspends the component in a slot that `rerun`
    /// evaluates again; any other error goes up, located at the component.
    @usableFromInline
    func bodyFailed(_ error: any Error, component name: String, rerun: @escaping (_Resolver) throws -> Void) throws {
        if error is NeedsLargerStack { throw error }
        if let promise = error as? any AnyPromise {
            try suspend(promise, component: name, pathAddsComponent: false, thunk: rerun)
            return
        }
        throw located(error, at: context.path)
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

    @usableFromInline
    func resolveElement(tag: String, attributes: [Attribute], content: (_Resolver) throws -> Void) throws {
        try checkDepth(context.depth + 1, "<\(tag)>")
        // A name HTML cannot carry is an error at the element, routed to its ErrorBoundary,
        // rather than a render that fails only when HTML is asked for.
        if tag != lastCheckedTag || !attributes.isEmpty {
            do {
                try HTMLNames.checkTag(tag)
                for attribute in attributes {
                    try HTMLNames.checkAttribute(attribute.name, tag: tag)
                }
            } catch {
                throw located(error, at: context.path)
            }
            lastCheckedTag = tag
        }
        let node = nodes.appendElement(tag: tag, attributes: attributes, to: context.parent)
        let saved = context.parent
        let savedDepth = context.depth
        context.parent = node
        context.depth += 1
        defer {
            context.parent = saved
            context.depth = savedDepth
        }
        try content(self)
    }

    @usableFromInline
    func resolveSuspense(
        typedValueType: (any Any.Type)?,
        content: @escaping (_Resolver, Any?) throws -> Void,
        fallback: @escaping (_Resolver) throws -> Void
    ) throws {
        try checkDepth(context.depth + 1, "Suspense")
        let record = SuspenseRecord(
            outer: context,
            contentNode: nodes.makeFragment(),
            fallbackNode: nodes.makeFragment(),
            typedValueType: typedValueType,
            content: content,
            fallback: fallback
        )
        nodes.appendSuspense(record, to: context.parent)
        try evaluateContent(of: record, value: nil)
        if record.pendingCount == 0 {
            record.isResolved = true
        } else {
            try evaluateFallback(of: record)
        }
    }

    private func evaluateContent(of record: SuspenseRecord, value: Any?) throws {
        guard let outer = record.outer, let content = record.content else { return }
        let saved = context
        context = EvaluationContext(
            parent: record.contentNode,
            scope: record.contentScope,
            suspense: record,
            errorBoundary: outer.errorBoundary,
            path: outer.path.appending("Suspense"),
            depth: outer.depth + 1
        )
        defer { context = saved }
        try content(self, value)
    }

    private func evaluateFallback(of record: SuspenseRecord) throws {
        guard let outer = record.outer, let fallback = record.fallback else { return }
        let scope = Scope(parent: outer.scope)
        record.fallbackScope = scope
        let saved = context
        context = outer
        context.parent = record.fallbackNode
        context.scope = scope
        context.path.append("Suspense")
        context.depth += 1
        defer { context = saved }
        try fallback(self)
    }

    @usableFromInline
    func resolveErrorBoundary(
        content: (_Resolver) throws -> Void,
        fallback: @escaping (_Resolver, any Error) throws -> Void
    ) throws {
        try checkDepth(context.depth + 1, "ErrorBoundary")
        let record = ErrorBoundaryRecord(
            outer: context,
            contentNode: nodes.makeFragment(),
            fallbackNode: nodes.makeFragment(),
            fallback: fallback
        )
        nodes.appendErrorBoundary(record, to: context.parent)
        let saved = context
        context.parent = record.contentNode
        context.scope = record.contentScope
        context.errorBoundary = record
        context.path.append("ErrorBoundary")
        context.depth += 1
        do {
            try content(self)
            context = saved
        } catch let error as NeedsLargerStack {
            context = saved
            throw error
        } catch {
            context = saved
            try `catch`(error, at: record)
        }
    }

    /// Shows `record`'s fallback for `error`. An error from the fallback is thrown, to go to the
    /// next boundary outside.
    private func `catch`(_ error: any Error, at record: ErrorBoundaryRecord) throws {
        let underlying = (error as? LocatedError)?.underlying ?? error
        record.caught = underlying
        record.contentScope.kill(retiring: retire)
        nodes.removeChildren(of: record.contentNode)
        let saved = context
        context = record.outer
        context.parent = record.fallbackNode
        context.scope = Scope(parent: record.outer.scope)
        context.path.append("ErrorBoundary")
        context.depth += 1
        defer { context = saved }
        do {
            try record.fallback(self, underlying)
        } catch let error as LocatedError {
            throw error
        } catch let error as NeedsLargerStack {
            throw error
        } catch {
            throw located(error, at: context.path)
        }
    }

    // MARK: Suspension

    /// Suspends a component in a slot. Its error path is the context's path, plus the component's
    /// name when `pathAddsComponent`; built only when an error needs it.
    private func suspend(
        _ promise: any AnyPromise,
        component: String,
        pathAddsComponent: Bool,
        thunk: @escaping (_Resolver) throws -> Void
    ) throws {
        let (query, label, target) = try identify(
            promise,
            component: component,
            errorPath: pathAddsComponent ? context.path.appending(component) : context.path
        )
        let slot = Slot(
            node: nodes.makeFragment(),
            context: context,
            component: component,
            pathAddsComponent: pathAddsComponent,
            query: query,
            queryLabel: label,
            thunk: thunk
        )
        slot.deliversTo = target
        nodes.link(slot.node, to: context.parent)
        context.scope.register(slot)
        context.suspense.pendingCount += 1
        context.suspense.slots.append(slot)
        wait(slot, on: query, promise: promise)
    }

    /// The query a promise stands for, its label in outputs, and, for a keyless promise, the
    /// typed Suspense that takes its value.
    private func identify(
        _ promise: any AnyPromise,
        component: String,
        errorPath: @autoclosure () -> ComponentPath
    ) throws -> (QueryID, String, SuspenseRecord?) {
        if let key = promise.key {
            return (.key(key), key, nil)
        }
        let suspense = context.suspense
        guard let valueType = suspense.typedValueType,
            ObjectIdentifier(valueType) == ObjectIdentifier(promise.valueType)
        else {
            throw located(
                SuspenseError.keylessPromise(component: component, valueType: promise.valueTypeName),
                at: errorPath()
            )
        }
        if suspense.deliveries >= options.maxResuspensions {
            throw located(
                SuspenseError.stillSuspending(
                    component: component,
                    attempts: suspense.deliveries,
                    lastQuery: promise.valueTypeName
                ),
                at: errorPath()
            )
        }
        nextAnonymousQuery += 1
        anonymousLabels[nextAnonymousQuery] = promise.valueTypeName
        return (.anonymous(nextAnonymousQuery), promise.valueTypeName, suspense)
    }

    private func wait(_ slot: Slot, on query: QueryID, promise: any AnyPromise) {
        slot.query = query
        // A key left pending for good, or stubbed as pending, never starts a query.
        let stub = stubbedOutcome(for: query, promise: promise)
        var neverResolves = false
        if case .key(let key) = query, case .pendingForever = cache.entry(for: key) {
            neverResolves = true
        } else if case .pending = stub {
            neverResolves = true
        }
        let starts = waiting[query, default: Waiters()].add(slot, running: !neverResolves)
        if neverResolves {
            return
        }
        slot.waitsInFlight = true
        activeWaiters += 1
        if starts {
            newQueries.append(NewQuery(id: query, promise: promise, stub: stub))
        }
    }

    /// The outcome a test stubbed for a query (``QueryCache/stub(_:with:)``): looked up by key,
    /// or by the `Promise<Value>` label for a keyless promise.
    private func stubbedOutcome(for query: QueryID, promise: any AnyPromise) -> QueryOutcome? {
        switch query {
        case .key(let key): return cache.stubbedOutcome(for: key)
        case .anonymous: return cache.stubbedOutcome(for: promise.valueTypeName)
        }
    }

    /// Takes a slot out of its Suspense's count: it resolved, or its region was discarded.
    private func retire(_ slot: Slot) {
        guard slot.isPending else { return }
        slot.isPending = false
        if slot.waitsInFlight {
            slot.waitsInFlight = false
            activeWaiters -= 1
        }
        let suspense = slot.context.suspense
        suspense.pendingCount -= 1
        if suspense.pendingCount == 0 {
            touched.append(suspense)
        }
    }

    /// Resolves every Suspense whose last pending slot went away, and discards its fallback.
    private func settle() {
        while let record = touched.popLast() {
            guard !record.isResolved, record.pendingCount == 0, record.isAlive, !record.isRoot else {
                continue
            }
            record.isResolved = true
            record.fallbackScope?.kill(retiring: retire)
            record.fallbackScope = nil
            nodes.removeChildren(of: record.fallbackNode)
        }
    }

    // MARK: Query results

    /// The queries to start now: those discovered since the last call that a live slot still
    /// waits on. A query whose waiters were all discarded (an ErrorBoundary caught beside them
    /// in the same pass) is never started.
    func takeNewQueries() -> [NewQuery] {
        defer { newQueries = [] }
        return newQueries.filter { new in
            if waiting[new.id]?.slots.contains(where: \.isPending) == true { return true }
            waiting[new.id] = nil
            return false
        }
    }

    /// Applies one query's result: stores it, then re-evaluates the slots waiting on it.
    func apply(_ result: Result<any Sendable, any Error>, for query: QueryID) {
        anchorStackLimit()
        if case .key(let key) = query {
            cache.record(result, for: key)
        }
        let slots = waiting.removeValue(forKey: query)?.slots ?? []
        QueryCache.$current.withValue(cache) {
            for slot in slots where slot.isPending && slot.waitsInFlight {
                slot.waitsInFlight = false
                activeWaiters -= 1
                switch (slot.deliversTo, result) {
                case (let target?, .success(let value)):
                    deliver(value, to: target)
                case (_?, .failure(let error)):
                    // A keyless query failed: the error surfaces at the component that threw it.
                    route(error, from: slot.context.errorBoundary, path: slot.errorPath)
                case (nil, _):
                    rerun(slot)
                }
                if fatalError != nil { return }
            }
        }
        settle()
    }

    private func rerun(_ slot: Slot) {
        let saved = context
        context = slot.context
        defer { context = saved }
        do {
            try slot.thunk(self)
            retire(slot)
        } catch let promise as any AnyPromise {
            slot.resuspensions += 1
            do {
                guard slot.resuspensions <= options.maxResuspensions else {
                    throw located(
                        SuspenseError.stillSuspending(
                            component: slot.component,
                            attempts: slot.resuspensions,
                            lastQuery: promise.key ?? promise.valueTypeName
                        ),
                        at: slot.errorPath
                    )
                }
                let (query, label, target) = try identify(
                    promise,
                    component: slot.component,
                    errorPath: slot.errorPath
                )
                slot.queryLabel = label
                slot.deliversTo = target
                wait(slot, on: query, promise: promise)
            } catch {
                route(error, from: slot.context.errorBoundary, path: slot.errorPath)
            }
        } catch {
            route(error, from: slot.context.errorBoundary, path: slot.errorPath)
        }
    }

    /// Gives a typed Suspense the value of its keyless promise: its content is evaluated again
    /// from scratch with the value.
    private func deliver(_ value: any Sendable, to record: SuspenseRecord) {
        guard record.isAlive, !record.isResolved, let outer = record.outer else { return }
        record.deliveries += 1
        record.contentScope.kill(retiring: retire)
        record.contentScope = Scope(parent: outer.scope)
        nodes.removeChildren(of: record.contentNode)
        do {
            try evaluateContent(of: record, value: value)
        } catch {
            route(error, from: outer.errorBoundary, path: outer.path.appending("Suspense"))
            return
        }
        if record.pendingCount == 0 {
            touched.append(record)
        }
    }

    /// Sends an error thrown outside the first pass to the nearest live ErrorBoundary, and
    /// onwards when that boundary's fallback throws; with none left, the render fails.
    private func route(_ error: any Error, from boundary: ErrorBoundaryRecord?, path: ComponentPath) {
        var error: any Error = error is LocatedError ? error : LocatedError(path: path, underlying: error)
        var boundary = boundary
        while let record = boundary {
            do {
                try `catch`(error, at: record)
                return
            } catch let next {
                error = next
                boundary = record.outer.errorBoundary
            }
        }
        fatalError = renderError(error)
    }

    /// Fails the render if the root itself is still suspended when no query is left running.
    func checkFinished() throws {
        if let fatalError { throw fatalError }
        if root.pendingCount > 0 {
            let slots = root.slots.filter(\.isPending)
            throw RenderError(
                path: slots.first?.errorPath.names ?? [],
                underlying: SuspenseError.rootSuspendedForever(queries: root.pendingQueries)
            )
        }
    }

    // MARK: Helpers

    /// Sets the limit of the pass that starts here, on this thread, from `stackPolicy`.
    private func anchorStackLimit() {
        switch stackPolicy {
        case .unlimited: stackLimit = nil
        case .restartBeyond(let budget), .failBeyond(let budget): stackLimit = StackLimit(budget: budget)
        }
    }

    /// Fails, at the current path, when a level at `depth` would nest deeper than the limit.
    ///
    /// Runs for every node, so it is cheap: the label is built only for an error, and the stack
    /// is measured every eighth level (a chain passes every level; siblings at one depth need
    /// no more than one check between them and the stack's end).
    @inline(__always)
    private func checkDepth(_ depth: Int, _ what: @autoclosure () -> String) throws {
        if depth > maxDepth {
            throw located(SuspenseError.tooDeep(component: what(), limit: maxDepth), at: context.path)
        }
        if depth & 7 == 0, let stackLimit, stackLimit.isExceeded {
            if case .failBeyond = stackPolicy {
                throw located(
                    SuspenseError.tooDeepForCallerStack(component: what(), depth: depth),
                    at: context.path
                )
            }
            throw NeedsLargerStack()
        }
    }

    private func located(_ error: any Error, at path: ComponentPath) -> any Error {
        error is LocatedError ? error : LocatedError(path: path, underlying: error)
    }

    private func renderError(_ error: any Error) -> RenderError {
        if let error = error as? RenderError { return error }
        if let located = error as? LocatedError {
            return RenderError(path: located.path.names, underlying: located.underlying)
        }
        return RenderError(path: context.path.names, underlying: error)
    }

    /// The path of a child about to be made: builder plumbing (a closure's whole content) adds
    /// no name of its own.
    private func errorPath(child name: String) -> ComponentPath {
        addsName(name) ? context.path.appending(name) : context.path
    }

    private func addsName(_ name: String) -> Bool {
        !name.hasPrefix("_")
    }

    /// A type's name as shown in paths and in the `.tree` format: no module, no generic arguments.
    @usableFromInline
    func name(of type: any Any.Type) -> String {
        let id = ObjectIdentifier(type)
        if let lastNamed, lastNamed.type == id { return lastNamed.name }
        let name: String
        if let known = typeNames[id] {
            name = known
        } else {
            var described = String(describing: type)
            if let angle = described.firstIndex(of: "<") {
                described = String(described[..<angle])
            }
            typeNames[id] = described
            name = described
        }
        lastNamed = (id, name)
        return name
    }
}
