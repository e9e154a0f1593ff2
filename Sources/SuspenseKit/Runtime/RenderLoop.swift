/// One state a tree passed through while it resolved.
public struct RenderFrame: Sendable, Hashable {
    /// What led to this state: `"initial"`, or the query whose result was applied.
    public let cause: String
    /// The tree in this state.
    public let node: Node
}

extension _Resolver {
    /// Resolves `component` completely: evaluates it, runs every query it and its descendants
    /// discover, and re-evaluates what waited on them, until nothing is left running.
    static func run<C: Component>(
        _ component: C,
        cache: QueryCache,
        options: RenderOptions,
        onFrame: ((RenderFrame) -> Void)? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> RenderTree {
        // Components are evaluated by recursion, a few KiB of stack per level. The first pass
        // runs here, on the caller's executor, as long as it stays within a small stack budget;
        // a deeper tree throws `NeedsLargerStack`, and the render starts over on threads with
        // large stacks (`DeepStackExecutor`), where the limit is `RenderOptions.maxDepth`. A render
        // with queries to wait for moves there too, since what resolves later may nest deeper;
        // one without queries (the common tiny render) never hops threads.
        //
        // A caller isolated to an actor keeps every evaluation on that actor, since its
        // components need not be `Sendable`: there, going past the budget is an error at the
        // component (`SuspenseError.tooDeepForCallerStack`) instead of a move.
        guard isolation == nil, let executor = DeepStackExecutor.shared else {
            let resolver = _Resolver(cache: cache, options: options)
            if isolation != nil {
                resolver.stackPolicy = .failBeyond(budget: DeepStackExecutor.callerStackBudget)
            }
            try resolver.evaluateRoot(component)
            return try await drive(resolver, options: options, onFrame: onFrame)
        }
        let resolver = _Resolver(cache: cache, options: options)
        resolver.stackPolicy = .restartBeyond(budget: DeepStackExecutor.callerStackBudget)
        do {
            try resolver.evaluateRoot(component)
        } catch is NeedsLargerStack {
            return try await withTaskExecutorPreference(executor) {
                let resolver = _Resolver(cache: cache, options: options)
                try resolver.evaluateRoot(component)
                return try await drive(resolver, options: options, onFrame: onFrame)
            }
        }
        resolver.stackPolicy = .unlimited
        if resolver.activeWaiters == 0 {
            return try await drive(resolver, options: options, onFrame: onFrame)
        }
        // The resolver is released on the large-stack thread too, before the task goes back.
        return try await withTaskExecutorPreference(executor) {
            try await drive(resolver, options: options, onFrame: onFrame)
        }
    }

    /// Runs the queries the first pass discovered, and all that follow, then returns the tree.
    private static func drive(
        _ resolver: _Resolver,
        options: RenderOptions,
        onFrame: ((RenderFrame) -> Void)?,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> RenderTree {
        var lastFrame: Node?
        func emit(_ cause: String) {
            guard let onFrame else { return }
            let node = RenderTree(resolver.nodes, root: resolver.rootNode).node()
            if node != lastFrame {
                lastFrame = node
                onFrame(RenderFrame(cause: cause, node: node))
            }
        }
        emit("initial")
        try await withThrowingTaskGroup(of: (QueryID, Result<any Sendable, any Error>).self) { group in
            var order: [QueryID] = []
            var orderStart = 0
            var arrived: [QueryID: Result<any Sendable, any Error>] = [:]
            func startNewQueries() {
                for new in resolver.takeNewQueries() {
                    let (query, promise, stub) = (new.id, new.promise, new.stub)
                    if options.deliveryOrder == .discovery { order.append(query) }
                    // Queries run on the global executor, not on the render's large-stack threads.
                    group.addTask(executorPreference: globalConcurrentExecutor) {
                        // A stubbed query still answers from a child task, like a real one.
                        switch stub {
                        case .value(let value)?: return (query, .success(value))
                        case .failure(let error)?: return (query, .failure(error))
                        case .pending?, nil: break
                        }
                        do {
                            return (query, .success(try await promise.run()))
                        } catch {
                            return (query, .failure(error))
                        }
                    }
                }
            }
            startNewQueries()
            while resolver.activeWaiters > 0 {
                guard let (query, result) = try await group.next() else { break }
                try Task.checkCancellation()
                var ready: [(QueryID, Result<any Sendable, any Error>)] = []
                switch options.deliveryOrder {
                case .completion:
                    ready.append((query, result))
                case .discovery:
                    arrived[query] = result
                    while orderStart < order.count, let next = arrived.removeValue(forKey: order[orderStart]) {
                        ready.append((order[orderStart], next))
                        orderStart += 1
                    }
                }
                for (query, result) in ready {
                    resolver.apply(result, for: query)
                    if let error = resolver.fatalError { throw error }
                    emit(label(of: query, in: resolver))
                    startNewQueries()
                }
            }
            group.cancelAll()
        }
        try resolver.checkFinished()
        return RenderTree(resolver.nodes, root: resolver.rootNode)
    }

    private static func label(of query: QueryID, in resolver: _Resolver) -> String {
        switch query {
        case .key(let key): return key
        case .anonymous(let number): return resolver.anonymousLabels[number] ?? "keyless query"
        }
    }
}

/// Resolves a component tree and returns it as a ``Node`` tree, for inspection or for rendering
/// with ``Node/rendered(as:)``.
/// - Parameters:
///   - component: The root of the tree.
///   - cache: Where query results are kept; a new one by default.
///   - options: Settings of the render.
///   - isolation: The caller's actor, on which components are evaluated; inferred.
public func resolve<C: Component>(
    _ component: C,
    cache: QueryCache = QueryCache(),
    options: RenderOptions = RenderOptions(),
    isolation: isolated (any Actor)? = #isolation
) async throws -> Node {
    try await _Resolver.run(component, cache: cache, options: options).node()
}

/// Resolves a component tree and returns every state it passed through: first with every
/// fallback in place, then one frame per query result that changed the tree.
///
/// With `options.deliveryOrder == .discovery` the frames are the same on every run for the same
/// query outcomes.
/// - Parameters:
///   - component: The root of the tree.
///   - cache: Where query results are kept; a new one by default.
///   - options: Settings of the render.
///   - isolation: The caller's actor, on which components are evaluated; inferred.
public func resolveFrames<C: Component>(
    _ component: C,
    cache: QueryCache = QueryCache(),
    options: RenderOptions = RenderOptions(deliveryOrder: .discovery),
    isolation: isolated (any Actor)? = #isolation
) async throws -> [RenderFrame] {
    var frames: [RenderFrame] = []
    _ = try await _Resolver.run(component, cache: cache, options: options) { frames.append($0) }
    return frames
}
