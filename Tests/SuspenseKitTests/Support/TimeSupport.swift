import SuspenseTesting
import Testing

@testable import SuspenseKit

/// A query that never answers until it is cancelled; counts its runs and cancellations.
final class Hang: Sendable {
    let runs = Counter()
    let cancellations = Counter()

    func value(_ key: String) async throws -> String {
        runs.increment()
        do {
            try await Task.sleep(for: .seconds(3600))
        } catch {
            cancellations.increment()
            throw error
        }
        return key
    }
}

/// Shows the value of a query that hangs until cancelled.
struct Hanging: Component {
    let value: String
    init(_ key: String, hang: Hang) throws {
        value = try resolveValue(key: key) { try await hang.value(key) }
    }
    var body: some Component { Text(value) }
}

/// A latch a query waits on, ignoring cancellation; opened by the test.
final class Latch: Sendable {
    private let state = Locked<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))
    let finished = Counter()

    func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Waits until the latch opens, whether or not the task is cancelled.
    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let isOpen = state.withLock { state in
                if state.isOpen { return true }
                state.waiters.append(continuation)
                return false
            }
            if isOpen { continuation.resume() }
        }
    }
}

/// Options with a test clock.
func options(_ clock: TestClock, deadline: Duration? = nil, onDeadline: (@Sendable ([TimeoutError]) -> Void)? = nil)
    -> RenderOptions
{
    var options = RenderOptions(deliveryOrder: .discovery, clock: clock, deadline: deadline)
    options.onDeadline = onDeadline
    return options
}
