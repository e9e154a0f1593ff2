/// Walks a component tree into a tree of nodes, suspending and re-evaluating components as their
/// queries resolve. Public only because `Component._resolve` names it; not API.
///
/// Components are evaluated on the render's own task, one at a time; only queries run
/// concurrently, in one task group. A child that throws a ``Promise`` becomes a *slot*: its
/// place in the tree, its context (parent node, nearest boundaries, component path) and how to
/// evaluate it again. When a query finishes, only the slots waiting on it are re-evaluated.
public final class _Resolver {
    var context: EvaluationContext
    let root: SuspenseRecord
    let rootNode = BuildNode(.fragment)
    let options: RenderOptions
    /// The effective ``RenderOptions/maxDepth``: lower when renders cannot run on large stacks.
    let maxDepth: Int
    /// Set while the first pass runs on the caller's thread: going past it throws
    /// `NeedsLargerStack`, and the render starts over on a large stack.
    var stackLimit: StackLimit?

    /// Queries discovered since the last call to `takeNewQueries()`, in discovery order.
    private var newQueries: [(QueryID, any AnyPromise)] = []
    private var waiting: [QueryID: [Slot]] = [:]
    private var inFlight: Set<QueryID> = []
    /// Pending slots waiting on a query that is running; the render goes on while this is > 0.
    private(set) var activeWaiters = 0
    private var nextAnonymousQuery = 0
    private var touched: [SuspenseRecord] = []
    private var typeNames: [ObjectIdentifier: String] = [:]
    let cache: QueryCache
    /// Set when an error reached the root; the render stops and throws it.
    private(set) var fatalError: RenderError?
    /// Set when a boundary changed state since the last call to `takeChanged()`.
    private var changed = false

    init(cache: QueryCache, options: RenderOptions) {
        self.cache = cache
        self.options = options
        self.maxDepth = DeepStackExecutor.shared == nil
            ? min(options.maxDepth, DeepStackExecutor.fallbackMaxDepth) : options.maxDepth
        let rootScope = Scope(parent: nil)
        root = SuspenseRecord(outer: nil, typedValueType: nil, content: nil, fallback: nil)
        root.contentScope = rootScope
        context = EvaluationContext(parent: rootNode, scope: rootScope, suspense: root, errorBoundary: nil, path: ComponentPath())
    }

    // MARK: Evaluation

    /// Evaluates the root component. Throws a ``RenderError`` for an error no boundary caught.
    func evaluateRoot<C: Component>(_ component: C) throws {
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

    /// Evaluates one child: makes it, then resolves it. A promise thrown while making it
    /// suspends the child in a slot; any other error goes up, located at the child.
    func evaluate<C: Component>(_ make: @escaping () throws -> C) throws {
        let component: C
        do {
            component = try make()
        } catch let promise as any AnyPromise {
            let name = name(of: C.self)
            try suspend(promise, component: name, errorPath: errorPath(child: name)) { resolver in
                try C._resolve(try make(), in: resolver)
            }
            return
        } catch let error as NeedsLargerStack {
            throw error
        } catch {
            throw located(error, at: errorPath(child: name(of: C.self)))
        }
        try C._resolve(component, in: self)
    }

    func resolveComposite<C: Component>(_ component: C) throws {
        let name = name(of: C.self)
        let node = BuildNode(.component(name: name))
        context.parent.children.append(node)
        let saved = context
        context.parent = node
        context.path.append(name)
        context.depth += 1
        defer { context = saved }
        try checkDepth(context.depth, name)
        let body: C.Body
        do {
            body = try component.body
        } catch let promise as any AnyPromise {
            // The slot re-evaluates only the body: the component itself was made already.
            try suspend(promise, component: name, errorPath: context.path) { resolver in
                try C.Body._resolve(try component.body, in: resolver)
            }
            return
        } catch let error as NeedsLargerStack {
            throw error
        } catch {
            throw located(error, at: context.path)
        }
        try C.Body._resolve(body, in: self)
    }

    func appendLeaf(_ kind: BuildNode.Kind) {
        context.parent.children.append(BuildNode(kind))
    }

    func resolveElement(tag: String, attributes: [Attribute], content: (_Resolver) throws -> Void) throws {
        try checkDepth(context.depth + 1, "<\(tag)>")
        // A name HTML cannot carry is an error at the element, routed to its ErrorBoundary,
        // rather than a render that fails only when HTML is asked for.
        do {
            try HTMLNames.checkTag(tag)
            for attribute in attributes {
                try HTMLNames.checkAttribute(attribute.name, tag: tag)
            }
        } catch {
            throw located(error, at: context.path)
        }
        let node = BuildNode(.element(tag: tag, attributes: attributes))
        context.parent.children.append(node)
        let saved = context
        context.parent = node
        context.depth += 1
        defer { context = saved }
        try content(self)
    }

    func resolveSuspense(
        typedValueType: (any Any.Type)?,
        content: @escaping (_Resolver, Any?) throws -> Void,
        fallback: @escaping (_Resolver) throws -> Void
    ) throws {
        try checkDepth(context.depth + 1, "Suspense")
        let record = SuspenseRecord(
            outer: context,
            typedValueType: typedValueType,
            content: content,
            fallback: fallback
        )
        context.parent.children.append(BuildNode(.suspense(record)))
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

    func resolveErrorBoundary(
        content: (_Resolver) throws -> Void,
        fallback: @escaping (_Resolver, any Error) throws -> Void
    ) throws {
        try checkDepth(context.depth + 1, "ErrorBoundary")
        let record = ErrorBoundaryRecord(outer: context, fallback: fallback)
        context.parent.children.append(BuildNode(.errorBoundary(record)))
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
        changed = true
        record.contentScope.kill(retiring: retire)
        record.contentNode.children = []
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

    private func suspend(
        _ promise: any AnyPromise,
        component: String,
        errorPath: ComponentPath,
        thunk: @escaping (_Resolver) throws -> Void
    ) throws {
        let (query, label, target) = try identify(promise, component: component, errorPath: errorPath)
        let slot = Slot(
            context: context,
            component: component,
            errorPath: errorPath,
            query: query,
            queryLabel: label,
            thunk: thunk
        )
        slot.deliversTo = target
        context.parent.children.append(slot.node)
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
        errorPath: ComponentPath
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
                at: errorPath
            )
        }
        if suspense.deliveries >= options.maxResuspensions {
            throw located(
                SuspenseError.stillSuspending(
                    component: component,
                    attempts: suspense.deliveries,
                    lastQuery: promise.valueTypeName
                ),
                at: errorPath
            )
        }
        nextAnonymousQuery += 1
        return (.anonymous(nextAnonymousQuery), promise.valueTypeName, suspense)
    }

    private func wait(_ slot: Slot, on query: QueryID, promise: any AnyPromise) {
        slot.query = query
        waiting[query, default: []].append(slot)
        if case .key(let key) = query, case .pendingForever = cache.entry(for: key) {
            return
        }
        slot.waitsInFlight = true
        activeWaiters += 1
        if inFlight.insert(query).inserted {
            newQueries.append((query, promise))
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
            changed = true
            record.fallbackScope?.kill(retiring: retire)
            record.fallbackScope = nil
            record.fallbackNode.children = []
        }
    }

    // MARK: Query results

    func takeNewQueries() -> [(QueryID, any AnyPromise)] {
        defer { newQueries = [] }
        return newQueries
    }

    func takeChanged() -> Bool {
        defer { changed = false }
        return changed
    }

    /// Applies one query's result: stores it, then re-evaluates the slots waiting on it.
    func apply(_ result: Result<any Sendable, any Error>, for query: QueryID) {
        inFlight.remove(query)
        if case .key(let key) = query {
            cache.record(result, for: key)
        }
        let slots = waiting.removeValue(forKey: query) ?? []
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
        changed = true
        record.contentScope.kill(retiring: retire)
        record.contentScope = Scope(parent: outer.scope)
        record.contentNode.children = []
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
                path: slots.first?.context.path.names ?? [],
                underlying: SuspenseError.rootSuspendedForever(queries: root.pendingQueries)
            )
        }
    }

    // MARK: Helpers

    /// Fails, at the current path, when a level at `depth` would nest deeper than the limit.
    private func checkDepth(_ depth: Int, _ what: String) throws {
        if let stackLimit, stackLimit.isExceeded {
            throw NeedsLargerStack()
        }
        if depth > maxDepth {
            throw located(SuspenseError.tooDeep(component: what, limit: maxDepth), at: context.path)
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
        name.hasPrefix("_") ? context.path : context.path.appending(name)
    }

    /// A type's name as shown in paths and in the `.tree` format: no module, no generic arguments.
    func name<C>(of type: C.Type) -> String {
        let id = ObjectIdentifier(type)
        if let name = typeNames[id] { return name }
        var name = String(describing: type)
        if let angle = name.firstIndex(of: "<") {
            name = String(name[..<angle])
        }
        typeNames[id] = name
        return name
    }
}
