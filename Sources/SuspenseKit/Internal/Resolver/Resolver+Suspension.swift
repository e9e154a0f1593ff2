/// Suspension: slots, the wait table, retiring and settling, and what happens when a query's
/// result arrives.
extension _Resolver {
    /// Making a child of type `type` threw: a promise suspends it in a slot that `rerun`
    /// evaluates again; any other error goes up, located at the child.
    @usableFromInline
    func childFailed(_ error: any Error, type: any Any.Type, rerun: any _SlotThunk) throws {
        let named = naming.name(of: type)
        if let promise = promiseTypes.promise(in: error) {
            collector?.promiseCaught()
            try suspend(promise, component: named.name, pathAddsComponent: named.isShownInPaths, thunk: rerun)
            return
        }
        throw located(error, at: errorPath(at: context.path, component: named.name, ends: named.isShownInPaths))
    }

    /// A component's body threw: a promise suspends the component in a slot that `rerun`
    /// evaluates again; any other error goes up, located at the component.
    @usableFromInline
    func bodyFailed(_ error: any Error, component name: String, rerun: any _SlotThunk) throws {
        if let promise = promiseTypes.promise(in: error) {
            collector?.promiseCaught()
            try suspend(promise, component: name, pathAddsComponent: false, thunk: rerun)
            return
        }
        throw located(error, at: context.path)
    }

    /// Suspends a component in a slot of the nearest Suspense. Its error path is the context's
    /// path, plus the component's name when `pathAddsComponent`; built only when an error needs it.
    private func suspend(
        _ promise: ThrownPromise,
        component: String,
        pathAddsComponent: Bool,
        thunk: any _SlotThunk
    ) throws {
        let errorPath = { self.errorPath(at: self.context.path, component: component, ends: pathAddsComponent) }
        let target = try deliveryTarget(of: promise, from: context.suspense, component: component, errorPath: errorPath)
        let (query, label) = identify(promise)
        let node = nodes.makeFragment()
        // Sealed before the slot keeps a copy, as making a child would seal it: the slots of one
        // parent then share its link, where each slot's copy made a link of its own when the
        // slot was evaluated again.
        paths.seal(&context.path)
        var slotContext = context
        slotContext.parent = node
        nodes.link(node, to: context.parent)
        let index = addSlot(
            SlotRecord(
                node: node,
                context: slotContext,
                position: positions.position(),
                positionClaimed: positions.isClaimed,
                component: component,
                pathAddsComponent: pathAddsComponent,
                thunk: thunk,
                query: query,
                queryLabel: label,
                deliversTo: target
            ))
        wait(index, on: query, promise: promise)
    }

    /// Adds a pending slot to its scope and its Suspense, which shows its fallback again if it
    /// had resolved (content of a resolved Suspense suspended again). The slot's node is linked
    /// into the tree by the caller.
    func addSlot(_ slot: consuming SlotRecord) -> SlotIndex {
        let index = records.slots.count
        let (scope, owner) = (slot.context.scope, slot.context.suspense)
        records.slots.append(slot)
        records.scopes[scope].slots.append(index)
        records.suspenses[owner].pendingCount += 1
        records.suspenses[owner].slots.append(index)
        if records.suspenses[owner].isResolved {
            records.suspenses[owner].isResolved = false
            settling.reopened.append(owner)
        }
        return index
    }

    /// The typed Suspense that takes a keyless promise's value: the nearest one of its value type
    /// at or above `suspense`, however many others lie between; -1 for a keyed promise.
    func deliveryTarget(
        of promise: ThrownPromise,
        from suspense: SuspenseIndex,
        component: String,
        errorPath: () -> [String]
    ) throws -> SuspenseIndex {
        if promise.key != nil { return -1 }
        var index = suspense
        while index != Self.root {
            let record = records.suspenses[index]
            if let valueType = record.typedValueType, ObjectIdentifier(valueType) == ObjectIdentifier(promise.valueType)
            {
                // The first suspension is not a re-suspension: only one after a delivery counts.
                if record.deliveries > options.maxResuspensions {
                    collector?.unstable(component, attempts: record.deliveries, lastKey: promise.valueTypeName)
                    throw located(
                        SuspenseError.stillSuspending(
                            component: component, attempts: record.deliveries, lastQuery: promise.valueTypeName),
                        at: errorPath())
                }
                return index
            }
            index = record.outer?.suspense ?? Self.root
        }
        throw located(
            SuspenseError.keylessPromise(component: component, valueType: promise.valueTypeName),
            at: errorPath())
    }

    func identify(_ promise: ThrownPromise) -> (QueryID, String) {
        if let key = promise.key { return (.key(key), key) }
        return (waits.makeAnonymous(label: promise.valueTypeName), promise.valueTypeName)
    }

    func wait(_ slot: SlotIndex, on query: QueryID, promise: ThrownPromise, previous: String? = nil) {
        records.slots[slot].query = query
        if let collector { noteWait(slot, previous: previous, to: collector) }
        // A query stubbed as pending never starts.
        let stub: QueryOutcome?
        switch query {
        case .key(let key): stub = cache.stubbedOutcome(for: key)
        case .anonymous: stub = cache.stubbedOutcome(for: promise.valueTypeName)
        }
        if case .pending? = stub { return }
        records.slots[slot].waitsInFlight = true
        waits.add(slot, on: query, promise: promise, stub: stub)
    }

    /// Takes slots out of their Suspense's count: they resolved, or their region was discarded.
    func retire(_ slots: [SlotIndex]) {
        for slot in slots { retire(slot) }
    }

    func retire(_ slot: SlotIndex) {
        if records.slots[slot].isReady {
            discardDeferred(slot)
            return
        }
        guard records.slots[slot].isPending else { return }
        records.slots[slot].isPending = false
        records.slots[slot].thunk = nil
        if records.slots[slot].waitsInFlight {
            records.slots[slot].waitsInFlight = false
            waits.remove(slot, from: records.slots[slot].query)
        }
        let owner = records.slots[slot].context.suspense
        records.suspenses[owner].pendingCount -= 1
        assert(records.suspenses[owner].pendingCount >= 0, "a Suspense counted more slots than it had")
        if records.suspenses[owner].pendingCount == 0 {
            settling.touched.append(owner)
        }
    }

    /// Resolves every Suspense whose last pending slot went away, discarding its fallback, and
    /// shows the fallback of every one that went back to pending. Returns early when a fallback
    /// deferred a subtree: the pass evaluates it, then settles again.
    func settle() {
        while !settling.touched.isEmpty || !settling.reopened.isEmpty {
            while ready.isEmpty, let index = settling.touched.popLast() {
                guard mayResolve(index) else { continue }
                if let row = records.suspenses[index].row {
                    revealRows(of: row.list)
                } else {
                    resolve(index)
                }
            }
            while ready.isEmpty, let index = settling.reopened.popLast() {
                let record = records.suspenses[index]
                guard !record.isResolved, !record.undecided, record.pendingCount > 0, record.fallbackScope < 0,
                    records.isAlive(index), let outer = record.outer
                else { continue }
                noteChange(.suspended(index))
                // Its row is no longer done: the rows after it wait for it again.
                if let row = record.row { forgetDone(from: row.list) }
                if record.timing != nil { beganPending(index) }
                do {
                    try evaluateFallback(of: index)
                } catch {
                    route(error, at: outer, path: names(of: outer.path, appending: "Suspense"))
                    if failures.uncaught != nil { return }
                }
            }
            if !ready.isEmpty { return }
        }
    }

    /// Whether the Suspense at `index` may resolve now: nothing beneath it pending or undecided,
    /// and neither fallback timing (which notes until when, for a recheck) nor its SuspenseList
    /// (which touches it again when a row before it reveals) holds it back.
    func mayResolve(_ index: SuspenseIndex) -> Bool {
        let record = records.suspenses[index]
        guard !record.isResolved, !record.undecided, record.pendingCount == 0, record.deferred == 0,
            !record.isRoot, records.isAlive(index)
        else {
            return false
        }
        if timing.isHonoured, record.timing?.minimumFallbackDuration != nil || timing.hasDelays,
            let until = resolutionHold(of: index)
        {
            timing.held.append((index, until))
            return false
        }
        return record.row == nil || records.holder(of: index) == nil
    }

    /// Resolves the Suspense at `index`, which may resolve: its content replaces its fallback.
    func resolve(_ index: SuspenseIndex) {
        let record = records.suspenses[index]
        records.suspenses[index].isResolved = true
        // A boundary around it may have waited for it to resolve within its delay.
        if timing.hasDelays, record.timing?.fallbackDelay != nil, let outer = record.outer,
            outer.suspense != Self.root
        {
            settling.touched.append(outer.suspense)
        }
        if record.fallbackScope >= 0 {
            retire(records.kill(record.fallbackScope))
            records.suspenses[index].fallbackScope = -1
        }
        nodes.removeChildren(of: record.fallbackNode)
        noteChange(.resolved(index))
    }

    /// Stops waiting on the queries of a Suspense's pending slots (for a timeout): the slots stay
    /// pending, so the Suspense keeps its fallback. Returns the queries no other slot of the
    /// render waits on, for the runner to leave (which cancels those no other render waits on).
    func stopWaiting(for suspense: SuspenseIndex) -> [QueryID] {
        var stopped: [QueryID] = []
        for slot in records.suspenses[suspense].slots
        where records.slots[slot].isPending && records.slots[slot].waitsInFlight {
            records.slots[slot].waitsInFlight = false
            let query = records.slots[slot].query
            if waits.stopWaiting(slot, on: query) { stopped.append(query) }
        }
        checkBookkeeping()
        return stopped
    }

    /// Fails the render if the root itself is still suspended when no query is left running.
    func checkFinished() throws {
        if let uncaught = failures.uncaught { throw uncaught }
        let root = records.suspenses[Self.root]
        if root.pendingCount > 0 {
            let first = root.slots.first { records.slots[$0].isPending }
            throw RenderError(
                path: first.map { errorPath(of: records.slots[$0]) } ?? [],
                underlying: SuspenseError.rootSuspendedForever(queries: records.pendingQueries(of: Self.root))
            )
        }
    }

    /// In debug builds, checks the counters kept by hand against the records they count.
    func checkBookkeeping() {
        #if DEBUG
            // Counting is linear in the render's size; a pass of a large render skips it.
            guard records.slots.count <= 2_000 else { return }
            var pending = [Int](repeating: 0, count: records.suspenses.count)
            var inFlight = 0
            for slot in records.slots where slot.isPending {
                pending[slot.context.suspense] += 1
                if slot.waitsInFlight { inFlight += 1 }
            }
            for (index, record) in records.suspenses.enumerated() {
                assert(
                    record.pendingCount == pending[index],
                    "Suspense \(index) counts \(record.pendingCount) pending slots, has \(pending[index])")
            }
            assert(
                waits.activeWaiters == inFlight,
                "the wait table counts \(waits.activeWaiters) waiters, slots say \(inFlight)")
        #endif
    }
}
