/// The render loop: the first pass, then each result from the query runner applied in turn and
/// reported to the observers as events, until nothing is left waiting.
extension _Resolver {
    /// Resolves `component` completely and returns the final tree, building what `mode` asks
    /// for on the way; each of `observers` sees every event, in order (none for a whole render,
    /// which then reads no clock for events and builds none).
    ///
    /// Components are evaluated on the caller's actor (they need not be `Sendable`); `make`
    /// makes the root inside the first pass, so that a root that reads data suspends.
    static func run<C: Component>(
        _ make: @escaping () throws -> C,
        cache: QueryCache,
        options: RenderOptions,
        mode: RenderMode,
        observers: [any RenderObserver],
        backpressure: (any RenderBackpressure)? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> RenderTree {
        RenderModeLog.current?.append(mode)
        let resolver = _Resolver(cache: cache, options: options)
        resolver.timing.isHonoured = mode.fallbackTiming
        resolver.componentNodes = mode.componentNodes
        // A report or diagnostics, when asked for: one more observer, and the resolver's hooks.
        let collector = ReportCollector.make(for: options, mode: mode, clock: resolver.scope.clock)
        var observers = observers
        if let collector {
            resolver.collector = collector
            resolver.scope.collector = collector
            // First, so that the report at the shell is made before an output sends the shell.
            observers.insert(collector, at: 0)
        }
        let runner = QueryRunner(cache: cache, mailbox: resolver.scope.mailbox)
        let timers = RenderTimers(clock: resolver.scope.clock, mailbox: resolver.scope.mailbox)
        if let deadline = options.deadline { timers.armDeadline(at: deadline) }
        // Whatever happens, the render leaves every query it still waits on: a query no other
        // render waits on is cancelled, and stops before the render returns (past the deadline,
        // it is not waited for). Every timer is cancelled and waited for.
        let cacheStartedEmpty = cache.storedCount == 0
        if let hint = RenderSizeHints.size(of: C.self) {
            resolver.nodes.reserve(hint)
            resolver.records.reserve(hint)
            if cacheStartedEmpty { cache.reserveIfEmpty(hint.queries) }
            // Tables keyed by the queries components suspend on: reserved, not rehashed as they grow.
            resolver.waits.reserve(hint.waits)
            runner.reserve(hint.waits)
            runner.mailbox.reserveAwaiting(hint.waits)
        }
        do {
            resolver.evaluateRoot(make)
            if let error = resolver.failures.uncaught { throw error }
            let events = EventSink(observers, clock: resolver.scope.clock)
            let tree = try await drive(
                resolver, runner: runner, timers: timers, options: options, mode: mode, events: events,
                backpressure: backpressure)
            RenderSizeHints.record(
                .init(
                    records: resolver.nodes.records.count, bytes: resolver.nodes.bytes.count,
                    queries: cacheStartedEmpty ? resolver.storedAtEnd : 0, waits: resolver.waits.queriesWaitedOn,
                    slots: resolver.records.slots.count),
                of: C.self)
            await timers.stop()
            await runner.finish(waitingForCancelled: !resolver.timing.deadlinePassed)
            if let collector { options.onReport?(collector.report(error: nil)) }
            return tree
        } catch {
            // The one place a render fails: an error no boundary caught is reported here, once.
            if let error = error as? RenderError {
                collector?.failed(error, shellSent: resolver.changeLog.shellSent)
                options.onUncaughtError?(error)
            }
            await timers.stop()
            await runner.finish(waitingForCancelled: !resolver.timing.deadlinePassed)
            if let collector { options.onReport?(collector.report(error: error)) }
            throw error
        }
    }

    private static func drive(
        _ resolver: _Resolver,
        runner: QueryRunner,
        timers: RenderTimers,
        options: RenderOptions,
        mode: RenderMode,
        events: EventSink,
        backpressure: (any RenderBackpressure)?,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> RenderTree {
        let subtrees = mode.subtrees
        let passTrees = mode.passTrees
        // With `.discovery` delivery, results are applied in the order their queries started.
        var order: [QueryID] = []
        var orderStart = 0
        /// The queries in `order` whose result was not applied yet: a query asked for again while
        /// it runs is queued once, since its one result arrives once.
        var queued: Set<QueryID> = []
        var arrived: [QueryID: Result<any Sendable, any Error>] = [:]
        var cancelled: Set<QueryID> = []

        /// Leaves queries the render stopped waiting on; those no other render waits on are cancelled.
        func cancel(_ queries: [QueryID]) {
            for query in queries {
                runner.cancel(query)
                cancelled.insert(query)
                events.emit(.queryCancelled(resolver.waits.label(of: query)))
            }
        }

        func afterPass() {
            cancel(resolver.waits.takeAbandoned())
            if events.isEmpty {
                resolver.dropChanges()
            } else {
                let changes = resolver.takeChanges(withSubtrees: subtrees)
                for change in changes {
                    events.emit(change)
                }
                if !changes.isEmpty {
                    events.emit(
                        .progress(
                            passTrees && events.needsPassTree
                                ? resolver.window(from: events.passTreeResume) : nil,
                            settled: resolver.shellIsReady))
                }
            }
            if !resolver.changeLog.shellSent, resolver.shellIsReady, resolver.failures.uncaught == nil {
                // A Suspense of the shell pending within its fallback delay holds the shell back.
                if resolver.timing.hasDelays, let until = resolver.resolutionHold(of: _Resolver.root) {
                    timers.armRecheck(for: _Resolver.root, at: until)
                } else {
                    resolver.markShellSent()
                    events.emit(resolver.shellEvent(withSubtree: subtrees, window: passTrees))
                }
            }
            // Every query discovered now was discovered by the pass that just ended (`pass`
            // checks that none is left from an earlier one): it carries that pass's cause.
            let cause = resolver.passCause
            // Each read where it is: a loop over the array copied each one (its label, promise
            // and stub retained, then released again with the array).
            var discovered = resolver.waits.takeDiscovered()
            for index in discovered.indices {
                let id = discovered[index].id
                if options.deliveryOrder == .discovery, queued.insert(id).inserted { order.append(id) }
                if !cancelled.isEmpty { cancelled.remove(id) }
                let joined = runner.start(&discovered[index])
                events.emit(.queryStarted(discovered[index].label, joined: joined, cause: cause))
            }
            // Timeouts run while their Suspense shows its fallback; a hold ends when its Suspense
            // resolved (the root's: when the shell was sent).
            if timers.hasTimeouts || timers.hasRechecks {
                timers.disarm { $0 == _Resolver.root ? resolver.changeLog.shellSent : !resolver.isPending($0) }
            }
            for suspense in resolver.takeTimed() where resolver.isPending(suspense) {
                let record = resolver.records.suspenses[suspense]
                if let timeout = record.timing?.timeout {
                    timers.armTimeout(for: suspense, at: record.pendingSince.saturatingAdding(timeout))
                }
            }
            for (suspense, until) in resolver.takeHeld() {
                timers.armRecheck(for: suspense, at: until)
            }
        }

        /// Handles the timers that fired; returns false when the deadline passed.
        func handleTimers() throws -> Bool {
            let woken = runner.mailbox.takeFiredTimers()
            guard !woken.isEmpty else { return true }
            for fired in timers.takeDue(now: resolver.scope.clock.elapsed(), woken: woken) {
                switch fired {
                case .timeout(let suspense, _):
                    guard let timedOut = resolver.timeOut(suspense) else { continue }
                    events.emit(.timedOut(timedOut.id, timedOut.error))
                    cancel(timedOut.stopped)
                    if let error = resolver.failures.uncaught { throw error }
                    afterPass()
                case .recheck(let suspense):
                    resolver.recheck(suspense)
                    if let error = resolver.failures.uncaught { throw error }
                    afterPass()
                case .deadline:
                    let cutOff = try resolver.cutOff(at: options.deadline ?? .zero)
                    afterPass()
                    events.emit(.deadlinePassed(cutOff))
                    options.onDeadline?(cutOff)
                    return false
                }
            }
            return true
        }

        afterPass()
        /// Results received and not yet applied, with `.completion` delivery.
        var received: [(QueryID, Result<any Sendable, any Error>)] = []
        // A Suspense with a timeout keeps the render going while it shows its fallback, even
        // when no query is left running (a key pending for good), until its timeout fires.
        // Held resolutions too: the render ends once fallback timing has let them resolve.
        func isWaiting() -> Bool {
            resolver.waits.activeWaiters > 0 || timers.hasTimeouts || timers.hasRechecks
        }
        /// Waits while the output's reader is behind (results and timers keep arriving meanwhile).
        func waitForReader() async {
            if let backpressure, !backpressure.hasRoom { await backpressure.waitForRoom() }
        }
        loop: while isWaiting() {
            await waitForReader()
            guard try handleTimers() else { break loop }
            if !isWaiting() { break loop }
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
                guard !Task.isCancelled, var deliveries = await runner.mailbox.next() else { break loop }
                // Results that arrived while this task was being woken come along, the smaller
                // list copied into the larger one (appending copies each result appended).
                var later = runner.mailbox.takeArrived()
                if later.count > deliveries.count {
                    later.insert(contentsOf: deliveries, at: 0)
                    swap(&deliveries, &later)
                } else if !later.isEmpty {
                    deliveries.append(contentsOf: later)
                }
                switch options.deliveryOrder {
                case .completion: received = deliveries
                case .discovery: for (query, result) in deliveries { arrived[query] = result }
                }
                continue
            }
            // Nobody observes the passes (a whole render): the results that arrived together
            // are applied in one pass, since only the final tree is read.
            if events.isEmpty, options.deliveryOrder == .completion, ready.count > 1 {
                // Read where they are: a loop over the pairs copied each one.
                for index in ready.indices {
                    runner.finished(ready[index].0, failed: ready[index].1.isFailure)
                }
                resolver.apply(ready)
                if let error = resolver.failures.uncaught { throw error }
                afterPass()
                await waitForReader()
                continue
            }
            for (query, result) in ready {
                // Queued until applied: a slot that asks for the key while results of the same
                // batch are applied before it waits for this result, not for another one.
                queued.remove(query)
                switch result {
                case .success:
                    runner.finished(query)
                    events.emit(.queryFinished(resolver.waits.label(of: query)))
                case .failure(let error):
                    runner.finished(query, failed: true)
                    events.emit(.queryFailed(resolver.waits.label(of: query), error))
                }
                resolver.apply(result, for: query)
                if let error = resolver.failures.uncaught { throw error }
                afterPass()
                await waitForReader()
            }
        }
        if Task.isCancelled { throw CancellationError() }
        if !resolver.timing.deadlinePassed { try resolver.checkFinished() }
        // The render's own cache is read by nobody from here on: its results go before the
        // final tree is built, so that both are not held at once.
        resolver.storedAtEnd = resolver.cache.renderEnded()
        let tree = mode.finalTree ? resolver.tree() : RenderTree()
        events.emit(.finished(tree))
        return tree
    }
}

/// The reader of a render's output, as the render loop sees it: whether it can take more now,
/// and a wait until it can (or it left, or the render was cancelled).
protocol RenderBackpressure: AnyObject, Sendable {
    var hasRoom: Bool { get }
    func waitForRoom() async
}

/// Where the render loop sends its events: each one, stamped with the time on the render's
/// clock, to every observer in order. With no observer (a whole render) nothing is made: an
/// event is an autoclosure, evaluated and timed only when someone observes it.
struct EventSink {
    private let observers: [any RenderObserver]
    private let clock: RenderClock

    init(_ observers: [any RenderObserver], clock: RenderClock) {
        self.observers = observers
        self.clock = clock
    }

    var isEmpty: Bool { observers.isEmpty }

    /// Whether an observer needs the tree of the `.progress` event about to be emitted.
    var needsPassTree: Bool { observers.contains { $0.needsPassTree } }

    /// Where the window of that tree starts: where the one observer that reads it asks, or the
    /// start of the document when several do (a window from the start holds what any of them
    /// reads). Observers that never read it (a report) do not count.
    var passTreeResume: RenderTree.Resume? {
        var reader: (any RenderObserver)?
        for observer in observers where observer.needsPassTree {
            if reader != nil { return nil }
            reader = observer
        }
        return reader?.passTreeResume
    }

    func emit(_ kind: @autoclosure () -> RenderEvent.Kind) {
        guard !observers.isEmpty else { return }
        let event = RenderEvent(time: clock.elapsed(), kind: kind())
        for observer in observers {
            observer.observe(event)
        }
    }
}

extension Result {
    /// Whether this is a failure, read without copying the result out.
    var isFailure: Bool {
        if case .failure = self { return true }
        return false
    }
}
