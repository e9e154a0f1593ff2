@testable import SuspenseKit

/// Counts query executions: how many are running now, and how often each key started. A query
/// closure calls `start(_:)` first and `finish()` in a `defer`, so `live` returns to zero only
/// when every query task the render started has ended.
///
/// Runs of `runNumbered(_:_:)` get a number, which their result carries into the cache and to
/// the component that reads it (`answered(_:by:)`): with renders sharing a cache, a run that
/// every render left is cancelled and the key may legitimately run again later, but a run whose
/// result was stored must be the key's last.
final class ReliabilityQueryLedger: Sendable {
    private struct State {
        var liveCount = 0
        var startCounts: [String: Int] = [:]
        var finishedCount = 0
        var runCount = 0
        var runsByKey: [String: [Int]] = [:]
        var rendersStarting: [String: [Int: Int]] = [:]
        var answeredRuns: [String: Set<Int>] = [:]
        var cancelledRuns: [String: Set<Int>] = [:]
    }

    /// The library's lock, which the thread sanitizer sees (unlike `Synchronization.Mutex`'s
    /// futex waits on Linux).
    private let state = Locked(State())

    func start(_ key: String) {
        state.withLock {
            $0.liveCount += 1
            $0.startCounts[key, default: 0] += 1
        }
    }

    func finish() {
        state.withLock {
            $0.liveCount -= 1
            $0.finishedCount += 1
        }
    }

    /// Queries running now.
    var live: Int { state.withLock { $0.liveCount } }
    /// Queries that ended.
    var finished: Int { state.withLock { $0.finishedCount } }
    /// How many times each key's query started.
    var starts: [String: Int] { state.withLock { $0.startCounts } }

    /// Runs `body` as a query of `key`, counted while it runs.
    func run<Value: Sendable>(_ key: String, _ body: () async throws -> Value) async throws -> Value {
        start(key)
        defer { finish() }
        return try await body()
    }

    /// `run(_:_:)`, passing `body` the number of this run (from 1); `render` is the render
    /// whose component made the query, among renders sharing this ledger.
    func runNumbered<Value: Sendable>(
        _ key: String, render: Int = 0, _ body: (Int) async throws -> Value
    ) async throws -> Value {
        let run = state.withLock {
            $0.liveCount += 1
            $0.startCounts[key, default: 0] += 1
            $0.rendersStarting[key, default: [:]][render, default: 0] += 1
            $0.runCount += 1
            $0.runsByKey[key, default: []].append($0.runCount)
            return $0.runCount
        }
        defer {
            // Left by every render (its task cancelled), whether or not the body noticed.
            if Task.isCancelled { state.withLock { _ = $0.cancelledRuns[key, default: []].insert(run) } }
            finish()
        }
        return try await body(run)
    }

    /// The runs of each key whose task was cancelled by the time they ended.
    var cancelled: [String: Set<Int>] { state.withLock { $0.cancelledRuns } }

    /// Runs the query of a keyless promise: counted as live, not per key (each throw runs one).
    func runKeyless<Value: Sendable>(_ body: () async throws -> Value) async throws -> Value {
        state.withLock { $0.liveCount += 1 }
        defer { finish() }
        return try await body()
    }

    /// A component read the result of run `run` of `key` (0: a value stored before the render).
    func answered(_ key: String, by run: Int) {
        state.withLock { _ = $0.answeredRuns[key, default: []].insert(run) }
    }

    /// The numbered runs of each key, in the order they started.
    var runs: [String: [Int]] { state.withLock { $0.runsByKey } }
    /// How many runs of each key each render started.
    var startsByRender: [String: [Int: Int]] { state.withLock { $0.rendersStarting } }
    /// The runs whose results components read, per key.
    var answers: [String: Set<Int>] { state.withLock { $0.answeredRuns } }
}
