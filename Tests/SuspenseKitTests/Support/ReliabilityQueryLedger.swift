import Synchronization

/// Counts query executions: how many are running now, and how often each key started. A query
/// closure calls `start(_:)` first and `finish()` in a `defer`, so `live` returns to zero only
/// when every query task the render started has ended.
final class ReliabilityQueryLedger: Sendable {
    private struct State {
        var live = 0
        var starts: [String: Int] = [:]
        var finished = 0
    }

    private let state = Mutex(State())

    init() {}

    func start(_ key: String) {
        state.withLock {
            $0.live += 1
            $0.starts[key, default: 0] += 1
        }
    }

    func finish() {
        state.withLock {
            $0.live -= 1
            $0.finished += 1
        }
    }

    /// Queries running now.
    var live: Int { state.withLock { $0.live } }
    /// Queries that ended.
    var finished: Int { state.withLock { $0.finished } }
    /// How many times each key's query started.
    var starts: [String: Int] { state.withLock { $0.starts } }

    /// Runs `body` as a query of `key`, counted while it runs.
    func run<Value: Sendable>(_ key: String, _ body: () async throws -> Value) async throws -> Value {
        start(key)
        defer { finish() }
        return try await body()
    }
}
