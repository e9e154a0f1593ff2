import Synchronization

/// The floor under the workloads that start a query per item (benchmarks 2, 3 and 8), with no
/// library: what any render of them does at least. Each item is an immediate task that waits
/// once (a yield, or a sleep) or not at all, makes its text and stores it under a lock; the
/// caller is resumed once, when the last item answered; then the byte-buffer baseline writes
/// the page. SuspenseKit's time over this one is what the library adds; its time under it is the
/// runtime's.
public enum RuntimeFloor {
    /// How each item's task waits before it answers.
    public enum Wait: Sendable {
        /// Answers at once, on the caller's thread (benchmark 2).
        case none
        case yield
        case sleep(Duration)
    }

    /// The page of `count` items (the same bytes as `Baseline.html(count:)`), each item's text
    /// made by its own task as `wait` says.
    public static func html(count: Int, waiting wait: Wait) async -> String {
        let texts = await texts(count: count, waiting: wait)
        return Baseline.html(count: count) { texts[$0] }
    }

    /// Every item's text, each made by a task that waited as `wait` says; all of them run at once.
    static func texts(count: Int, waiting wait: Wait) async -> [String] {
        guard count > 0 else { return [] }
        let collector = Collector(count: count)
        for index in 0..<count {
            let item: @Sendable () async -> Void = {
                switch wait {
                case .none: break
                case .yield: await Task.yield()
                case .sleep(let duration): try? await Task.sleep(for: duration)
                }
                collector.store(itemText(index), at: index)
            }
            // Started as `resolveValue(key:query:)` starts a query: on this thread until it first
            // waits, where the platform has immediate tasks.
            if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
                Task.immediate(operation: item)
            } else {
                Task(operation: item)
            }
        }
        return await collector.all()
    }

    /// The items' texts, and the caller waiting for the last one.
    private final class Collector: Sendable {
        private struct State {
            var texts: [String]
            var left: Int
            var waiter: CheckedContinuation<Void, Never>?
        }

        private let state: Mutex<State>

        init(count: Int) {
            state = Mutex(State(texts: Array(repeating: "", count: count), left: count))
        }

        func store(_ text: String, at index: Int) {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                state.texts[index] = text
                state.left -= 1
                guard state.left == 0 else { return nil }
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }

        func all() async -> [String] {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let done = state.withLock { state -> Bool in
                    if state.left == 0 { return true }
                    state.waiter = continuation
                    return false
                }
                if done { continuation.resume() }
            }
            return state.withLock { state in
                defer { state.texts = [] }
                return state.texts
            }
        }
    }
}
