// The render report and diagnostics: an observer of the render's events, told by the resolver
// the few things events do not carry (which boundary waits on which key, what the cache answered
// a read, a promise a component made and never threw), and nothing else. Made by the render loop
// only when `RenderOptions.onReport` or `onDiagnostic` is set; otherwise every hook is a nil
// check, and no event is made for it.
//
// Who owns what: the resolver owns the collector (and lends it to its `RenderScope` for the
// reads components make); the collector refers to nothing of the render's but its clock.

/// Collects one render's report and diagnostics. Used by the render's task only, as the
/// resolver is (the scope's reads happen inside a pass, on the pass's thread).
@usableFromInline
final class ReportCollector: RenderObserver {
    private let clock: RenderClock
    /// Whether the render streams: the shell waiting on data is then worth a diagnostic.
    private let isStream: Bool
    private let onDiagnostic: (@Sendable (Diagnostic) -> Void)?
    /// Given the report as it stands at the shell.
    private let onShellReport: (@Sendable (RenderReport) -> Void)?
    /// The cause of the pass running now (set by `_Resolver.pass`, as the pass begins).
    var cause = PassCause.firstPass {
        didSet { readInPass.removeAll(keepingCapacity: true) }
    }
    /// The keys components read in the pass running now.
    private var readInPass: Set<String> = []

    /// One run of a query, as the render saw it.
    private struct Run {
        let key: String
        var outcome: RenderReport.CacheOutcome?
        let cause: PassCause
        let startedAt: Duration
        var finishedAt: Duration?
        var error: String?
        var cancelled = false
        /// The render started it on the immediate path: with no event for it, it answered at once.
        var startedByRead = false
        var sawStart = false
    }

    private struct Entry {
        let id: BoundaryID
        var kind: RenderReport.BoundaryKind
        var path: [String]
        var fallbackAt: Duration?
        var revealedAt: Duration?
        /// Indices in `runs`, in the order the boundary first waited on each key.
        var waits: [Int] = []
        var keys: Set<String> = []
        var resuspensions = 0
        var retries = 0
        var timedOut = false
        var errors: [String] = []
    }

    private var runs: [Run] = []
    /// The latest run of each key.
    private var latest: [String: Int] = [:]
    private var entries: [Entry] = []
    private var entryIndex: [BoundaryID: Int] = [:]
    private var diagnostics: [Diagnostic] = []
    /// What a diagnostic was given for already, so that each is given once.
    private var noticed: Set<String> = []
    /// Promises components made since the last check that the resolver has not caught: thrown,
    /// or caught (`try?`) by the component itself.
    private var outstanding: [(label: String, component: String?)] = []
    /// The last user component the resolver entered.
    private var component: String?
    private var shellAt: Duration?
    private var deadlinePassed = false

    init(
        clock: RenderClock, isStream: Bool, onDiagnostic: (@Sendable (Diagnostic) -> Void)?,
        onShellReport: (@Sendable (RenderReport) -> Void)? = nil
    ) {
        self.clock = clock
        self.isStream = isStream
        self.onDiagnostic = onDiagnostic
        self.onShellReport = onShellReport
    }

    /// A collector when `options` asks for a report or diagnostics; nil otherwise.
    static func make(for options: RenderOptions, mode: RenderMode, clock: RenderClock) -> ReportCollector? {
        guard options.onReport != nil || options.onDiagnostic != nil || options.onShellReport != nil else { return nil }
        return ReportCollector(
            clock: clock, isStream: mode.isStream, onDiagnostic: options.onDiagnostic,
            onShellReport: options.onShellReport)
    }

    var needsPassTree: Bool { false }

    // MARK: Reads and promises

    /// A component read `key` from the cache: the first read of a run decides its outcome.
    func read(_ key: String, found: _QueryRead?, failure: (any Error)?, cache: QueryCache) {
        readInPass.insert(key)
        if let index = latest[key] {
            // A run in flight, or a result read again: nothing new. A key read again after its
            // run ended and started anew (its failure dropped for a retry) is a new run.
            guard case .start? = found, runs[index].finishedAt != nil || runs[index].cancelled else { return }
        }
        let now = clock.elapsed()
        switch found {
        case .value?:
            addRun(Run(key: key, outcome: .hit, cause: cause, startedAt: now, finishedAt: now))
        case .refresh?:
            // A stale value served at once, while the cache loads a fresh one.
            addRun(Run(key: key, outcome: .stale, cause: cause, startedAt: now, finishedAt: now))
        case .start?:
            var run = Run(key: key, outcome: .miss, cause: cause, startedAt: now)
            run.startedByRead = true
            addRun(run)
        case .suspend?:
            // Running for another render (`joined`, told by its start event) or for the cache.
            addRun(
                Run(key: key, outcome: cache.isPrefetching(key) ? .prefetched : nil, cause: cause, startedAt: now))
        case nil:
            guard let failure else { return }
            var run = Run(key: key, outcome: .hit, cause: cause, startedAt: now, finishedAt: now)
            run.error = describeError(failure, suggestion: false)
            addRun(run)
        }
    }

    /// A run the render started at once failed at once.
    func failedAtOnce(_ key: String, _ error: any Error) {
        guard let index = latest[key], runs[index].finishedAt == nil else { return }
        runs[index].finishedAt = clock.elapsed()
        runs[index].error = describeError(error, suggestion: false)
    }

    private func addRun(_ run: Run) {
        latest[run.key] = runs.count
        runs.append(run)
    }

    /// A component made a promise (`resolveValue` found no value); `promiseCaught` follows
    /// when it reaches the resolver.
    func promiseMade(_ label: String) {
        outstanding.append((label, component))
    }

    /// The resolver caught a promise a component threw.
    func promiseCaught() {
        outstanding.removeAll()
    }

    /// The resolver entered the component `name`, whose initializer returned.
    func componentMade(_ name: String) {
        if !outstanding.isEmpty { swallowed(in: name, where: "initializer") }
        component = name
    }

    /// The body of the component `name` returned.
    @usableFromInline
    func bodyReturned(_ name: String) {
        if !outstanding.isEmpty { swallowed(in: name, where: "body") }
    }

    /// A pass ended: a promise made and never thrown was swallowed where it was made.
    func passEnded() {
        guard !outstanding.isEmpty else { return }
        for (label, component) in outstanding {
            noteSwallowed(label, in: component ?? "a component", where: nil)
        }
        outstanding.removeAll()
    }

    private func swallowed(in component: String, where part: String) {
        for (label, _) in outstanding { noteSwallowed(label, in: component, where: part) }
        outstanding.removeAll()
    }

    private func noteSwallowed(_ label: String, in component: String, where part: String?) {
        let place = part.map { "the \($0) of \(component)" } ?? component
        notice(
            Diagnostic(
                .swallowedSuspension,
                message: "\(place) caught the pending Promise of \"\(label)\" (try? or catch around resolveValue) "
                    + "and went on without its value: it shows that whenever the query is slower than the render. "
                    + "Let the Promise propagate to a Suspense.",
                component: component, keys: [label], time: clock.elapsed()),
            once: "swallowed \(component) \(label)")
    }

    // MARK: Waits

    /// A slot of the boundary `id` began waiting on `key`: a component suspended on it.
    /// `previous` is what the same component waited on before it suspended again.
    func waited(
        on key: String, component: String, boundary id: BoundaryID, isRoot: Bool, path: @autoclosure () -> [String],
        previous: String?, shellSent: Bool
    ) {
        let now = clock.elapsed()
        let index = entry(id, kind: isRoot ? .root : .suspense, path: path())
        if shellSent, !isRoot, entries[index].fallbackAt == nil { entries[index].fallbackAt = now }
        if isRoot, !shellSent, isStream {
            notice(
                Diagnostic(
                    .suspendedOutsideBoundary,
                    message: "\(component) waited on \"\(key)\" outside every Suspense: the stream's shell, and the "
                        + "response's first byte, waited for it. Wrap \(component) in a Suspense with a fallback.",
                    component: component, keys: [key], boundary: id, time: now),
                once: "outside \(key)")
        }
        // A waterfall: the key was first read in a pass caused by the result of another key that
        // this component or this boundary waited on, and that the pass read again on its way to
        // this one (a component that reads a new key instead of the old one has an unstable key).
        let first = latest[key].map { runs[$0].cause } ?? cause
        if case .result(let earlier) = first, earlier != key, readInPass.contains(earlier),
            earlier == previous || entries[index].keys.contains(earlier)
        {
            let place = isRoot ? "outside every boundary" : "in the same Suspense (\(id))"
            notice(
                Diagnostic(
                    .sequentialQueries,
                    message: "\(component) read \"\(key)\" only after \"\(earlier)\" resolved \(place): the queries "
                        + "ran one after the other. Read both at once with resolveValues, or start \"\(key)\" "
                        + "early with QueryCache.prefetch(key:query:).",
                    component: component, keys: [earlier, key], boundary: id, time: now),
                once: "sequential \(earlier) \(key)")
        }
        if entries[index].keys.insert(key).inserted {
            if latest[key] == nil { addRun(Run(key: key, outcome: nil, cause: cause, startedAt: now)) }
            entries[index].waits.append(latest[key]!)
        }
    }

    /// An ErrorBoundary tries its content again after a failure.
    func retrying(_ id: BoundaryID, path: @autoclosure () -> [String]) {
        entries[entry(id, kind: .errorBoundary, path: path())].retries += 1
    }

    /// An ErrorBoundary caught `error`.
    func caught(_ error: any Error, by id: BoundaryID, path: @autoclosure () -> [String]) {
        let index = entry(id, kind: .errorBoundary, path: path())
        let described = describeError(error, suggestion: false)
        if entries[index].errors.last != described { entries[index].errors.append(described) }
    }

    /// A component suspended once more than `RenderOptions.maxResuspensions` allows: the error
    /// follows.
    func unstable(_ component: String, attempts: Int, lastKey: String) {
        notice(
            Diagnostic(
                .unstableKey,
                message: "\(component) suspended again \(attempts) times, last on \"\(lastKey)\": its key changes on "
                    + "every evaluation (a timestamp, a random id, a value made in the initializer). Build the key "
                    + "from the data it names only.",
                component: component, keys: [lastKey], time: clock.elapsed()),
            once: "unstable \(component)")
    }

    /// The render failed with `error`, no boundary having caught it.
    func failed(_ error: RenderError, shellSent: Bool) {
        guard shellSent else { return }
        let component = error.path.last
        notice(
            Diagnostic(
                .uncaughtAfterShell,
                message: "\(RenderError.shortened(error.path)) failed after the shell was ready and no ErrorBoundary "
                    + "caught it: a stream has sent part of the page and ends with the error. Put an ErrorBoundary "
                    + "around the Suspense it is in.",
                component: component, time: clock.elapsed()),
            once: "uncaught")
    }

    private func notice(_ diagnostic: Diagnostic, once key: String) {
        guard noticed.insert(key).inserted else { return }
        diagnostics.append(diagnostic)
        onDiagnostic?(diagnostic)
    }

    private func entry(_ id: BoundaryID, kind: RenderReport.BoundaryKind, path: @autoclosure () -> [String]) -> Int {
        if let index = entryIndex[id] { return index }
        entryIndex[id] = entries.count
        entries.append(Entry(id: id, kind: kind, path: path()))
        return entries.count - 1
    }

    // MARK: Events

    func observe(_ event: RenderEvent) {
        let time = event.time
        switch event.kind {
        case .shell(_, let pending, _):
            shellAt = time
            let showing = Set(pending)
            for id in pending { entries[entry(id, kind: .suspense, path: [])].fallbackAt = time }
            for index in entries.indices where !showing.contains(entries[index].id) {
                // Resolved before the shell: revealed with it.
                if entries[index].kind != .errorBoundary, entries[index].revealedAt == nil {
                    entries[index].revealedAt = time
                }
            }
            onShellReport?(report(error: nil))
        case .resolved(let id, _):
            if let index = entryIndex[id] { entries[index].revealedAt = time }
        case .suspended(let id, _):
            let index = entry(id, kind: .suspense, path: [])
            entries[index].resuspensions += 1
            entries[index].revealedAt = nil
            if entries[index].fallbackAt == nil { entries[index].fallbackAt = time }
        case .queryStarted(let key, let joined, let cause):
            if let index = latest[key], runs[index].finishedAt == nil, !runs[index].sawStart {
                runs[index].sawStart = true
                if runs[index].outcome == nil { runs[index].outcome = joined ? .joined : .miss }
            } else {
                var run = Run(key: key, outcome: joined ? .joined : .miss, cause: cause, startedAt: time)
                run.sawStart = true
                addRun(run)
            }
        case .queryFinished(let key):
            if let index = latest[key], runs[index].finishedAt == nil { runs[index].finishedAt = time }
        case .queryFailed(let key, let error):
            if let index = latest[key], runs[index].finishedAt == nil {
                runs[index].finishedAt = time
                runs[index].error = describeError(error, suggestion: false)
            }
        case .queryCancelled(let key):
            if let index = latest[key], runs[index].finishedAt == nil { runs[index].cancelled = true }
        case .timedOut(let id, _):
            entries[entry(id, kind: .suspense, path: [])].timedOut = true
        case .deadlinePassed:
            deadlinePassed = true
        case .waiting, .caught, .updated, .progress, .finished, .revealedTogether:
            break
        }
    }

    // MARK: The report

    /// The report as the render ends, with the error it fails with, if any.
    func report(error: (any Error)?) -> RenderReport {
        let queries = runs.map(query)
        let boundaries = entries.map { entry in
            let waited = entry.waits.map { queries[$0] }
            var revealedBy: String?
            if let revealedAt = entry.revealedAt {
                var last: Duration?
                for query in waited {
                    guard let finished = query.finishedAt, finished <= revealedAt else { continue }
                    if last.map({ finished >= $0 }) ?? true {
                        last = finished
                        revealedBy = query.key
                    }
                }
            }
            return RenderReport.Boundary(
                id: entry.id, kind: entry.kind, path: entry.path, fallbackAt: entry.fallbackAt,
                revealedAt: entry.revealedAt, waitedOn: waited, revealedBy: revealedBy,
                resuspensions: entry.resuspensions, retries: entry.retries, timedOut: entry.timedOut,
                errors: entry.errors)
        }
        return RenderReport(
            shellAt: shellAt, finishedAt: clock.elapsed(), deadlinePassed: deadlinePassed, boundaries: boundaries,
            queries: queries, diagnostics: diagnostics, error: error.map { describeError($0, suggestion: false) })
    }

    private func query(_ run: Run) -> RenderReport.Query {
        // Started by a read and never waited on through the runner: it answered at once.
        let answeredAtOnce = run.startedByRead && !run.sawStart && !run.cancelled && run.finishedAt == nil
        return RenderReport.Query(
            key: run.key, outcome: run.outcome ?? .miss, cause: RenderReport.Cause(run.cause),
            startedAt: run.startedAt, finishedAt: answeredAtOnce ? run.startedAt : run.finishedAt, error: run.error,
            cancelled: run.cancelled)
    }
}
