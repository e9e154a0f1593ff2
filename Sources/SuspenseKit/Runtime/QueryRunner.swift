#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// The query runner: every query task of every render. A keyed query runs in its cache's
// `inFlight` table, joined by every render of that cache that waits on the key; a keyless one
// runs for its render alone. A render that stops waiting leaves; the last one to leave cancels
// the task. Results reach each render through its `QueryMailbox`.

/// One run of a keyed query, shared by the renders waiting on it. Guarded by its cache's lock.
struct InFlightQuery {
    let run: UInt64
    var task: Task<Void, Never>?
    var mailboxes: [ObjectIdentifier: QueryMailbox]
    /// The render starting the run on its own thread (`QueryCache.read`), until the start
    /// returns: a result that arrives before then is not delivered to it; the starter reads it
    /// from the cache, and uses it at once only if the query finished on the starter's own
    /// thread (without suspending).
    var starter: ObjectIdentifier?
    /// The thread that is starting the run, while `starter` is set.
    var starterThread: pthread_t?

    /// A run started by the runner for the render behind `mailbox`.
    init(run: UInt64, mailbox: QueryMailbox) {
        self.run = run
        self.mailboxes = [ObjectIdentifier(mailbox): mailbox]
    }

    /// A run being started at once by the render behind `starter` (the immediate path).
    init(run: UInt64, starter: QueryMailbox) {
        self.init(run: run, mailbox: starter)
        self.starter = ObjectIdentifier(starter)
        self.starterThread = pthread_self()
    }
}

/// A query's body as the runner runs it: the stub a test gave, or the promise's query. A promise
/// thrown from inside a query is an error at once, never a reason to run it again.
func runQuery(
    _ promise: any AnyPromise, label: String, stub: QueryOutcome?
) async -> Result<any Sendable, any Error> {
    switch stub {
    case .value(let value)?: return .success(value)
    case .failure(let error)?: return .failure(error)
    case .pending?, nil: break
    }
    do {
        return .success(try await promise.run())
    } catch let inner as any AnyPromise {
        return .failure(SuspenseError.promiseThrownInQuery(query: label, promise: inner.valueTypeName))
    } catch {
        return .failure(error)
    }
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
        return state.withLock { state in
            switch state.entry(key, now: now) {
            case .value(let value)?: return .stored(.success(value))
            case .failure(let error)?: return .stored(.failure(error))
            case .pendingForever?, nil: break
            }
            if state.inFlight[key] != nil {
                // Started by this render on the immediate path: it waits on its own run.
                let isOwn = state.inFlight[key]!.mailboxes[ObjectIdentifier(mailbox)] != nil
                state.inFlight[key]!.mailboxes[ObjectIdentifier(mailbox)] = mailbox
                return isOwn ? .started : .joined
            }
            state.nextRun += 1
            let run = state.nextRun
            state.inFlight[key] = InFlightQuery(run: run, mailbox: mailbox)
            // Created under the lock: the task's completion takes the lock, so it cannot finish
            // before its handle is stored.
            state.inFlight[key]!.task = Task.detached { [self] in
                let result = await runQuery(promise, label: key, stub: stub)
                self.complete(key, run: run, with: result)
            }
            return .started
        }
    }

    /// Stores a run's result and delivers it to every render waiting on it; a run cancelled
    /// because nobody waited any more delivers nothing and stores nothing.
    func complete(_ key: String, run: UInt64, with result: Result<any Sendable, any Error>) {
        let now = now()
        let mailboxes: [QueryMailbox]? = state.withLock { state in
            // One lookup of the key for the run, one to store its result.
            guard let index = state.inFlight.index(forKey: key), state.inFlight.values[index].run == run else {
                return nil
            }
            var running = state.inFlight.remove(at: index).value
            let entry: Entry
            switch result {
            case .success(let value): entry = .value(value)
            case .failure(let error): entry = .failure(error)
            }
            state.store(entry, for: key, now: now)
            if let starter = running.starter {
                running.mailboxes[starter] = nil
                // On the starter's thread while it starts the run: the query never suspended.
                if let thread = running.starterThread, pthread_equal(thread, pthread_self()) != 0 {
                    state.finishedAtOnce[run] = entry
                }
            }
            return running.mailboxes.isEmpty ? nil : Array(running.mailboxes.values)
        }
        for mailbox in mailboxes ?? [] {
            mailbox.post(.key(key), result)
        }
    }

    /// Stops `mailbox` waiting on `key`; the last render to leave cancels the run, and gets its
    /// task back to wait for.
    @discardableResult
    func leave(_ key: String, mailbox: QueryMailbox) -> Task<Void, Never>? {
        let task: Task<Void, Never>? = state.withLock { state in
            guard var running = state.inFlight[key] else { return nil }
            running.mailboxes[ObjectIdentifier(mailbox)] = nil
            if running.mailboxes.isEmpty {
                state.inFlight[key] = nil
                return running.task
            }
            state.inFlight[key] = running
            return nil
        }
        task?.cancel()
        return task
    }

    /// How many queries are running for renders of this cache.
    var runningQueryCount: Int {
        state.withLock { $0.inFlight.count }
    }

    /// How many renders wait on the run of `key` in flight.
    func subscriberCount(of key: String) -> Int {
        state.withLock { $0.inFlight[key]?.mailboxes.count ?? 0 }
    }
}

/// One render's side of the runner: what it started or joined, so that it can leave each one.
/// Used by the render's own task only.
final class QueryRunner {
    let cache: QueryCache
    let mailbox: QueryMailbox
    private var keys: Set<String> = []
    private var anonymous: [Int: Task<Void, Never>] = [:]
    /// Runs this render cancelled, to wait for before it returns.
    private var cancelled: [Task<Void, Never>] = []

    init(cache: QueryCache, mailbox: QueryMailbox) {
        self.cache = cache
        self.mailbox = mailbox
    }

    /// Starts or joins a query; returns whether it joined a run of another render.
    func start(_ query: WaitTable.NewQuery) -> Bool {
        switch query.id {
        case .key(let key):
            // Already waited on by this render (its slots were discarded, then another asked).
            if keys.contains(key) { return false }
            // Started by this render's component at once: its result comes to the mailbox.
            if mailbox.isAwaiting(key) {
                keys.insert(key)
                return false
            }
            switch cache.join(key, mailbox: mailbox, promise: query.promise, stub: query.stub) {
            case .stored(let result):
                mailbox.post(query.id, result)
                return false
            case .joined:
                keys.insert(key)
                return true
            case .started:
                keys.insert(key)
                return false
            }
        case .anonymous(let number):
            let (id, promise, label, stub, mailbox) = (query.id, query.promise, query.label, query.stub, mailbox)
            anonymous[number] = Task.detached {
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
            keys.remove(key)
            mailbox.applied(key)
        case .anonymous(let number): anonymous[number] = nil
        }
    }

    /// Stops waiting on a query; it is cancelled if no other render waits on it.
    func cancel(_ query: QueryID) {
        switch query {
        case .key(let key):
            // A later reader of the key joins it afresh instead of waiting on this mailbox.
            mailbox.applied(key)
            if keys.remove(key) != nil, let task = cache.leave(key, mailbox: mailbox) {
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
        if cache.failureRetention == .dropAfterRender {
            cache.dropFailures(mailbox.takeFailedKeys())
        }
        if waitingForCancelled {
            for task in cancelled { await task.value }
        }
        cancelled = []
    }
}
