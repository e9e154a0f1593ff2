extension QueryCache {
    /// Starts `query` for `key` now, before any render asks for it (a route handler that knows
    /// what its page reads), and returns at once.
    ///
    /// The run belongs to the cache: a render that reads `key` while it runs joins it, so the
    /// query runs once, and its result is stored as any result is. A failure is never thrown
    /// here: it is stored, and met by the first render that reads the key (with
    /// ``FailureRetention/dropAfterRender``, it is forgotten once that render ends). A key
    /// already stored or running, or stubbed by a test, is left as it is, but for a stale value
    /// (see ``init(capacity:failures:freshFor:staleFor:refreshBackoff:refreshTimeout:clock:onRefreshError:)``),
    /// which `query` refreshes in the background as a render reading it would. An invalidation
    /// while the run is in flight (``removeValue(for:)``, ``invalidate(prefix:)``,
    /// ``invalidate(tag:)``) discards its result, as for a run a render started.
    /// - Parameters:
    ///   - key: Identifies the query's result in the cache, as in `resolveValue(key:query:)`.
    ///   - query: Loads the value; it runs with the caller's task-local values and priority.
    public func prefetch<Value: Sendable>(
        key: String,
        query: @escaping @Sendable () async throws -> Value
    ) {
        let now = now()
        var refresh: (run: UInt64, hash: Int)?
        defer {
            if let refresh { launchRefresh(key, run: refresh.run, hash: refresh.hash) { try await query() } }
        }
        state.withLock { state in
            let (probe, cell, isStale) = state.lookUp(key, now: now)
            guard state.stubs.isEmpty || state.stubs[key] == nil else { return }
            if isStale, state.mayRefresh(key, now: now) {
                refresh = (state.beginRefresh(key, at: probe), probe.hash)
                return
            }
            guard cell == nil else { return }
            state.misses += 1
            state.nextRun += 1
            let run = state.nextRun
            var running = InFlightQuery(startingRun: run)
            running.starting = false
            running.isOwnedByCache = true
            // Created under the lock: the task's completion takes the lock, so it cannot finish
            // before its cell is in the table.
            running.task = startQueryTask { [self] in
                let result: Result<any Sendable, any Error>
                do {
                    result = .success(try await query())
                } catch {
                    result = .failure(queryFailure(error, query: key))
                }
                self.complete(key, run: run, hash: probe.hash, with: result)
            }
            state.startRunning(key, running, at: probe)
        }
    }

    /// The task of the run of `key` in flight, for tests to wait on a prefetch.
    func runningTask(for key: String) -> Task<Void, Never>? {
        state.withLock { $0.running(key)?.task }
    }
}
