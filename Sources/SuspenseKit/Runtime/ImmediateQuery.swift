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
/// its results reach; and the environment of the place being evaluated. Bound as a task-local
/// while the render evaluates components.
struct RenderScope: Sendable {
    let cache: QueryCache
    let mailbox: QueryMailbox
    /// The render's clock, for retry backoff.
    let clock: RenderClock
    /// Published by the resolver (Resolver+Environment). Written and read by the thread evaluating
    /// the render; locked so that a task a component starts, which inherits this task-local,
    /// reads it safely.
    let environment = Locked(EnvironmentValues())

    @TaskLocal static var current: RenderScope?
}

extension QueryCache {
    /// What became of a run `read` started, when the start returned.
    private enum StartOutcome {
        case running
        case finishedAtOnce(Entry)
        case finishedLater(Entry?)
    }

    /// What `read` found under the lock.
    private enum Found {
        case entry(Entry)
        case suspend
        case start(UInt64)
    }

    /// Reads `key` for the render whose results reach `mailbox`: the stored value, or the value
    /// of a query started now that finished without suspending; `nil` when the component has to
    /// suspend (the query is running, stubbed, or pending for good). Rethrows a stored failure.
    func read<Value: Sendable>(
        _ key: String,
        mailbox: QueryMailbox,
        query: @escaping @Sendable () async throws -> Value
    ) throws -> Value? {
        let now = now()
        let found: Found = state.withLock { state in
            if !state.stubs.isEmpty { state.asked.insert(key) }
            if let entry = state.entry(key, now: now) { return .entry(entry) }
            if state.inFlight[key] != nil || (!state.stubs.isEmpty && state.stubs[key] != nil) { return .suspend }
            state.nextRun += 1
            state.inFlight[key] = InFlightQuery(run: state.nextRun, starter: mailbox)
            return .start(state.nextRun)
        }
        switch found {
        case .entry(let entry):
            // Stored by a run this render started and has not applied yet: suspend on it.
            if mailbox.isAwaiting(key) { return nil }
            if case .failure = entry { mailbox.noteFailure(key) }
            do {
                return try Self.value(of: entry, key: key)
            } catch let mismatch as QueryTypeMismatch {
                state.withLock { state in
                    if state.stubs[key] != nil { state.stubMismatches.append(mismatch) }
                }
                throw mismatch
            }
        case .suspend:
            return nil
        case .start(let run):
            let task = startImmediately { [self] in
                let result: Result<any Sendable, any Error>
                do {
                    result = .success(try await query())
                } catch let inner as any AnyPromise {
                    result = .failure(SuspenseError.promiseThrownInQuery(query: key, promise: inner.valueTypeName))
                } catch {
                    result = .failure(error)
                }
                self.complete(key, run: run, with: result)
            }
            let outcome: StartOutcome = state.withLock { state in
                // Finished at once (the common case): its result, without a lookup of the key.
                if let entry = state.finishedAtOnce.removeValue(forKey: run) {
                    return .finishedAtOnce(entry)
                }
                if let index = state.inFlight.index(forKey: key), state.inFlight.values[index].run == run {
                    // Still running: from now on its result reaches the starter's mailbox too.
                    state.inFlight.values[index].task = task
                    state.inFlight.values[index].starter = nil
                    state.inFlight.values[index].starterThread = nil
                    return .running
                }
                // It suspended, and finished on another thread before the start returned: the
                // component suspends as for any query that suspended, and the result is
                // delivered to the render like any other. Which path a query takes, and which
                // components show a fallback, never depend on timing.
                return .finishedLater(state.entries[key])
            }
            switch outcome {
            case .running:
                mailbox.noteAwaiting(key)
                return nil
            case .finishedAtOnce(let entry):
                if case .failure = entry { mailbox.noteFailure(key) }
                return try Self.value(of: entry, key: key)
            case .finishedLater(let entry):
                mailbox.noteAwaiting(key)
                switch entry {
                case .value(let value)?: mailbox.post(.key(key), .success(value))
                case .failure(let error)?: mailbox.post(.key(key), .failure(error))
                // Forgotten meanwhile (`removeValue`): the render's slot starts it again.
                case .pendingForever?, nil: mailbox.applied(key)
                }
                return nil
            }
        }
    }

    private static func value<Value>(of entry: Entry, key: String) throws -> Value? {
        switch entry {
        case .value(let stored):
            guard let value = stored as? Value else {
                throw QueryTypeMismatch(key: key, expected: "\(Value.self)", found: "\(type(of: stored))")
            }
            return value
        case .failure(let error):
            throw error
        case .pendingForever:
            return nil
        }
    }
}

/// Starts `operation` on the current thread, until its first suspension, where the platform has
/// immediate tasks; elsewhere as a detached task. Task-locals are not inherited either way.
private func startImmediately(_ operation: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
    if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
        return Task.immediateDetached(operation: operation)
    }
    return Task.detached(operation: operation)
}
