/// An ErrorBoundary that tries its content again (`ErrorBoundary(retry:)`): instead of showing its
/// fallback, it forgets the failures met beneath it and suspends its content on a query that
/// waits the backoff; when that query finishes, its slot evaluates the content again, in the
/// boundary's place, and a new failure comes back to the same boundary.
extension _Resolver {
    func tryAgain(_ index: ErrorBoundaryIndex, policy: RetryPolicy) {
        let record = records.errorBoundaries[index]
        guard let content = record.retryContent else { return }
        retire(records.kill(record.contentScope))
        nodes.removeChildren(of: record.contentNode)
        // The failed queries beneath it run again when the content asks for them.
        cache.dropFailures(scope.mailbox.failures(since: failures.mark))
        let attempt = record.attempts
        collector?.retrying(record.id, path: names(of: record.outer.path, appending: "ErrorBoundary"))
        records.errorBoundaries[index].attempts += 1
        let contentScope = records.makeScope(parent: record.outer.scope)
        records.errorBoundaries[index].contentScope = contentScope

        // The content's place, as `resolveErrorBoundary` sets it.
        let node = nodes.makeFragment()
        nodes.link(node, to: record.contentNode)
        var place = place(
            inside: record.outer, boundary: "ErrorBoundary", region: .errorBoundary(index), node: node,
            scope: contentScope)
        place.errorBoundary = index

        let label = "retry of ErrorBoundary #\(record.id) after attempt \(attempt)"
        let query = waits.makeAnonymous(label: label, retrying: record.id)
        let clock = scope.clock
        let delay = policy.delay(afterAttempt: attempt)
        let backoff = Promise<Bool>(key: nil) {
            try await clock.sleep(for: delay)
            return true
        }
        let slot = addSlot(
            SlotRecord(
                node: node,
                context: place,
                position: .made(record.id.link),
                positionClaimed: true,
                component: "ErrorBoundary",
                pathAddsComponent: false,
                thunk: _ClosureThunk(body: content),
                waitsInFlight: true,
                query: query,
                queryLabel: label
            ))
        let owner = place.suspense
        waits.add(slot, on: query, promise: ThrownPromise(backoff), stub: nil)
        // What the boundary's region shows changed, and what its Suspense waits on.
        noteChange(.caught(index))
        if owner != Self.root { noteChange(.progressed(owner)) }
    }
}
