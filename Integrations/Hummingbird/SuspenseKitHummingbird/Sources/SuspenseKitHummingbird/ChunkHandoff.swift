import Hummingbird
import SuspenseKit
import Synchronization

/// Hands a streamed page's chunks from the task that reads the render to the one that writes
/// the response, one at a time, so that a client that reads slowly still holds the render back;
/// and, between chunks, a probe that a timer posts.
///
/// The writer cannot wait on the render and on a timer at once while it reads the stream itself,
/// which is why the reading happens in a task of its own.
final class ChunkHandoff: Sendable {
    enum Event: Sendable {
        case chunk(String)
        /// Time to write an empty chunk, to learn whether the connection is still open.
        case probe
        /// The stream ended, normally or with the error it threw.
        case end(Result<Void, any Error>)
    }

    private struct State {
        /// A chunk or the end, sent and not yet taken.
        var sent: Event?
        var probeDue = false
        var closed = false
        var taker: CheckedContinuation<Event, Never>?
        /// The reader, waiting for its event to be taken.
        var sender: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    /// Reads `stream` to its end, or until the writer closed the handoff or the task is
    /// cancelled. Dropping the iterator then cancels the render.
    func read(_ stream: HTMLStream) async {
        var chunks = stream.makeAsyncIterator()
        do {
            while let chunk = try await chunks.next() {
                guard await send(.chunk(chunk)) else { return }
            }
            _ = await send(.end(.success(())))
        } catch {
            _ = await send(.end(.failure(error)))
        }
    }

    /// Posts a probe every `interval` until the task is cancelled.
    func probe(every interval: Duration) async {
        while (try? await Task.sleep(for: interval)) != nil {
            let taker: CheckedContinuation<Event, Never>? = state.withLock { state in
                if let taker = state.taker {
                    state.taker = nil
                    return taker
                }
                state.probeDue = true
                return nil
            }
            taker?.resume(returning: .probe)
        }
    }

    /// The next event: a chunk or the end before a probe.
    func take() async -> Event {
        await withCheckedContinuation { (taker: CheckedContinuation<Event, Never>) in
            let (event, sender): (Event?, CheckedContinuation<Void, Never>?) = state.withLock { state in
                if let event = state.sent {
                    state.sent = nil
                    defer { state.sender = nil }
                    return (event, state.sender)
                }
                if state.probeDue {
                    state.probeDue = false
                    return (.probe, nil)
                }
                state.taker = taker
                return (nil, nil)
            }
            sender?.resume()
            if let event { taker.resume(returning: event) }
        }
    }

    /// The writer is done: a reader waiting for its event to be taken goes on, and stops.
    func close() {
        let sender: CheckedContinuation<Void, Never>? = state.withLock { state in
            state.closed = true
            state.sent = nil
            defer { state.sender = nil }
            return state.sender
        }
        sender?.resume()
    }

    /// Gives `event` to the writer, and returns once it took it: true, or false once the writer
    /// closed the handoff.
    private func send(_ event: Event) async -> Bool {
        await withCheckedContinuation { (sender: CheckedContinuation<Void, Never>) in
            let (taker, taken): (CheckedContinuation<Event, Never>?, Bool) = state.withLock { state in
                if state.closed { return (nil, true) }
                if let taker = state.taker {
                    state.taker = nil
                    return (taker, true)
                }
                state.sent = event
                state.sender = sender
                return (nil, false)
            }
            taker?.resume(returning: event)
            if taken { sender.resume() }
        }
        return state.withLock { !$0.closed }
    }
}
