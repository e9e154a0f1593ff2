/// The bounded buffer between a render that produces output (frames, HTML chunks) and the one
/// consumer that reads it.
///
/// Sending never waits: a pass runs synchronously and hands over everything it made. The
/// render loop waits between results instead (``RenderBackpressure``) while what is buffered
/// costs more than `limit`, so a consumer that stops reading holds the render, not memory; the
/// queries already running go on. A consumer that goes away, or whose task is cancelled, frees
/// a waiting render at once.
final class RenderChannel<Element: Sendable>: RenderBackpressure, Sendable {
    private struct State {
        /// Buffered elements and their costs; `head` is the next one to read.
        var buffer: [(element: Element, cost: Int)] = []
        var head = 0
        var cost = 0
        /// How the output ended, once it did; a failure is thrown once, then the end is plain.
        var end: Result<Void, any Error>?
        var consumer: UnsafeContinuation<Element?, any Error>?
        var producer: UnsafeContinuation<Void, Never>?
        var consumerGone = false
        var sent = 0

        var hasRoom: Bool { cost <= limit || consumerGone }
        let limit: Int

        mutating func pop() -> Element {
            let (element, elementCost) = buffer[head]
            head += 1
            cost -= elementCost
            if head == buffer.count {
                buffer.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 64, head * 2 >= buffer.count {
                buffer.removeFirst(head)
                head = 0
            }
            return element
        }

        /// A producer waiting for room, when there is room now.
        mutating func takeProducerIfRoom() -> UnsafeContinuation<Void, Never>? {
            guard hasRoom, let producer else { return nil }
            self.producer = nil
            return producer
        }
    }

    private let state: Locked<State>

    /// What a reader's `next` does, decided under the lock.
    private enum NextStep {
        case element(Element, producer: UnsafeContinuation<Void, Never>?)
        case end(Result<Void, any Error>)
        case cancelled
        case wait
    }

    /// - Parameter limit: The cost of buffered elements above which the render waits.
    init(limit: Int) {
        state = Locked(State(limit: limit))
    }

    /// Hands `element` to the consumer waiting for it, or buffers it. Dropped once the consumer
    /// is gone or the output ended.
    func send(_ element: Element, cost: Int) {
        let consumer: UnsafeContinuation<Element?, any Error>? = state.withLock { state in
            guard !state.consumerGone, state.end == nil else { return nil }
            if let consumer = state.consumer {
                state.consumer = nil
                state.sent += 1
                return consumer
            }
            state.buffer.append((element, cost))
            state.cost += cost
            state.sent += 1
            return nil
        }
        consumer?.resume(returning: element)
    }

    /// Ends the output: the consumer reads what is buffered, then the end (nil), or `error`.
    func finish(throwing error: (any Error)? = nil) {
        let consumer: UnsafeContinuation<Element?, any Error>? = state.withLock { state in
            guard state.end == nil else { return nil }
            state.end = error.map { .failure($0) } ?? .success(())
            guard let consumer = state.consumer else { return nil }
            state.consumer = nil
            if error != nil { state.end = .success(()) }
            return consumer
        }
        if let error { consumer?.resume(throwing: error) } else { consumer?.resume(returning: nil) }
    }

    /// The consumer stopped reading for good: nothing more is buffered, a waiting render goes on.
    func consumerLeft() {
        let producer: UnsafeContinuation<Void, Never>? = state.withLock { state in
            state.consumerGone = true
            state.buffer = []
            state.head = 0
            state.cost = 0
            return state.takeProducerIfRoom()
        }
        producer?.resume()
    }

    var hasRoom: Bool {
        state.withLock { $0.hasRoom }
    }

    /// The cost of what waits to be read, and how many elements were sent in all.
    var buffered: (cost: Int, sent: Int) {
        state.withLock { ($0.cost, $0.sent) }
    }

    /// Returns once the buffer is within its limit, the consumer left, or the render's task is
    /// cancelled.
    func waitForRoom() async {
        await withTaskCancellationHandler {
            await withUnsafeContinuation { (producer: UnsafeContinuation<Void, Never>) in
                let ready = state.withLock { state in
                    if state.hasRoom || Task.isCancelled { return true }
                    state.producer = producer
                    return false
                }
                if ready { producer.resume() }
            }
        } onCancel: {
            let producer: UnsafeContinuation<Void, Never>? = state.withLock { state in
                defer { state.producer = nil }
                return state.producer
            }
            producer?.resume()
        }
    }

    /// The next element, nil at the end; throws the render's error once, or `CancellationError`
    /// when the consumer's task is cancelled.
    func next(isolation actor: isolated (any Actor)?) async throws -> Element? {
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation(isolation: actor) {
                (consumer: UnsafeContinuation<Element?, any Error>) in
                let step: NextStep = state.withLock { state in
                    if state.head < state.buffer.count {
                        let element = state.pop()
                        return .element(element, producer: state.takeProducerIfRoom())
                    }
                    if let end = state.end {
                        state.end = .success(())
                        return .end(end)
                    }
                    if Task.isCancelled { return .cancelled }
                    state.consumer = consumer
                    return .wait
                }
                switch step {
                case .element(let element, let producer):
                    producer?.resume()
                    consumer.resume(returning: element)
                case .end(.success):
                    consumer.resume(returning: nil)
                case .end(.failure(let error)):
                    consumer.resume(throwing: error)
                case .cancelled:
                    consumer.resume(throwing: CancellationError())
                case .wait:
                    break
                }
            }
        } onCancel: {
            let consumer: UnsafeContinuation<Element?, any Error>? = state.withLock { state in
                defer { state.consumer = nil }
                return state.consumer
            }
            consumer?.resume(throwing: CancellationError())
        }
    }
}
