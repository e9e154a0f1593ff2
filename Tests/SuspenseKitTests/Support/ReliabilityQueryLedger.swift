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
/// Guarded by a pthread mutex rather than `Synchronization.Mutex`: on Linux the latter waits with
/// raw futexes, which the thread sanitizer cannot see, so it reported the ledger's own locked
/// accesses as races.
final class ReliabilityQueryLedger: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var liveCount = 0
    private var startCounts: [String: Int] = [:]
    private var finishedCount = 0

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
}
