// Query results reaching the render: the slots waiting on a result are evaluated again (in one
// pass for the results that arrived together), or a typed Suspense is given its value.

extension _Resolver {
    /// Applies one query's result (stored in the cache already, for a key): evaluates again the
    /// slots waiting on it, or gives a typed Suspense the value of its keyless promise.
    func apply(_ result: Result<any Sendable, any Error>, for query: QueryID) {
        apply([(query, result)])
    }

    /// Applies several queries' results in one pass: the render loop's batch when nobody
    /// observes the passes (a whole render), so that settling, the deferred subtrees and the
    /// bookkeeping after a pass are paid once per batch, not once per result. The slots waiting
    /// on any of them are evaluated again in the order they suspended (the document's, for the
    /// first pass), whatever order the results came in: their new nodes then follow one another
    /// in the arena as in the tree, and the final tree is read in order, not all over the
    /// arena. What the tree ends as is the same as for a pass per result.
    func apply(_ results: [QueryMailbox.Delivery]) {
        guard let first = results.first else { return }
        pass(waits.cause(applying: first.0)) {
            // Every waiting slot, with the index of its result.
            var waiting: [(slot: SlotIndex, result: Int)] = []
            var inOrder = true
            for index in results.indices {
                for slot in stopWaiting(on: results[index].0) {
                    if let last = waiting.last, last.slot > slot { inOrder = false }
                    waiting.append((slot, index))
                }
            }
            if !inOrder { waiting.sort { $0.slot < $1.slot } }
            // A key's value: the components evaluated again read it as delivered, not from the
            // cache, where the cache holds that same value for as long.
            let serves = cache.servesDeliveredValues
            results.withUnsafeBufferPointer { delivered in
                if serves { scope.delivered = delivered }
                defer {
                    scope.delivered = nil
                    scope.deliveredIndex = -1
                }
                for item in waiting where records.slots[item.slot].isPending {
                    let target = records.slots[item.slot].deliversTo
                    // The result is looked at only for a typed Suspense, out of line: a switch
                    // over it here copied it (its existential and a retain) for every slot.
                    if target < 0 {
                        if serves { scope.deliveredIndex = item.result }
                        rerun(item.slot)
                    } else {
                        deliver(delivered[item.result].1, from: item.slot, to: target)
                    }
                    if failures.uncaught != nil { return }
                }
            }
        }
    }

    /// The slots waiting on `query`'s result: they stop waiting all at once, before any is
    /// evaluated again, since evaluating one may discard another, which must then not count as
    /// waiting any more.
    private func stopWaiting(on query: QueryID) -> WaitingSlots {
        var slots = WaitingSlots()
        // One visit per slot: whether a slot waits does not depend on the others'.
        for slot in waits.take(query) where records.slots[slot].isPending && records.slots[slot].waitsInFlight {
            records.slots[slot].waitsInFlight = false
            slots.append(slot)
        }
        return slots
    }

    /// Gives a typed Suspense the result of the keyless query `slot` waited on.
    @inline(never)
    private func deliver(_ result: Result<any Sendable, any Error>, from slot: SlotIndex, to target: SuspenseIndex) {
        switch result {
        case .success(let value):
            deliver(value, to: target)
        case .failure(let error):
            // A keyless query failed: the error surfaces at the component that threw it.
            let record = records.slots[slot]
            route(error, at: record.context, path: errorPath(of: record))
        }
    }

    private func rerun(_ slot: SlotIndex) {
        // The record's fields are read where they are needed: a copy of the whole record (its
        // context, path, names and closure) cost a dozen retains per slot.
        guard let thunk = records.slots[slot].thunk else { return }
        // At its last allowed re-suspension, a component starts no new run: suspending again
        // fails it, so the run would only be cancelled (`suspendAgain`).
        let isLastTry = records.slots[slot].resuspensions >= options.maxResuspensions
        if isLastTry { scope.startsRuns = false }
        defer { if isLastTry { scope.startsRuns = true } }
        inPlace(of: slot) { evaluateAgain(slot, thunk) }
    }

    /// Evaluates a suspended child again with `thunk`, in its place: it resolves (the slot is
    /// retired), suspends again, or fails at its ErrorBoundary.
    private func evaluateAgain(_ slot: SlotIndex, _ thunk: any _SlotThunk) {
        do {
            do {
                try thunk.run(self)
            } catch let failure as BuildFailure {
                // The slot's container, made again, kept what its builder closure threw.
                throw failure.error
            }
            retire(slot)
            let suspense = records.slots[slot].context.suspense
            if suspense == Self.root {
                // Filled in a region already shown (an ErrorBoundary's fallback outside any Suspense).
                noteChange(.region(records.slots[slot].context.region))
            } else {
                noteChange(.progressed(suspense))
            }
        } catch {
            if let promise = promiseTypes.promise(in: error) {
                collector?.promiseCaught()
                suspendAgain(slot, on: promise)
            } else {
                route(error, at: records.slots[slot].context, path: errorPath(of: records.slots[slot]))
            }
        }
    }

    /// A slot evaluated again threw a promise: it waits on that one, unless it suspended too often.
    private func suspendAgain(_ slot: SlotIndex, on promise: ThrownPromise) {
        records.slots[slot].resuspensions += 1
        let record = records.slots[slot]
        do {
            guard record.resuspensions <= options.maxResuspensions else {
                collector?.unstable(
                    record.component, attempts: record.resuspensions, lastKey: promise.key ?? promise.valueTypeName)
                throw located(
                    SuspenseError.stillSuspending(
                        component: record.component, attempts: record.resuspensions,
                        lastQuery: promise.key ?? promise.valueTypeName),
                    at: errorPath(of: record))
            }
            let target = try deliveryTarget(
                of: promise, from: record.context.suspense, component: record.component,
                errorPath: { errorPath(of: record) })
            let (query, label) = identify(promise)
            records.slots[slot].queryLabel = label
            records.slots[slot].deliversTo = target
            wait(slot, on: query, promise: promise, previous: record.queryLabel)
            if label != record.queryLabel { noteChange(.progressed(record.context.suspense)) }
        } catch {
            route(error, at: record.context, path: errorPath(of: record))
        }
    }

    /// Gives a typed Suspense the value of a keyless promise: its content is evaluated again from
    /// scratch with the value.
    private func deliver(_ value: any Sendable, to index: SuspenseIndex) {
        guard records.isAlive(index), let outer = records.suspenses[index].outer else { return }
        let wasResolved = records.suspenses[index].isResolved
        records.suspenses[index].deliveries += 1
        retire(records.kill(records.suspenses[index].contentScope))
        records.suspenses[index].contentScope = records.makeScope(parent: outer.scope)
        nodes.removeChildren(of: records.suspenses[index].contentNode)
        do {
            try evaluateContent(of: index, value: value)
        } catch {
            route(error, at: outer, path: names(of: outer.path, appending: "Suspense"))
            return
        }
        if records.suspenses[index].pendingCount == 0 {
            if wasResolved { noteChange(.resolved(index)) } else { settling.touched.append(index) }
        } else if wasResolved {
            records.suspenses[index].isResolved = false
            settling.reopened.append(index)
        }
    }
}
