/// The render loop: the first pass, then each result from the query runner applied in turn and
/// reported to the consumer as events, until nothing is left waiting.
extension _Resolver {
    /// Resolves `component` completely and returns the final tree; `consumer` sees every event.
    ///
    /// Components are evaluated on the caller's actor (they need not be `Sendable`); a render
    /// with no actor may continue a deep subtree on a thread with a larger stack (StackGuard).
    static func run<C: Component, Consumer: RenderEventConsumer>(
        _ component: C,
        cache: QueryCache,
        options: RenderOptions,
        consumer: Consumer,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> RenderTree {
        let resolver = _Resolver(cache: cache, options: options, canLeaveThread: isolation == nil)
        let runner = QueryRunner(cache: cache, mailbox: resolver.scope.mailbox)
        // Whatever happens, the render leaves every query it still waits on: a query no other
        // render waits on is cancelled, and stops before the render returns.
        do {
            try resolver.evaluateRoot(component)
            let tree = try await drive(resolver, runner: runner, options: options, consumer: consumer)
            await runner.finish()
            return tree
        } catch {
            // The one place a render fails: an error no boundary caught is reported here, once.
            if let error = error as? RenderError { options.onUncaughtError?(error) }
            await runner.finish()
            throw error
        }
    }

    private static func drive<Consumer: RenderEventConsumer>(
        _ resolver: _Resolver,
        runner: QueryRunner,
        options: RenderOptions,
        consumer: Consumer,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> RenderTree {
        let subtrees = consumer.wantsSubtrees
        let passTrees = consumer.wantsPassTrees
        // With `.discovery` delivery, results are applied in the order their queries started.
        var order: [QueryID] = []
        var orderStart = 0
        /// The queries in `order` whose result was not applied yet: a query asked for again while
        /// it runs is queued once, since its one result arrives once.
        var queued: Set<QueryID> = []
        var arrived: [QueryID: Result<any Sendable, any Error>] = [:]
        var cancelled: Set<QueryID> = []

        func afterPass() {
            for query in resolver.waits.takeAbandoned() {
                runner.cancel(query)
                cancelled.insert(query)
                consumer.consume(.queryCancelled(resolver.waits.label(of: query)))
            }
            let events = resolver.takeChanges(withSubtrees: subtrees)
            for event in events {
                consumer.consume(event)
            }
            if !events.isEmpty {
                consumer.consume(.progress(passTrees ? resolver.tree() : nil, settled: resolver.shellIsReady))
            }
            if !resolver.shellSent, resolver.shellIsReady, resolver.fatalError == nil {
                consumer.consume(resolver.takeShell(withSubtree: subtrees || passTrees))
            }
            for new in resolver.waits.takeDiscovered() {
                if options.deliveryOrder == .discovery, queued.insert(new.id).inserted { order.append(new.id) }
                cancelled.remove(new.id)
                let joined = runner.start(new)
                consumer.consume(.queryStarted(new.label, joined: joined))
            }
        }

        afterPass()
        /// Results received and not yet applied, with `.completion` delivery.
        var received: [(QueryID, Result<any Sendable, any Error>)] = []
        while resolver.waits.activeWaiters > 0 {
            var ready: [(QueryID, Result<any Sendable, any Error>)] = []
            switch options.deliveryOrder {
            case .completion:
                swap(&ready, &received)
            case .discovery:
                while orderStart < order.count {
                    let next = order[orderStart]
                    if cancelled.contains(next) {
                        queued.remove(next)
                        orderStart += 1
                        continue
                    }
                    guard let result = arrived.removeValue(forKey: next) else { break }
                    ready.append((next, result))
                    orderStart += 1
                }
            }
            // Nothing to apply: wait for results. A result may have arrived before its query
            // was next in order, or before a slot of this render asked for it (a key that a
            // component started itself): it is applied as soon as its turn comes, without
            // waiting for another delivery.
            if ready.isEmpty {
                guard !Task.isCancelled, let deliveries = await runner.mailbox.next() else { break }
                switch options.deliveryOrder {
                case .completion: received = deliveries
                case .discovery: for (query, result) in deliveries { arrived[query] = result }
                }
                continue
            }
            for (query, result) in ready {
                // Queued until applied: a slot that asks for the key while results of the same
                // batch are applied before it waits for this result, not for another one.
                queued.remove(query)
                runner.finished(query)
                let label = resolver.waits.label(of: query)
                switch result {
                case .success: consumer.consume(.queryFinished(label))
                case .failure(let error): consumer.consume(.queryFailed(label, error))
                }
                resolver.apply(result, for: query)
                if let error = resolver.fatalError { throw error }
                afterPass()
            }
        }
        if Task.isCancelled { throw CancellationError() }
        try resolver.checkFinished()
        let tree = resolver.tree()
        consumer.consume(.finished(tree))
        return tree
    }
}

/// The consumer of a whole render: it needs only the final tree, which `run` returns.
final class WholeRender: RenderEventConsumer {
    var wantsSubtrees: Bool { false }
    func consume(_ event: RenderEvent) {}
}
