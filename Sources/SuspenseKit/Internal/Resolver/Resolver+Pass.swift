// Passes and depth.
//
// Every evaluation of a render happens inside `pass`: the first pass, a query's result, a
// timeout, a recheck of fallback timing, the deadline, and a boundary's retry (a query like any
// other). `pass` binds the render's scope for the components being made, runs the work, then
// evaluates the subtrees it deferred and settles the boundaries, and checks the bookkeeping. No
// other function evaluates a component from outside a pass: "every pass starts here" has this
// one home. Each pass is told its cause (`PassCause`), which the render loop gives the queries
// the pass discovered as it starts them, so that a waterfall shows in the events.
//
// Depth: evaluation recurses, a few hundred bytes to a few kilobytes of machine stack per level
// (debug and sanitizer builds are the largest). Rather than measure the stack, the resolver bounds
// its own recursion: a pass keeps at most `maxLevelsOnStack` levels on the stack, and a child
// below that is *deferred*: a ready slot captures its place (parent node, boundaries, path,
// position, environment), exactly as a suspended child does, and the pass loop evaluates it once
// the stack has unwound. So a tree as deep as `RenderOptions.maxDepth` renders on any thread and
// any executor, the main actor included, with no thread of its own and no stack limit read.
//
// What a deferred subtree changes, and what it does not: output, position ids and error paths are
// those of the same subtree evaluated in place, since it is evaluated in its captured place and its
// node stands where it would have. The order of evaluation changes for trees deeper than the
// bound: the siblings after a deferred subtree are evaluated before it. A boundary whose content
// holds deferred subtrees decides whether it shows its fallback only once they have been
// evaluated (`undecided`), so a Suspense never shows a fallback only because its content was
// deep. An error thrown in a deferred subtree reaches its ErrorBoundary through `route`, as a
// suspended child's does; siblings after it were evaluated already, and their queries may have
// started (they are cancelled with the discarded content).

extension _Resolver {
    /// Runs `work`, which evaluates components, as one pass: with the render's scope bound,
    /// followed by every subtree deferred meanwhile and by settling the boundaries whose state
    /// changed. Stops early once an error reached the root (`uncaught`). `cause` is what led to
    /// it: the queries it discovers are started with it (`passCause`).
    func pass<Result>(_ cause: PassCause, _ work: () throws -> Result) rethrows -> Result {
        assert(levelsOnStack == 0 && ready.isEmpty, "a pass began inside another")
        assert(!waits.hasDiscovered, "a pass began before the queries of the one before were started")
        passCause = cause
        collector?.cause = cause
        let result = try RenderScope.bind(scope) {
            let result = try work()
            finishPass()
            return result
        }
        collector?.passEnded()
        assert(failures.uncaught != nil || ready.isEmpty, "a pass ended with deferred subtrees left")
        if failures.uncaught == nil { checkBookkeeping() }
        return result
    }

    /// Evaluates the deferred subtrees and settles, until neither has work left. Each evaluation
    /// (the pass's work, a deferred subtree, a fallback shown while settling) is a unit: the
    /// subtrees it deferred are evaluated next, first deferred first, before any deferred earlier
    /// by another unit, so that they run in the order they stand in (see `ReadyQueue`).
    private func finishPass() {
        ready.flush()
        while failures.uncaught == nil {
            if let slot = ready.next() {
                evaluateDeferred(slot)
                ready.flush()
                continue
            }
            if settling.isEmpty { break }
            settle()
            ready.flush()
        }
        ready.removeAll()
    }

    /// Defers the evaluation of `value` by `body` to the pass loop: the child below the stack's
    /// bound. `@inlinable @inline(never)`, so that the closure is formed only on this rare path
    /// and not in every evaluation's frame.
    @inlinable @inline(never)
    func deferSubtree<Value>(with value: Value, _ body: @escaping (_Resolver, Value) throws -> Void) {
        deferSubtree { try body($0, value) }
    }

    /// Adds a ready slot for `evaluate` in the current place: a fragment node where the subtree
    /// goes, the place captured as a suspended child's is.
    @usableFromInline
    func deferSubtree(_ evaluate: @escaping (_Resolver) throws -> Void) {
        let node = nodes.makeFragment()
        nodes.link(node, to: context.parent)
        var place = context
        place.parent = node
        addReady(at: place, position: positions.position(), claimed: positions.isClaimed, evaluate)
    }

    /// Defers handling an error thrown at `place` behind the subtrees the current unit deferred
    /// before it threw: on the stack, they would have been evaluated first, and may fail first.
    /// `handle` routes or catches it; it is dropped if `place` is discarded meanwhile.
    func postpone(at place: EvaluationContext, _ handle: @escaping (_Resolver) throws -> Void) {
        addReady(at: place, position: .made(nil), claimed: true, handle)
    }

    private func addReady(
        at place: EvaluationContext, position: SlotPosition, claimed: Bool,
        _ evaluate: @escaping (_Resolver) throws -> Void
    ) {
        let index = records.slots.count
        records.slots.append(
            SlotRecord(
                node: place.parent,
                context: place,
                position: position,
                positionClaimed: claimed,
                component: paths.lastName(of: place.path).map { nodes.names[$0] } ?? "the root",
                pathAddsComponent: false,
                thunk: _ClosureThunk(body: evaluate),
                isPending: false,
                isReady: true,
                query: .anonymous(-1),
                queryLabel: ""
            ))
        records.scopes[place.scope].slots.append(index)
        ready.append(index)
        holdDecisions(from: place.suspense)
    }

    /// Evaluates a deferred subtree in its place, with an empty stack; an error goes to the
    /// nearest ErrorBoundary of its place, as it would have on the stack.
    private func evaluateDeferred(_ slot: SlotIndex) {
        guard records.slots[slot].isReady, let thunk = records.slots[slot].thunk else { return }
        records.slots[slot].isReady = false
        records.slots[slot].thunk = nil
        inPlace(of: slot) {
            do {
                try thunk.run(self)
            } catch {
                route(error, at: records.slots[slot].context, path: names(of: records.slots[slot].context.path))
            }
        }
        releaseDecisions(from: records.slots[slot].context.suspense)
    }

    /// Runs `body` in the place `slot` captured (its context and position), counting the
    /// failures met from now on as met beneath it: a suspended child evaluated again, a deferred
    /// subtree.
    func inPlace(of slot: SlotIndex, _ body: () -> Void) {
        let savedMark = failures.mark
        failures.mark = scope.mailbox.failureCount
        // Swapped in and out: one copy of the slot's context (the record keeps its own), where
        // saving, replacing and restoring the context copied it three times.
        var other = records.slots[slot].context
        swapContext(with: &other)
        positions.enterRegion(records.slots[slot].position, claimed: records.slots[slot].positionClaimed)
        defer {
            positions.pop()
            swapContext(with: &other)
            failures.mark = savedMark
        }
        body()
    }

    /// A ready slot was discarded with its region before it was evaluated.
    func discardDeferred(_ slot: SlotIndex) {
        records.slots[slot].isReady = false
        records.slots[slot].thunk = nil
        releaseDecisions(from: records.slots[slot].context.suspense)
    }

    // MARK: Decisions held by deferred subtrees

    /// Counts a deferred subtree in `suspense` and every Suspense around it: what it turns out
    /// to be (pending or not, or a fallback that suspends) may decide any of them.
    private func holdDecisions(from suspense: SuspenseIndex) {
        var index = suspense
        while index != Self.root {
            records.suspenses[index].deferred += 1
            index = records.suspenses[index].outer?.suspense ?? Self.root
        }
    }

    /// A deferred subtree was evaluated or discarded: each Suspense around it that has none left
    /// decides now, innermost first (an inner one's fallback may suspend in an outer one).
    private func releaseDecisions(from suspense: SuspenseIndex) {
        var index = suspense
        while index != Self.root {
            records.suspenses[index].deferred -= 1
            assert(
                records.suspenses[index].deferred >= 0, "a Suspense released more deferred subtrees than it timing.held"
            )
            if records.suspenses[index].deferred == 0 {
                if records.suspenses[index].undecided {
                    decide(index)
                } else {
                    settling.touched.append(index)
                }
            }
            index = records.suspenses[index].outer?.suspense ?? Self.root
        }
    }

    /// A Suspense whose content had deferred subtrees decides, as `resolveSuspense` would have
    /// if the content had been evaluated on the stack: resolved, or showing its fallback.
    private func decide(_ index: SuspenseIndex) {
        records.suspenses[index].undecided = false
        guard records.isAlive(index), let outer = records.suspenses[index].outer else { return }
        if records.suspenses[index].pendingCount == 0 {
            if records.suspenses[index].row == nil {
                records.suspenses[index].isResolved = true
                return
            }
            do {
                try holdRow(index)
            } catch {
                route(error, at: outer, path: names(of: outer.path, appending: "Suspense"))
            }
            return
        }
        if records.suspenses[index].timing != nil { beganPending(index) }
        do {
            try evaluateFallback(of: index)
        } catch {
            route(error, at: outer, path: names(of: outer.path, appending: "Suspense"))
        }
    }
}

/// The deferred subtrees of a pass, in the order they stand in the tree: those the unit being
/// evaluated defers (`fresh`, in the order deferred) go on top of those deferred before, when the
/// unit ends, so that a subtree's own deferred subtrees come before its later siblings' (a depth
/// first walk, as on the stack).
struct ReadyQueue {
    private var stack: [SlotIndex] = []
    private var fresh: [SlotIndex] = []

    var isEmpty: Bool { stack.isEmpty && fresh.isEmpty }
    /// Whether the unit being evaluated deferred a subtree (or postponed an error).
    var hasFresh: Bool { !fresh.isEmpty }

    mutating func append(_ slot: SlotIndex) {
        fresh.append(slot)
    }

    /// Ends a unit: what it deferred comes next.
    mutating func flush() {
        guard !fresh.isEmpty else { return }
        stack.append(contentsOf: fresh.reversed())
        fresh.removeAll(keepingCapacity: true)
    }

    mutating func next() -> SlotIndex? {
        stack.popLast()
    }

    mutating func removeAll() {
        stack.removeAll(keepingCapacity: true)
        fresh.removeAll(keepingCapacity: true)
    }
}
