/// Suspense and ErrorBoundary: their records, content, fallbacks, and catching.
extension _Resolver {
    @usableFromInline
    func resolveSuspense(
        typedValueType: (any Any.Type)?,
        timing: _SuspenseTiming? = nil,
        content: @escaping (_Resolver, Any?) throws -> Void,
        fallback: @escaping (_Resolver) throws -> Void
    ) throws {
        try checkDepth(context.depth + 1, "Suspense")
        let index = records.suspenses.count
        let node = nodes.appendSuspense(index, to: context.parent)
        records.suspenses.append(
            SuspenseRecord(
                id: BoundaryID(positions.claimBoundaryLink()),
                outer: context,
                node: node,
                contentNode: nodes.makeFragment(),
                fallbackNode: nodes.makeFragment(),
                contentScope: records.makeScope(parent: context.scope),
                typedValueType: typedValueType,
                timing: timing,
                content: content,
                fallback: fallback
            ))
        joinRow(index)
        try evaluateContent(of: index, value: nil)
        if records.suspenses[index].pendingCount == 0 {
            // Deferred subtrees beneath it may yet suspend: it decides once they are evaluated.
            if records.suspenses[index].deferred > 0 {
                records.suspenses[index].undecided = true
            } else if records.suspenses[index].row != nil {
                try holdRow(index)
            } else {
                records.suspenses[index].isResolved = true
            }
        } else {
            if timing != nil { beganPending(index) }
            try evaluateFallback(of: index)
        }
    }

    /// Evaluates a Suspense's content, with the value of its keyless promise for a typed one.
    func evaluateContent(of index: SuspenseIndex, value: Any?) throws {
        let record = records.suspenses[index]
        guard let outer = record.outer, let content = record.content else { return }
        // In the Suspense's place, also when a typed one's value arrives outside any pass.
        var place = place(
            inside: outer, boundary: "Suspense", region: .suspense(index), node: record.contentNode,
            scope: record.contentScope)
        place.suspense = index
        place.list = -1
        try evaluate(in: place, below: record.id.link) { try content(self, value) }
    }

    /// Evaluates a Suspense's fallback where the Suspense stands: what suspends in it waits in
    /// the Suspense outside, and what fails in it goes to the ErrorBoundary outside.
    func evaluateFallback(of index: SuspenseIndex) throws {
        let record = records.suspenses[index]
        guard let outer = record.outer, let fallback = record.fallback else { return }
        let scope = records.makeScope(parent: outer.scope)
        records.suspenses[index].fallbackScope = scope
        var place = place(
            inside: outer, boundary: "Suspense", region: .suspense(index), node: record.fallbackNode, scope: scope)
        place.list = -1
        try evaluate(in: place, below: PositionLink(index: PositionLink.fallbackIndex, parent: record.id.link)) {
            try fallback(self)
        }
    }

    /// Resolves an ErrorBoundary: its content, or, when the content throws an error the boundary
    /// catches, its fallback. `catches` (nil: every error) decides for a typed boundary; an error
    /// it does not catch goes on up the Swift stack to the next boundary outside.
    @usableFromInline
    func resolveErrorBoundary(
        catches: ((any Error) -> Bool)?,
        onError: ((CaughtError) -> Void)?,
        retry: RetryPolicy? = nil,
        retryContent: ((_Resolver) throws -> Void)? = nil,
        content: (_Resolver) throws -> Void,
        fallback: @escaping (_Resolver, any Error) throws -> Void
    ) throws {
        try checkDepth(context.depth + 1, "ErrorBoundary")
        let index = records.errorBoundaries.count
        let node = nodes.appendErrorBoundary(index, to: context.parent)
        let contentNode = nodes.makeFragment()
        let contentScope = records.makeScope(parent: context.scope)
        let id = BoundaryID(positions.claimBoundaryLink())
        records.errorBoundaries.append(
            ErrorBoundaryRecord(
                id: id,
                outer: context,
                node: node,
                contentNode: contentNode,
                fallbackNode: nodes.makeFragment(),
                contentScope: contentScope,
                fallback: fallback,
                filter: catches,
                onError: onError,
                retry: retry,
                retryContent: retryContent
            ))
        let saved = context
        context.parent = contentNode
        context.scope = contentScope
        context.errorBoundary = index
        context.region = .errorBoundary(index)
        paths.append(nodes.names.index(of: "ErrorBoundary"), to: &context.path)
        context.depth += 1
        positions.enterRegion(.made(id.link), claimed: true)
        // Failures met from here on were met beneath this boundary (for a retry to forget).
        let savedMark = failures.mark
        failures.mark = scope.mailbox.failureCount
        defer { failures.mark = savedMark }
        do {
            try content(self)
            positions.pop()
            context = saved
        } catch {
            positions.pop()
            context = saved
            guard records.errorBoundaries[index].catches(underlying(of: error)) else { throw error }
            // Subtrees deferred before the error are evaluated first, as they would have been
            // on the stack: one of them may fail first (Resolver+Pass).
            if ready.hasFresh {
                let failed = records.errorBoundaries[index].contentScope
                postpone(at: saved) { resolver in
                    guard !resolver.records.scopes[failed].isDead else { return }
                    try resolver.catch(error, at: index)
                }
                return
            }
            try `catch`(error, at: index)
        }
    }

    /// Shows an ErrorBoundary's fallback for `error`, which it catches, discarding its content,
    /// and reports the failure (`reportCaught`). An error from the fallback is thrown, to go to
    /// the next boundary outside.
    func `catch`(_ error: any Error, at index: ErrorBoundaryIndex) throws {
        let underlying = underlying(of: error)
        if let retry = records.errorBoundaries[index].retry,
            retry.shouldRetry(underlying, afterAttempt: records.errorBoundaries[index].attempts)
        {
            tryAgain(index, policy: retry)
            return
        }
        assert(records.errorBoundaries[index].catches(underlying), "a boundary caught an error it does not catch")
        records.errorBoundaries[index].caught = underlying
        let record = records.errorBoundaries[index]
        retire(records.kill(record.contentScope))
        nodes.removeChildren(of: record.contentNode)
        noteChange(.caught(index))
        // Rows it discarded count as settled: the rows they held may reveal.
        if !records.lists.isEmpty { listsChanged() }
        reportCaught(error, at: index)
        // The boundary's place: when a slot's error is routed here, the slot's is current.
        let place = place(
            inside: record.outer, boundary: "ErrorBoundary", region: .errorBoundary(index), node: record.fallbackNode,
            scope: records.makeScope(parent: record.outer.scope))
        try evaluate(in: place, below: PositionLink(index: PositionLink.fallbackIndex, parent: record.id.link)) {
            do {
                try record.fallback(self, underlying)
            } catch let error as LocatedError {
                throw error
            } catch {
                throw located(error, at: context.path)
            }
        }
    }

    // MARK: Places

    /// The place of a boundary's own region (its content or a fallback): where the boundary
    /// stands (`outer`), one level deeper, below `node`, in `scope`.
    func place(
        inside outer: EvaluationContext, boundary name: String, region: Region, node: NodeArena.ID, scope: ScopeIndex
    ) -> EvaluationContext {
        var place = outer
        place.parent = node
        place.scope = scope
        place.region = region
        paths.append(nodes.names.index(of: name), to: &place.path)
        place.depth += 1
        return place
    }

    /// Runs `body` in `place`, its children numbered below `link`, then restores the place
    /// before. For a region evaluated outside its boundary's own evaluation too (a slot's error
    /// routed to its boundary, a typed Suspense's value arriving): `place` replaces whatever is
    /// current.
    func evaluate(in place: EvaluationContext, below link: PositionLink?, _ body: () throws -> Void) rethrows {
        let saved = context
        replaceContext(with: place)
        positions.enterRegion(.made(link), claimed: true)
        defer {
            positions.pop()
            replaceContext(with: saved)
        }
        try body()
    }
}
