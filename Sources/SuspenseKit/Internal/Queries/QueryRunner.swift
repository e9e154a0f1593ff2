// The query runner: every query task of every render. A keyed query runs in its cache's table
// (a `.running` cell), joined by every render of that cache that waits on the key; a keyless one
// runs for its render alone. A render that stops waiting leaves; the last one to leave cancels
// the task. Results reach each render through its `QueryMailbox`.

/// A query's body as the runner runs it: the stub a test gave, or the promise's query. A promise
/// thrown from inside a query is an error at once, never a reason to run it again.
func runQuery(
    _ promise: any AnyPromise, label: String, stub: QueryOutcome?
) async -> Result<any Sendable, any Error> {
    switch stub {
    // A value succeeds at the first attempt, retried or not.
    case .value(let value)?: return .success(value)
    case .failure(let error)?:
        // A stub stands for the query: read with a retry policy, each attempt fails with the
        // stubbed error, and the policy waits its backoff on the render's clock in between.
        guard let retry = promise.retry else { return .failure(error) }
        do {
            return .success(try await retry.run { () async throws -> any Sendable in throw error })
        } catch {
            return .failure(error)
        }
    case .pending?, nil: break
    }
    do {
        return .success(try await promise.run())
    } catch {
        return .failure(queryFailure(error, query: label))
    }
}

/// Starts the task of a query the runner runs. Not detached, so that the query keeps the
/// task-local values of the render that starts it (a request id, a tracing context) and its
/// priority; made in this nonisolated function, so that it runs on no actor of the render's.
/// The runner starts queries between passes, where no render's scope is bound (it is bound to
/// the thread of a pass, not a task-local): the query is not part of the render. Its task is
/// cancelled only through its handle, as a detached one was.
func startQueryTask(_ operation: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
    Task(operation: operation)
}

/// What a query threw, as it is stored: a promise thrown from inside a query is a
/// `SuspenseError`, since a query cannot suspend on another; any other error as it is.
func queryFailure(_ error: any Error, query: String) -> any Error {
    guard let inner = error as? any AnyPromise else { return error }
    return SuspenseError.promiseThrownInQuery(query: query, promise: inner.valueTypeName)
}

extension QueryCache {
    enum JoinOutcome {
        /// The result is stored already (another render finished it).
        case stored(Result<any Sendable, any Error>)
        /// The key was running for another render; this one waits on the same run.
        case joined
        /// A new run started.
        case started
    }

    /// Waits on `key` through `mailbox`: joins the run in flight, or starts one.
    func join(
        _ key: String, mailbox: QueryMailbox, promise: any AnyPromise, stub: QueryOutcome?
    ) -> JoinOutcome {
        let now = now()
        var refresh: (run: UInt64, hash: Int)?
        defer {
            // A stale value: served, and refreshed in the background with the promise's query.
            if let refresh { launchRefresh(key, run: refresh.run, hash: refresh.hash) { try await promise.run() } }
        }
        return state.withLock { state in
            let (probe, cell, isStale) = state.lookUp(key, now: now)
            switch cell {
            case .stored(.value(let value))?:
                state.hits += 1
                if isStale, stub == nil, state.mayRefresh(key, now: now) {
                    refresh = (state.beginRefresh(key, at: probe), probe.hash)
                }
                return .stored(.success(value))
            case .stored(.failure(let error))?:
                state.hits += 1
                return .stored(.failure(error))
            case .running?:
                if !state.storedWhileRunning.isEmpty, let result = state.storedWhileRunning(key, now: now)?.result {
                    state.hits += 1
                    return .stored(result)
                }
                // Started by this render on the immediate path: it waits on its own run. (Running:
                // `lookUp` found it so.)
                let isOwn = state.updateRun(at: probe.position!) { running in
                    defer { running.mailboxes.insert(mailbox) }
                    return running.mailboxes.contains(mailbox)
                }!
                if !isOwn { state.coalesced += 1 }
                return isOwn ? .started : .joined
            case nil:
                state.misses += 1
                return start(key, in: &state, at: probe, mailbox: mailbox, promise: promise, stub: stub)
            }
        }
    }

    /// Starts a run of `key` for `mailbox`, under the lock, at the place `probe` found empty.
    private func start(
        _ key: String, in state: inout State, at probe: ResultTable<Cell>.Probe, mailbox: QueryMailbox,
        promise: any AnyPromise, stub: QueryOutcome?
    ) -> JoinOutcome {
        state.nextRun += 1
        let run = state.nextRun
        var running = InFlightQuery(run: run, mailbox: mailbox)
        // Created under the lock: the task's completion takes the lock, so it cannot finish
        // before its handle is stored.
        running.task = startQueryTask { [self] in
            let result = await runQuery(promise, label: key, stub: stub)
            self.complete(key, run: run, hash: probe.hash, with: result)
        }
        state.startRunning(key, running, at: probe)
        return .started
    }

    /// Stores a run's result and delivers it to every render waiting on it; a run cancelled
    /// because nobody waited any more delivers nothing and stores nothing. A run whose key was
    /// removed meanwhile delivers its result, kept by each render it reaches, and stores nothing.
    /// Returns whether the result was taken (stored, or handed on). `hash` is the key's, as the run's start computed it.
    @discardableResult
    func complete(
        _ key: String, run: UInt64, hash: Int, with result: Result<any Sendable, any Error>
    ) -> Bool {
        complete(key, run: run, hash: hash, entry: Entry(result))
    }

    /// `complete(_:run:hash:with:)` with the result as it is stored: moved into the table, and
    /// copied only for the renders it is delivered to (none, for a run that finished inside its
    /// start). `place`, where the run was when it started, is looked at first: while nothing
    /// moved it, the run is found without walking the index.
    @discardableResult
    func complete(
        _ key: String, run: UInt64, hash: Int, near place: ResultTable<Cell>.Place? = nil, entry: consuming Entry
    ) -> Bool {
        let now = now()
        var stored = false
        var discarded = false
        var refreshFailure: (any Error)?
        let delivery: Delivery? = state.withLock(passing: entry) { state, entry in
            // One lookup: the run's cell becomes its result.
            let probe = place.map { state.table.probe(key, hash: hash, near: $0) } ?? state.table.probe(key, hash: hash)
            // The run read where it is: a copy of it retained its task.
            guard let position = probe.position,
                case let (found, mailboxes, isRefresh, isInvalidated)? = state.updateRun(
                    at: position, { ($0.run, $0.mailboxes, $0.isRefresh, $0.isInvalidated) }),
                found == run
            else { return nil }
            let delivery = mailboxes.isEmpty ? nil : Delivery(mailboxes: mailboxes, result: entry.result)
            stored = true
            state.runningCount -= 1
            if isRefresh, case .failure(let error) = entry {
                state.refreshFailures += 1
                refreshFailure = error
                // Fail-safe: the stale value stays, and is not refreshed again before the back-off.
                if !isInvalidated, let stale = state.storedWhileRunning(key, now: now) {
                    state.storedWhileRunning[key] = nil
                    state.table[position: position] = .stored(stale)
                    state.table.markUsed(position)
                    if let now, let backoff = refreshes?.backoff {
                        state.refreshBlockedUntil[key] = now.saturatingAdding(backoff)
                    }
                    return mailboxes.isEmpty ? nil : Delivery(mailboxes: mailboxes, result: stale.result)
                }
            }
            // A refresh's failure with no stale value left is not stored either: the next
            // reader runs the query, as on a miss.
            if isInvalidated || refreshFailure != nil {
                discarded = true
                // Stored by hand since: that is what the cache holds now.
                if let byHand = state.storedWhileRunning.removeValue(forKey: key) {
                    state.table[position: position] = .stored(byHand)
                    state.table.markUsed(position)
                    if let now { state.storedAt[key] = now }
                } else {
                    state.table.remove(at: probe)
                }
                return delivery
            }
            state.addBytes(key, entry)
            // Moved in: a copy retained the value, and the entry's release released it again.
            state.table[position: position] = .stored(consume entry)
            state.table.markUsed(position)
            if !state.storedWhileRunning.isEmpty { _ = state.takeStoredWhileRunning(key) }
            if let now {
                state.storedAt[key] = now
                if !state.refreshBlockedUntil.isEmpty { state.refreshBlockedUntil[key] = nil }
            }
            state.makeRoom(now: now)
            return delivery
        }
        if let refreshFailure { refreshes?.onError(key, refreshFailure) }
        // Moved out: a nil left behind is never destroyed.
        if let delivery = consume delivery {
            // A discarded result is in no cache: each render keeps it for its components.
            let keeping = discarded || rendersKeep(delivery.result)
            delivery.mailboxes.forEach { $0.post(.key(key), delivery.result, keeping: keeping) }
        }
        return stored
    }

    /// A completed run's result and the renders it goes to. A struct, not a tuple: an optional
    /// tuple was destroyed through the runtime's generic witnesses, once per completed run.
    private struct Delivery {
        let mailboxes: Subscribers
        let result: Result<any Sendable, any Error>
    }

    /// Stops `mailbox` waiting on `key`; the last render to leave cancels the run, and gets its
    /// task back to wait for.
    @discardableResult
    func leave(_ key: String, mailbox: QueryMailbox) -> Task<Void, Never>? {
        let task: Task<Void, Never>? = state.withLock { state in
            var task: Task<Void, Never>?
            let isLast = state.updateRunning(key) { running in
                running.mailboxes.remove(mailbox)
                task = running.task
                // A run whose start has not returned is still wanted by its starter; a prefetch,
                // by its cache.
                return running.mailboxes.isEmpty && !running.starting && !running.isOwnedByCache
            }
            guard isLast == true else { return nil }
            state.stopRunning(key)
            return task
        }
        task?.cancel()
        return task
    }

    /// How many queries are running for renders of this cache.
    var runningQueryCount: Int {
        state.withLock { $0.runningCount }
    }

    /// How many renders wait on the run of `key` in flight.
    func subscriberCount(of key: String) -> Int {
        state.withLock { $0.running(key)?.mailboxes.count ?? 0 }
    }
}

/// One render's side of the runner: what it started or joined, so that it can leave each one.
/// Used by the render's own task only.
final class QueryRunner {
    let cache: QueryCache
    let mailbox: QueryMailbox
    @exclusivity(unchecked) private var keys: Set<String> = []
    private var anonymous: [Int: Task<Void, Never>] = [:]
    /// Runs this render cancelled, to wait for before it returns.
    private var cancelled: [Task<Void, Never>] = []

    init(cache: QueryCache, mailbox: QueryMailbox) {
        self.cache = cache
        self.mailbox = mailbox
    }

    /// Makes room for `count` keys (a capacity hint).
    func reserve(_ count: Int) {
        guard count > 0 else { return }
        keys.reserveCapacity(count)
    }

    /// Starts or joins a query; returns whether it joined a run of another render. The query is
    /// read in place, not changed (`inout`: a borrow of an array's element copied it).
    func start(_ query: inout WaitTable.NewQuery) -> Bool {
        switch query.id {
        case .key(let key):
            // Started by this render's component at once: its result comes to the mailbox, which
            // keeps the key until the render applies it (not kept twice, here too).
            if mailbox.isAwaiting(key) { return false }
            // Already waited on by this render (its slots were discarded, then another asked).
            guard keys.insert(key).inserted else { return false }
            // Delivered to this render already, and kept for it: the same result again, even
            // though the cache may have forgotten it.
            if let result = mailbox.kept(key)?.result {
                keys.remove(key)
                mailbox.post(query.id, result)
                return false
            }
            switch cache.join(key, mailbox: mailbox, promise: query.promise.promise, stub: query.stub) {
            case .stored(let result):
                // Nothing to wait on: the result goes to the mailbox at once.
                keys.remove(key)
                mailbox.post(query.id, result, keeping: cache.rendersKeep(result))
                return false
            case .joined:
                return true
            case .started:
                return false
            }
        case .anonymous(let number):
            let (id, promise, label, stub, mailbox) = (
                query.id, query.promise.promise, query.label, query.stub, mailbox
            )
            anonymous[number] = startQueryTask {
                let result = await runQuery(promise, label: label, stub: stub)
                mailbox.post(id, result)
            }
            return false
        }
    }

    /// The query's result arrived: nothing to leave any more.
    func finished(_ query: QueryID, failed: Bool = false) {
        if failed, case .key(let key) = query { mailbox.noteFailure(key) }
        switch query {
        case .key(let key):
            mailbox.applied(key)
            if !keys.isEmpty { keys.remove(key) }
        case .anonymous(let number): anonymous[number] = nil
        }
    }

    /// Stops waiting on a query; it is cancelled if no other render waits on it.
    func cancel(_ query: QueryID) {
        switch query {
        case .key(let key):
            // A later reader of the key joins it afresh instead of waiting on this mailbox.
            let wasStartedHere = mailbox.applied(key)
            let wasJoined = !keys.isEmpty && keys.remove(key) != nil
            if wasStartedHere || wasJoined, let task = cache.leave(key, mailbox: mailbox) {
                cancelled.append(task)
            }
        case .anonymous(let number):
            if let task = anonymous.removeValue(forKey: number) {
                task.cancel()
                cancelled.append(task)
            }
        }
    }

    /// Leaves every query still waited on, when the render returns, throws or is cancelled, and
    /// waits until the queries it cancelled have stopped, so that nothing the render started
    /// outlives it (as a task group's children would not). Queries other renders still wait on
    /// go on for them. Past the render's deadline (`waitingForCancelled` false) it does not wait:
    /// a query that ignores cancellation must not hold the render; its late result is dropped.
    func finish(waitingForCancelled: Bool = true, isolation: isolated (any Actor)? = #isolation) async {
        // Keys the render's components started themselves and never came to wait on through
        // a slot (their region was discarded in the same pass) are left too.
        for key in keys.union(mailbox.takeAwaiting()) {
            if let task = cache.leave(key, mailbox: mailbox) { cancelled.append(task) }
        }
        keys = []
        for task in anonymous.values {
            task.cancel()
            cancelled.append(task)
        }
        anonymous = [:]
        mailbox.close()
        mailbox.releaseKept()
        if cache.failureRetention == .dropAfterRender {
            cache.dropFailures(mailbox.takeFailedKeys())
        }
        if waitingForCancelled {
            for task in cancelled { await task.value }
        }
        cancelled = []
    }
}
