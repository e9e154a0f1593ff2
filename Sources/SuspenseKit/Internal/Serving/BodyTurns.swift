/// A response's writer, shared by the task that writes a page's chunks and the one that probes
/// the connection between them: one write at a time, so that the adapter's writer is never
/// called concurrently. A chunk waits for a probe being written; a probe never waits for its
/// turn, it skips it (the chunk being written finds a closed connection as well).
final class BodyTurns: Sendable {
    private struct Turn {
        var taken = false
        /// The chunk writer, waiting for a probe's write to end.
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let writer: @Sendable (String) async throws -> Void
    private let turn = Locked(Turn())

    init(_ writer: @escaping @Sendable (String) async throws -> Void) {
        self.writer = writer
    }

    /// Writes `chunk`, after the probe being written if there is one.
    func write(_ chunk: String) async throws {
        if !take() {
            await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                let freed = turn.withLock { turn in
                    guard turn.taken else {
                        turn.taken = true
                        return true
                    }
                    turn.waiter = waiter
                    return false
                }
                if freed { waiter.resume() }
            }
        }
        defer { release() }
        try await writer(chunk)
    }

    /// Writes an empty chunk, which puts nothing on the wire but fails once the connection is
    /// closed; skipped while a chunk is being written.
    func probe() async throws {
        guard take() else { return }
        defer { release() }
        try await writer("")
    }

    private func take() -> Bool {
        turn.withLock { turn in
            guard !turn.taken else { return false }
            turn.taken = true
            return true
        }
    }

    /// Hands the turn to the waiting chunk writer, or frees it.
    private func release() {
        let waiter: CheckedContinuation<Void, Never>? = turn.withLock { turn in
            guard let waiter = turn.waiter else {
                turn.taken = false
                return nil
            }
            turn.waiter = nil
            return waiter
        }
        waiter?.resume()
    }
}
