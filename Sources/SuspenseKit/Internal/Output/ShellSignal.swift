/// The one-time handoff of the shell from the render's task to `renderStream`'s caller, with what
/// the shell declared about the response.
final class ShellSignal: Sendable {
    private enum State {
        case waiting(CheckedContinuation<ResponseHead, any Error>?)
        case done(Result<ResponseHead, any Error>)
    }

    private let state = Locked(State.waiting(nil))

    func succeed(_ head: ResponseHead) { _ = settle(.success(head)) }

    /// Fails the shell; false when the shell was ready already.
    func fail(_ error: any Error) -> Bool { settle(.failure(error)) }

    private func settle(_ result: Result<ResponseHead, any Error>) -> Bool {
        let waiter: CheckedContinuation<ResponseHead, any Error>?? = state.withLock { state in
            guard case .waiting(let waiter) = state else { return .none }
            state = .done(result)
            return .some(waiter)
        }
        guard case .some(let continuation) = waiter else { return false }
        continuation?.resume(with: result)
        return true
    }

    func wait() async throws -> ResponseHead {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<ResponseHead, any Error>) in
            let result: Result<ResponseHead, any Error>? = state.withLock { state in
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
