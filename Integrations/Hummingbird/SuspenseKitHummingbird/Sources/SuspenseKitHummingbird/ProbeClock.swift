import Synchronization

/// Wakes every streamed response once an `interval`, so that it probes its connection: one task
/// for the process while any response streams, rather than a timer for each response.
final class ProbeClock: Sendable {
    static let shared = ProbeClock(interval: .seconds(1))

    private struct State {
        var ticking = false
        var nextID = 0
        var signals: [Int: ResponseSignal] = [:]
    }

    private let interval: Duration
    private let state = Mutex(State())

    init(interval: Duration) {
        self.interval = interval
    }

    /// Ticks `signal` until `unregister`; starts the clock if it stopped.
    func register(_ signal: ResponseSignal) -> Int {
        let (id, start): (Int, Bool) = state.withLock { state in
            state.nextID += 1
            state.signals[state.nextID] = signal
            defer { state.ticking = true }
            return (state.nextID, !state.ticking)
        }
        if start {
            Task.detached { await self.tick() }
        }
        return id
    }

    func unregister(_ id: Int) {
        _ = state.withLock { $0.signals.removeValue(forKey: id) }
    }

    /// Ticks every registered signal once an interval; stops when none is left.
    private func tick() async {
        while true {
            try? await Task.sleep(for: interval)
            let signals: [ResponseSignal]? = state.withLock { state in
                guard !state.signals.isEmpty else {
                    state.ticking = false
                    return nil
                }
                return Array(state.signals.values)
            }
            guard let signals else { return }
            for signal in signals { signal.tick() }
        }
    }
}

/// What a streamed response waits for between probes: the clock's tick, or the end of the task
/// that writes its chunks.
final class ResponseSignal: Sendable {
    enum Event: Sendable {
        case tick
        case done
    }

    private struct State {
        var tickDue = false
        var done = false
        var waiter: CheckedContinuation<Event, Never>?
    }

    private let state = Mutex(State())

    func tick() {
        let waiter: CheckedContinuation<Event, Never>? = state.withLock { state in
            guard let waiter = state.waiter else {
                state.tickDue = true
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume(returning: .tick)
    }

    func finish() {
        let waiter: CheckedContinuation<Event, Never>? = state.withLock { state in
            state.done = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: .done)
    }

    /// The next event; `done` once the chunks' task ended, before any tick.
    func wait() async -> Event {
        await withCheckedContinuation { (waiter: CheckedContinuation<Event, Never>) in
            let event: Event? = state.withLock { state in
                if state.done { return .done }
                if state.tickDue {
                    state.tickDue = false
                    return .tick
                }
                state.waiter = waiter
                return nil
            }
            if let event { waiter.resume(returning: event) }
        }
    }
}
