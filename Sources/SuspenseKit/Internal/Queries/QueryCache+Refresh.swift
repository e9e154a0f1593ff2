// Background refreshes of stale values (`QueryCache(freshFor:staleFor:)`): a reader that meets a
// stale value is served it at once, and the key's cell becomes a run owned by the cache (see
// `State.beginRefresh`), with the stale value kept beside it as a result stored during a run is.
// The run is a task of the cache's, started here; `QueryCache.complete` stores its value, or on
// failure puts the stale value back (fail-safe) and reports the error.

/// A refresh `resolveValue(key:query:)` starts with its own query, having read a stale value.
/// Not API.
@usableFromInline
struct _QueryRefresh: Sendable {
    let cache: QueryCache
    let key: String
    let run: UInt64
    /// The key's hash, for the run to find its place in the cache again at once.
    let hash: Int
}

extension QueryCache {
    /// Starts `refresh` with the reader's query, then the reader goes on with the stale value.
    @usableFromInline
    static func _startRefresh(
        _ refresh: _QueryRefresh, query: @escaping @Sendable () async throws -> any Sendable
    ) {
        refresh.cache.launchRefresh(refresh.key, run: refresh.run, hash: refresh.hash, query: query)
    }

    /// Runs the refresh `run` of `key` (begun under the lock by `State.beginRefresh`) on a task
    /// of the cache's: not detached, so that it keeps the starter's task-local values and
    /// priority; not the render's child, so that the render neither waits for it nor cancels it.
    func launchRefresh(
        _ key: String, run: UInt64, hash: Int, query: @escaping @Sendable () async throws -> any Sendable
    ) {
        let task = startQueryTask { [self] in
            let result = await runRefresh(key, run: run, query: query)
            complete(key, run: run, hash: hash, with: result.mapError { queryFailure($0, query: key) })
        }
        state.withLock { state in
            _ = state.updateRunning(key, hash: hash) { running in
                if running.run == run { running.task = task }
            }
        }
    }

    /// Runs a refresh's query; past the soft timeout, reports it to the hook while it goes on.
    private func runRefresh(
        _ key: String, run: UInt64, query: @escaping @Sendable () async throws -> any Sendable
    ) async -> Result<any Sendable, any Error> {
        guard let refreshes, let timeout = refreshes.timeout, let clock else { return await Self.result(of: query) }
        // Child tasks: both keep the task-local values of the refresh.
        return await withTaskGroup(of: Result<any Sendable, any Error>?.self) { group in
            group.addTask { await Self.result(of: query) }
            group.addTask { [self] in
                do { try await clock.sleep(for: timeout) } catch { return nil }
                if isRefreshing(key, run: run) { refreshes.onError(key, RefreshTimedOut(timeout: timeout)) }
                return nil
            }
            var result: Result<any Sendable, any Error> = .failure(CancellationError())
            while let next = await group.next() {
                guard let next else { continue }
                result = next
                group.cancelAll()
            }
            return result
        }
    }

    private static func result(
        of query: @Sendable () async throws -> any Sendable
    ) async -> Result<any Sendable, any Error> {
        do {
            return .success(try await query())
        } catch {
            return .failure(error)
        }
    }

    /// Whether the refresh `run` of `key` is still in flight.
    private func isRefreshing(_ key: String, run: UInt64) -> Bool {
        state.withLock { $0.running(key)?.run == run }
    }
}
