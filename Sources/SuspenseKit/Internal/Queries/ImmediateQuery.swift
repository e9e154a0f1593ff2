// The immediate query path: `resolveValue(key:)` inside a render starts its query at once, on
// the component's own thread, and returns the value when the query finished without suspending.
// No promise is thrown, the component is not evaluated twice, and on platforms with immediate
// tasks no task is scheduled. A query that suspends goes on as a task of the runner, with the
// render already waiting on it: the component throws its promise as before, and its slot waits
// on the run that is in flight.
//
// Outcomes fixed by a test (`QueryCache.stub`) are never started here: they keep the normal
// path, so the fallback frame is still rendered first.

/// What the components of one render read queries through: the render's cache, and the mailbox
/// its results reach; and the environment of the place being evaluated. A class, read unretained
/// by the components of a pass (`currentUnretained`), which the pass keeps alive.
///
/// Bound to the thread running a pass (`bind`), not as a task-local: a pass is synchronous, so
/// the components it makes run on that thread; and queries, which copy the task-local values of
/// the render that starts them, copy nothing of the render itself (binding the scope as a
/// task-local made every query task copy it, and then unbind it, a tenth of the time of a query
/// that answers at once).
final class RenderScope: Sendable {
    let cache: QueryCache
    let mailbox: QueryMailbox
    /// The render's clock, for retry backoff.
    let clock: RenderClock
    /// Published by the resolver (Resolver+Environment), read while components are made.
    let environment = Locked(EnvironmentValues())
    /// False while the resolver evaluates again a component at its last allowed re-suspension:
    /// a key it has not read yet does not start at once, since suspending on it fails the
    /// component (`SuspenseError.stillSuspending`) and would only cancel the run. Written and
    /// read by the thread running the pass.
    @exclusivity(unchecked) nonisolated(unsafe) var startsRuns = true
    /// The render's report collector, when a report or diagnostics were asked for: told what
    /// each read found. Set before the first pass; used by the thread running a pass.
    @exclusivity(unchecked) nonisolated(unsafe) var collector: ReportCollector?
    /// The results the resolver is applying, and which one the component evaluated again now
    /// waited on (-1: none to serve): what it reads for that key, without a lookup in the cache
    /// (see `QueryCache.servesDeliveredValues`). Pointed at, not copied, so that moving from
    /// one slot to the next retains nothing. Set and read by the thread running the pass.
    @exclusivity(unchecked) nonisolated(unsafe) var delivered: UnsafeBufferPointer<QueryMailbox.Delivery>?
    @exclusivity(unchecked) nonisolated(unsafe) var deliveredIndex = -1

    init(cache: QueryCache, mailbox: QueryMailbox, clock: RenderClock) {
        self.cache = cache
        self.mailbox = mailbox
        self.clock = clock
    }

    private static let thread = UnretainedThreadLocal<RenderScope>()

    /// The scope of the pass running on this thread; nil outside a pass, and inside a query.
    static var current: RenderScope? { thread.value }

    /// `current`, not retained: for the read every component makes, while the pass keeps it.
    static var currentUnretained: Unmanaged<RenderScope>? { thread.unmanaged }

    /// Runs `body` with `scope` bound to this thread (nil: unbound), then restores what was
    /// bound before. The caller keeps `scope` alive meanwhile.
    static func bind<Result>(_ scope: RenderScope?, _ body: () throws -> Result) rethrows -> Result {
        // What was bound is kept alive by whoever bound it: saved and restored unretained.
        let saved = thread.unmanaged
        thread.set(scope)
        defer { thread.set(saved) }
        return try body()
    }
}

/// What `resolveValue(key:query:)` found for its key: the non-generic part of a read, out of
/// line; the generic part (running the query, handing back its value) is inlined into the
/// caller's module, where it is specialized for the value's type. Not API.
@usableFromInline
enum _QueryRead {
    /// Outside a render, or the component has to suspend (the query is running, stubbed, or
    /// pending for good): the caller throws its promise.
    case suspend
    /// The stored value.
    case value(any Sendable)
    /// A run to start at once.
    case start(_QueryStart)
    /// A stale value, served at once, and a refresh to start in the background with the
    /// reader's query.
    case refresh(any Sendable, _QueryRefresh)
}

/// A run `resolveValue(key:query:)` starts at once, on the component's thread. Not API.
@usableFromInline
struct _QueryStart: Sendable {
    /// The cache, which the run completes. The render's mailbox is not here: only the starter
    /// needs it, in its render's scope (a copy of the start, which the task takes, retained it).
    let cache: QueryCache
    let key: String
    let run: UInt64
    /// The key's hash, for the run to find its place in the cache again at once.
    let hash: Int
    /// Where the run is in the cache's table, for its completion to look there first.
    let place: ResultTable<QueryCache.Cell>.Place
}

extension QueryCache {
    /// What became of a run `read` started that did not finish at once, when the start returned.
    private enum StartOutcome {
        case running
        case finishedLater(Entry?)
    }

    /// Reads `key` in the current render: the stored value, a stored failure (thrown), a run to
    /// start, or `.suspend`.
    private static func read(_ key: String) throws -> _QueryRead {
        guard let scope = RenderScope.currentUnretained else { return .suspend }
        // Unretained: the pass keeps the scope, its cache and its mailbox alive (a retain and
        // release of each was a tenth of a read that hits).
        let collector = scope._withUnsafeGuaranteedRef { $0.collector }
        guard let collector else { return try read(key, in: scope) }
        return try collector.observeRead(key, cache: scope.takeUnretainedValue().cache) {
            try read(key, in: scope)
        }
    }

    private static func read(_ key: String, in unmanaged: Unmanaged<RenderScope>) throws -> _QueryRead {
        try unmanaged._withUnsafeGuaranteedRef { scope in
            // The key whose value is being applied: read as it was delivered, without the lock
            // and the lookup (the same value the table holds). Counted as the read it stands
            // for: a hit in the table, or none when the render keeps what it was delivered.
            if scope.deliveredIndex >= 0, let delivered = scope.delivered,
                case .key(let deliveredKey) = delivered[scope.deliveredIndex].0, deliveredKey == key,
                case .success(let value) = delivered[scope.deliveredIndex].1
            {
                if !scope.cache.rendersKeepResults { scope.cache.countDeliveredHit() }
                return .value(value)
            }
            return try scope.cache.read(key, mailbox: scope.mailbox, startsRuns: scope.startsRuns)
        }
    }

    private func read(_ key: String, mailbox: QueryMailbox, startsRuns: Bool) throws -> _QueryRead {
        // A key this render started itself and has not applied yet: its components suspend on
        // that run, whatever the table or the mailbox holds meanwhile (its value or failure,
        // stale or not, or nothing once the key was removed or expired): known without the
        // lock, and never a second run of the key. So nothing below meets such a key.
        if mailbox.isAwaiting(key) { return .suspend }
        // A result delivered to this render, or a failure it met, is what its components read
        // until it ends, though the cache may have forgotten it since (expired, or dropped as
        // another render ended): else a component evaluated again once its result arrived
        // would find it gone and run the query again, and again.
        if let entry = mailbox.kept(key) { return try Self.read(entry) }
        let now = now()
        return try state.withLock { state in
            if !state.stubs.isEmpty { state.asked.insert(key) }
            // One lookup of the key: what is there, or where its run goes.
            let (probe, cell, isStale) = state.lookUp(key, now: now)
            switch cell {
            case .stored(let entry)?:
                state.hits += 1
                if isStale, case .value(let value) = entry, state.mayRefresh(key, now: now),
                    state.stubs.isEmpty || state.stubs[key] == nil
                {
                    let run = state.beginRefresh(key, at: probe)
                    return .refresh(value, _QueryRefresh(cache: self, key: key, run: run, hash: probe.hash))
                }
                return try Self.read(entry)
            case .running?:
                if !state.storedWhileRunning.isEmpty, let entry = state.storedWhileRunning(key, now: now) {
                    state.hits += 1
                    return try Self.read(entry)
                }
                return .suspend
            case nil:
                if !startsRuns || (!state.stubs.isEmpty && state.stubs[key] != nil) { return .suspend }
                state.misses += 1
                state.nextRun += 1
                let place = state.startRunning(key, InFlightQuery(startingRun: state.nextRun), at: probe)
                return .start(
                    _QueryStart(cache: self, key: key, run: state.nextRun, hash: probe.hash, place: place))
            }
        }
    }

    /// A stored entry as a read returns it (a failure is thrown, noted by the render elsewhere).
    private static func read(_ entry: Entry) throws -> _QueryRead {
        switch entry {
        case .value(let value): return .value(value)
        case .failure(let error): throw StoredFailure(error: error)
        }
    }

    /// A stored failure on its way out of the lock, to be noted by the render reading it.
    struct StoredFailure: Error {
        let error: any Error
    }

    /// `read(_:)`, noting a stored failure the render met before it is thrown at the component.
    @usableFromInline
    static func _readNotingFailures(_ key: String) throws -> _QueryRead {
        do {
            return try read(key)
        } catch let failure as StoredFailure {
            // Thrown only inside a render (`read` suspends outside one), for a key it is not
            // waiting on.
            if let scope = RenderScope.current {
                scope.mailbox.noteFailure(key, keeping: scope.cache.rendersKeepResults ? failure.error : nil)
            }
            throw failure.error
        }
    }

    /// Called by a run started at once, as it finishes with a value: stores it, and returns true
    /// when the run is still inside its start, on the starter's thread (the caller then leaves
    /// the typed value in the starter's frame).
    @usableFromInline
    static func _finish(_ start: _QueryStart, value: consuming any Sendable) -> Bool {
        // Moved into the cache's table: no copy of the value for a run nobody else waits on.
        start.cache.complete(start.key, run: start.run, hash: start.hash, near: start.place, entry: .value(value))
            && ImmediateStart.withCurrent { $0.finished(start.run, of: start.cache, failure: nil) }
    }

    /// Called by a run started at once, as it fails: stores the failure, and hands it to the
    /// starter when the run is still inside its start, on the starter's thread.
    @usableFromInline
    static func _finish(_ start: _QueryStart, failure error: any Error) {
        let failure = queryFailure(error, query: start.key)
        if start.cache.complete(
            start.key, run: start.run, hash: start.hash, near: start.place, entry: .failure(failure))
        {
            _ = ImmediateStart.withCurrent { $0.finished(start.run, of: start.cache, failure: failure) }
        }
    }

    /// Calls `start`, which starts a query's task, with the render's scope unbound from this
    /// thread, where an immediate task runs until it first suspends: a query is never part of
    /// the render that started it. The task copies the caller's task-local values (a request
    /// id, a tracing context), of which the scope is none.
    @usableFromInline
    static func _outsideRender(_ start: () -> Task<Void, Never>) -> Task<Void, Never> {
        RenderScope.bind(nil, start)
    }

    /// Marks this thread as starting `start`'s run; returns what `_end` restores.
    @usableFromInline
    static func _begin(_ start: _QueryStart) -> ImmediateStart.Saved {
        ImmediateStart.withCurrent { $0.begin(start.run, of: start.cache) }
    }

    /// The start of `start`'s run returned `task`: the value when the run finished at once (a
    /// failure is thrown), nil when the component has to suspend on it.
    @usableFromInline
    static func _end(
        _ start: _QueryStart, task: Task<Void, Never>, restoring saved: ImmediateStart.Saved
    ) throws -> Bool {
        // Finished at once (the common case): its result, without the lock; a value is in the
        // starter's frame already.
        switch ImmediateStart.withCurrent({ $0.end(restoring: saved) }) {
        case .value:
            return true
        case .failure(let error):
            let scope = startersScope()
            scope.mailbox.noteFailure(start.key, keeping: start.cache.rendersKeepResults ? error : nil)
            scope.collector?.failedAtOnce(start.key, error)
            throw error
        case .running:
            start.cache.joinOwnRun(start, task: task, mailbox: startersScope().mailbox)
            return false
        }
    }

    /// The scope of the render whose component started a run: bound on this thread, since a
    /// start is only read inside a pass and ends in the same call.
    private static func startersScope() -> RenderScope {
        guard let scope = RenderScope.current else {
            preconditionFailure("a query started at once ended outside the render that started it")
        }
        return scope
    }

    /// The run `start` began did not finish at once: the render waits on it like on any run.
    private func joinOwnRun(_ start: _QueryStart, task: Task<Void, Never>, mailbox: QueryMailbox) {
        let (key, run) = (start.key, start.run)
        let outcome: StartOutcome = state.withLock { state in
            let isRunning = state.updateRunning(key, hash: start.hash) { running in
                guard running.run == run else { return false }
                // Still running: from now on its result reaches the starter's mailbox too.
                running.task = task
                running.starting = false
                running.mailboxes.insert(mailbox)
                return true
            }
            if isRunning == true { return .running }
            // It suspended, and finished on another thread before the start returned: the
            // component suspends as for any query that suspended, and the result is
            // delivered to the render like any other. Which path a query takes, and which
            // components show a fallback, never depend on timing.
            return .finishedLater(state.entry(key, now: nil))
        }
        mailbox.noteAwaiting(key)
        switch outcome {
        case .running:
            break
        case .finishedLater(let entry):
            if let result = entry?.result {
                mailbox.post(.key(key), result, keeping: rendersKeep(result))
            } else {
                // Forgotten meanwhile (`removeValue`): the render's slot starts it again.
                mailbox.applied(key)
            }
        }
    }

    /// A stored value read as `Value`; a value of another type is a `QueryTypeMismatch`,
    /// recorded when the value was stubbed.
    @inlinable
    static func _cast<Value>(_ value: any Sendable, key: String, as type: Value.Type) throws -> Value {
        if let typed = value as? Value { return typed }
        throw _mismatch(key: key, expected: "\(Value.self)", found: value)
    }

    @usableFromInline
    static func _mismatch(key: String, expected: String, found value: any Sendable) -> QueryTypeMismatch {
        let mismatch = QueryTypeMismatch(key: key, expected: expected, found: "\(type(of: value))")
        if let cache = RenderScope.current?.cache {
            cache.state.withLock { state in
                if state.stubs[key] != nil { state.stubMismatches.append(mismatch) }
            }
        }
        return mismatch
    }
}
