import Hummingbird
import Synchronization

/// A response's body writer, shared by the task that writes a streamed page's chunks and the one
/// that probes the connection between them, one write at a time.
///
/// The writer cannot wait on the render and on a timer at once, which is why the probe is a task
/// of its own; a probe never waits for its turn, it skips it.
final class SharedBodyWriter: @unchecked Sendable {
    private struct Turn {
        var taken = false
        /// The chunk writer, waiting for a probe's write to end.
        var waiter: CheckedContinuation<Void, Never>?
    }

    /// Written only by the holder of the turn, and read once both tasks ended.
    private var writer: any ResponseBodyWriter
    private let turn = Mutex(Turn())

    init(_ writer: any ResponseBodyWriter) {
        self.writer = writer
    }

    /// The writer, once no task writes any more.
    var released: any ResponseBodyWriter { writer }

    /// Writes `buffer`, after a probe being written if there is one.
    func write(_ buffer: ByteBuffer) async throws {
        let free = turn.withLock { turn in
            guard !turn.taken else { return false }
            turn.taken = true
            return true
        }
        if !free {
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
        try await writer.write(buffer)
    }

    /// Writes an empty buffer, which puts nothing on the wire but fails once the connection is
    /// closed; skipped while a chunk is being written, which finds that as well.
    func probe() async throws {
        let free = turn.withLock { turn in
            guard !turn.taken else { return false }
            turn.taken = true
            return true
        }
        guard free else { return }
        defer { release() }
        try await writer.write(ByteBuffer())
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
