/// Time: a Suspense whose timeout passed, and the render's deadline.
extension _Resolver {
    /// A Suspense with a timeout or fallback timing began showing its fallback: notes when, and
    /// its timeout for the render loop to arm.
    func beganPending(_ index: SuspenseIndex) {
        records.suspenses[index].pendingSince = scope.clock.elapsed()
        guard let settings = records.suspenses[index].timing else { return }
        if settings.timeout != nil { timing.timed.append(index) }
        if settings.fallbackDelay != nil { timing.hasDelays = true }
    }

    /// Until when fallback timing holds back the resolution of the Suspense at `index` (for the
    /// root: the shell); nil when it may resolve now. A boundary whose fallback was shown keeps
    /// it for its minimum duration, counted from when it began showing it (not before the shell);
    /// a boundary holds its own content back while a Suspense directly inside it is pending
    /// within its fallback delay, so that content resolving sooner is never shown as a fallback.
    func resolutionHold(of index: SuspenseIndex) -> Duration? {
        guard timing.isHonoured else { return nil }
        let now = scope.clock.elapsed()
        var until: Duration?
        let record = records.suspenses[index]
        if !record.isRoot, let minimum = record.timing?.minimumFallbackDuration,
            let shellSentAt = timing.shellSentAt
        {
            let end = max(record.pendingSince, shellSentAt) + minimum
            if end > now { until = end }
        }
        if timing.hasDelays {
            for inner in records.suspenses.indices.dropFirst() {
                let nested = records.suspenses[inner]
                guard let delay = nested.timing?.fallbackDelay, nested.outer?.suspense == index,
                    !nested.isResolved, records.isAlive(inner)
                else { continue }
                let end = nested.pendingSince + delay
                if end > now { until = max(until ?? end, end) }
            }
        }
        return until
    }

    /// Takes the holds noted since the last call.
    func takeHeld() -> [(SuspenseIndex, Duration)] {
        timing.takeHeld()
    }

    /// A hold may be over: the Suspense tries to resolve again.
    func recheck(_ index: SuspenseIndex) {
        guard index != Self.root else { return }
        settling.touched.append(index)
        pass(.recheck(records.suspenses[index].id)) {}
    }

    /// Takes the Suspenses with a timeout that began showing their fallback since the last call.
    func takeTimed() -> [SuspenseIndex] {
        timing.takeTimed()
    }

    /// Whether a Suspense still shows its fallback: not resolved, and not discarded.
    func isPending(_ suspense: SuspenseIndex) -> Bool {
        !records.suspenses[suspense].isResolved && records.isAlive(suspense)
    }

    /// A Suspense whose timeout passed: its id, the error, and the queries no other slot of the
    /// render waits on any more, for the runner to leave.
    struct TimedOut {
        let id: BoundaryID
        let error: TimeoutError
        let stopped: [QueryID]
    }

    /// The timeout of a pending Suspense passed: it stops waiting on its queries and a
    /// ``TimeoutError`` goes to the nearest ErrorBoundary above it. Nil when the Suspense no
    /// longer shows its fallback.
    func timeOut(_ suspense: SuspenseIndex) -> TimedOut? {
        let record = records.suspenses[suspense]
        guard let outer = record.outer, let timeout = record.timing?.timeout, isPending(suspense) else { return nil }
        // A row held back by its SuspenseList has its content: only the rows before it wait.
        if record.row != nil && record.pendingCount == 0 { return nil }
        let suspensePath = names(of: outer.path, appending: "Suspense")
        let error = TimeoutError(
            path: suspensePath, duration: timeout, pendingQueries: records.pendingQueries(of: suspense))
        let stopped = stopWaiting(for: suspense)
        pass(.timeout(record.id)) { route(error, at: outer, path: suspensePath) }
        return TimedOut(id: record.id, error: error, stopped: stopped)
    }

    /// The render's deadline passed: what still waits stays as it is. Returns one
    /// ``TimeoutError`` per Suspense left showing its fallback, in document order; throws a
    /// ``RenderError`` when content outside every Suspense still waits, since it has no
    /// fallback to show.
    func cutOff(at deadline: Duration) throws -> [TimeoutError] {
        timing.deadlinePassed = true
        // What fallback timing held back is shown now: the render ends here.
        if timing.isHonoured {
            timing.isHonoured = false
            for index in records.suspenses.indices.dropFirst()
            where records.suspenses[index].pendingCount == 0 && isPending(index) {
                settling.touched.append(index)
            }
            pass(.deadline) {}
        }
        let root = records.suspenses[Self.root]
        if root.pendingCount > 0 {
            let first = root.slots.first { records.slots[$0].isPending }
            let path = first.map { errorPath(of: records.slots[$0]) } ?? []
            throw RenderError(
                path: path,
                underlying: TimeoutError(
                    path: path, duration: deadline, pendingQueries: records.pendingQueries(of: Self.root)))
        }
        var pending = records.suspenses.indices.dropFirst().filter { isPending($0) }
        pending.sort { PositionLink.precedes(records.suspenses[$0].id.link, records.suspenses[$1].id.link) }
        return pending.map { index in
            let path = records.suspenses[index].outer.map { names(of: $0.path, appending: "Suspense") } ?? []
            return TimeoutError(path: path, duration: deadline, pendingQueries: records.pendingQueries(of: index))
        }
    }
}
