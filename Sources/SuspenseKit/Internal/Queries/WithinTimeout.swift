/// Runs `operation` in a task of its own and waits for it at most `timeout`, on the continuous
/// clock: past that it throws ``QueryStoreTimeout`` and cancels the operation.
///
/// Why not a task group: a group returns only once every child has, so an operation that ignores
/// cancellation (a call stuck on a dead connection) would hold the caller for good. Here the
/// caller is answered by whichever comes first; the operation's task ends on its own time.
/// Cancelling the caller answers it at once with `CancellationError`.
func withinTimeout<Result: Sendable>(
    _ timeout: Duration, _ operation: @escaping @Sendable () async throws -> Result
) async throws -> Result {
    let outcome = Outcome<Result>()
    let work = Task {
        do {
            outcome.finish(.success(try await operation()))
        } catch {
            outcome.finish(.failure(error))
        }
    }
    let timer = Task {
        do { try await Task.sleep(for: timeout) } catch { return }
        outcome.finish(.failure(QueryStoreTimeout(after: timeout)))
        work.cancel()
    }
    let result = await withTaskCancellationHandler {
        await outcome.wait()
    } onCancel: {
        outcome.finish(.failure(CancellationError()))
    }
    // A caller that was cancelled leaves the timer to bound the operation.
    if !Task.isCancelled { timer.cancel() }
    return try result.get()
}

/// The first result handed to it, for one waiter: a result may arrive before the waiter does.
private final class Outcome<Value: Sendable>: Sendable {
    private enum State {
        case idle
        case waiting(CheckedContinuation<Result<Value, any Error>, Never>)
        case finished(Result<Value, any Error>)
        case delivered
    }

    private let state = Locked(State.idle)

    func wait() async -> Result<Value, any Error> {
        await withCheckedContinuation { continuation in
            let ready: Result<Value, any Error>? = state.withLock { state in
                guard case .finished(let result) = state else {
                    state = .waiting(continuation)
                    return nil
                }
                state = .delivered
                return result
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// Hands over `result`, unless one was handed over already.
    func finish(_ result: Result<Value, any Error>) {
        let waiter: CheckedContinuation<Result<Value, any Error>, Never>? = state.withLock { state in
            switch state {
            case .idle:
                state = .finished(result)
                return nil
            case .waiting(let continuation):
                state = .delivered
                return continuation
            case .finished, .delivered:
                return nil
            }
        }
        waiter?.resume(returning: result)
    }
}
