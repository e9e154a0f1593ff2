/// Queries that answer only when the test opens their gate, so that a test decides when each
/// query finishes without sleeping. Counts the queries that finished and that were cancelled.
public final class Gates: Sendable {
    /// What a gate does once opened.
    public enum Outcome: Sendable {
        case value(String)
        case failure(any Error)
    }

    private struct State {
        var opened: [String: Outcome] = [:]
        var waiting: [Int: (key: String, continuation: CheckedContinuation<Outcome, any Error>)] = [:]
        var nextWaiter = 0
        var finished: Set<String> = []
        var cancelled: Set<String> = []
    }

    private let state = Locked(State())

    public init() {}

    /// Opens the gate of `key`: its query (now or later) answers "`key` loaded", or fails.
    public func open(_ key: String, with outcome: Outcome? = nil) {
        let outcome = outcome ?? .value("\(key) loaded")
        let waiters = state.withLock { state in
            state.opened[key] = outcome
            let waiters = state.waiting.filter { $0.value.key == key }
            for id in waiters.keys { state.waiting[id] = nil }
            return waiters.values.map(\.continuation)
        }
        for continuation in waiters { continuation.resume(returning: outcome) }
    }

    /// Whether the query of `key` returned or threw its outcome.
    public func hasFinished(_ key: String) -> Bool { state.withLock { $0.finished.contains(key) } }
    /// Whether the query of `key` was cancelled while it waited.
    public func wasCancelled(_ key: String) -> Bool { state.withLock { $0.cancelled.contains(key) } }
    /// Whether a query of `key` waits on its closed gate now.
    public func isWaiting(_ key: String) -> Bool { state.withLock { $0.waiting.values.contains { $0.key == key } } }
    /// How many queries finished.
    public var finishedCount: Int { state.withLock { $0.finished.count } }

    /// The query: waits for the gate of `key`, or for its task's cancellation.
    public func value(_ key: String) async throws -> String {
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        let outcome: Outcome
        do {
            outcome = try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    let ready: Result<Outcome, any Error>? = state.withLock { state in
                        if let outcome = state.opened[key] { return .success(outcome) }
                        if Task.isCancelled { return .failure(CancellationError()) }
                        state.waiting[id] = (key, continuation)
                        return nil
                    }
                    if let ready { continuation.resume(with: ready) }
                }
            } onCancel: {
                let waiter = state.withLock { $0.waiting.removeValue(forKey: id) }
                waiter?.continuation.resume(throwing: CancellationError())
            }
        } catch {
            state.withLock { _ = $0.cancelled.insert(key) }
            throw error
        }
        state.withLock { _ = $0.finished.insert(key) }
        switch outcome {
        case .value(let value): return value
        case .failure(let error): throw error
        }
    }
}
