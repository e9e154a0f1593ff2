#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#else
    import Darwin
#endif

/// Counts query executions: how many are running now, and how often each key started. A query
/// closure calls `start(_:)` first and `finish()` in a `defer`, so `live` returns to zero only
/// when every query task the render started has ended.
///
/// Runs of `runNumbered(_:_:)` get a number, which their result carries into the cache and to
/// the component that reads it (`answered(_:by:)`): with renders sharing a cache, a run that
/// every render left is cancelled and the key may legitimately run again later, but a run whose
/// result was stored must be the key's last.
///
/// Guarded by a pthread mutex rather than `Synchronization.Mutex`: on Linux the latter waits with
/// raw futexes, which the thread sanitizer cannot see, so it reported the ledger's own locked
/// accesses as races.
final class ReliabilityQueryLedger: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var liveCount = 0
    private var startCounts: [String: Int] = [:]
    private var finishedCount = 0
    private var runCount = 0
    private var runsByKey: [String: [Int]] = [:]
    private var rendersStarting: [String: [Int: Int]] = [:]
    private var answeredRuns: [String: Set<Int>] = [:]
    private var cancelledRuns: [String: Set<Int>] = [:]

    init() {
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    func start(_ key: String) {
        locked {
            liveCount += 1
            startCounts[key, default: 0] += 1
        }
    }

    func finish() {
        locked {
            liveCount -= 1
            finishedCount += 1
        }
    }

    /// Queries running now.
    var live: Int { locked { liveCount } }
    /// Queries that ended.
    var finished: Int { locked { finishedCount } }
    /// How many times each key's query started.
    var starts: [String: Int] { locked { startCounts } }

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
        let run = locked {
            liveCount += 1
            startCounts[key, default: 0] += 1
            rendersStarting[key, default: [:]][render, default: 0] += 1
            runCount += 1
            runsByKey[key, default: []].append(runCount)
            return runCount
        }
        defer {
            // Left by every render (its task cancelled), whether or not the body noticed.
            if Task.isCancelled { locked { _ = cancelledRuns[key, default: []].insert(run) } }
            finish()
        }
        return try await body(run)
    }

    /// The runs of each key whose task was cancelled by the time they ended.
    var cancelled: [String: Set<Int>] { locked { cancelledRuns } }

    /// Runs the query of a keyless promise: counted as live, not per key (each throw runs one).
    func runKeyless<Value: Sendable>(_ body: () async throws -> Value) async throws -> Value {
        locked { liveCount += 1 }
        defer { finish() }
        return try await body()
    }

    /// A component read the result of run `run` of `key` (0: a value stored before the render).
    func answered(_ key: String, by run: Int) {
        locked { _ = answeredRuns[key, default: []].insert(run) }
    }

    /// The numbered runs of each key, in the order they started.
    var runs: [String: [Int]] { locked { runsByKey } }
    /// How many runs of each key each render started.
    var startsByRender: [String: [Int: Int]] { locked { rendersStarting } }
    /// The runs whose results components read, per key.
    var answers: [String: Set<Int>] { locked { answeredRuns } }
}
