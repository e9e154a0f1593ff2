/// The one-time handoff of the shell from the render's task to `renderStream`'s caller.
final class ShellSignal: Sendable {
    private enum State {
        case waiting(CheckedContinuation<Void, any Error>?)
        case done(Result<Void, any Error>)
    }

    private let state = Locked(State.waiting(nil))

    func succeed() { _ = settle(.success(())) }

    /// Fails the shell; false when the shell was ready already.
    func fail(_ error: any Error) -> Bool { settle(.failure(error)) }

    private func settle(_ result: Result<Void, any Error>) -> Bool {
        let waiter: CheckedContinuation<Void, any Error>?? = state.withLock { state in
            guard case .waiting(let waiter) = state else { return .none }
            state = .done(result)
            return .some(waiter)
        }
        guard case .some(let continuation) = waiter else { return false }
        continuation?.resume(with: result)
        return true
    }

    func wait() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let result: Result<Void, any Error>? = state.withLock { state in
                switch state {
                case .waiting:
                    state = .waiting(continuation)
                    return nil
                case .done(let result):
                    return result
                }
            }
            if let result { continuation.resume(with: result) }
        }
    }
}
