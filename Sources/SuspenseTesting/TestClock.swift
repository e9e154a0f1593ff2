import Foundation

/// A clock that moves only when a test advances it, for `RenderOptions.clock`: timeouts,
/// deadlines and retry backoff then fire exactly when the test says, and no test sleeps.
///
/// ```swift
/// let clock = TestClock()
/// async let page = render(Page(), as: .tree, options: RenderOptions(clock: clock))
/// await clock.waitForSleepers(1)        // the Suspense's timeout is armed
/// clock.advance(by: .seconds(2))        // and fires
/// print(try await page)
/// ```
///
/// A sleeper waits for an instant: one whose instant has passed returns at once, so advancing
/// before a render arms a timer measured from the render's start still fires it. Work that
/// sleeps *relative to now* (retry backoff) registers its sleep only when it gets there: wait
/// for it with ``waitForSleepers(_:)`` before advancing past it.
public final class TestClock: Clock, @unchecked Sendable {
    /// A point in the test clock's time: the time since the clock was created.
    public struct Instant: InstantProtocol, Sendable {
        /// The time since the clock was created.
        public var offset: Duration

        /// Creates the instant `offset` after the clock's creation.
        public init(offset: Duration) {
            self.offset = offset
        }

        /// The instant `duration` later.
        public func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        /// The time from this instant to `other`.
        public func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        /// Whether `lhs` comes before `rhs`.
        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }
    }

    private struct Sleeper {
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private let lock = NSLock()
    private var current = Instant(offset: .zero)
    private var sleepers: [Int: Sleeper] = [:]
    private var nextSleeper = 0
    /// Tests waiting for sleepers, by number: each with what it waits for, checked with the lock
    /// held.
    private var watchers:
        [Int: (isSatisfied: ([Int: Sleeper]) -> Bool, continuation: CheckedContinuation<Void, Never>)] =
            [:]
    private var nextWatcher = 0

    /// Creates a clock at time zero.
    public init() {}

    /// The current instant: moves only with ``advance(by:)``.
    public var now: Instant {
        locked { current }
    }

    /// The clock has no resolution limit.
    public var minimumResolution: Duration { .zero }

    /// How many tasks are sleeping on the clock now.
    public var sleeperCount: Int {
        locked { sleepers.count }
    }

    /// Waits until `deadline` has been reached by ``advance(by:)``; returns at once if it has.
    /// Throws `CancellationError` when the sleeping task is cancelled.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id: Int = locked {
            nextSleeper += 1
            return nextSleeper
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (resumeNow, ready) = locked { () -> (Bool, [CheckedContinuation<Void, Never>]) in
                    if deadline <= current || Task.isCancelled { return (true, []) }
                    sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return (false, takeSatisfiedWatchers())
                }
                for watcher in ready { watcher.resume() }
                if resumeNow {
                    if Task.isCancelled {
                        continuation.resume(throwing: CancellationError())
                    } else {
                        continuation.resume()
                    }
                }
            }
        } onCancel: {
            let sleeper = locked { sleepers.removeValue(forKey: id) }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward by `duration` and wakes every sleeper whose instant has come, earliest
    /// first.
    public func advance(by duration: Duration) {
        let due: [Sleeper] = locked {
            current = current.advanced(by: max(duration, .zero))
            let due = sleepers.filter { $0.value.deadline <= current }
            for id in due.keys { sleepers[id] = nil }
            return due.values.sorted { $0.deadline < $1.deadline }
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Waits until at least `count` tasks are sleeping on the clock: a render has armed its
    /// timers, or a retried query has begun its backoff. Returns early when the waiting task is
    /// cancelled (by a test's time limit, say), so that a sleeper that never comes cannot hang
    /// the test run.
    public func waitForSleepers(_ count: Int = 1) async {
        await waitUntil { $0.count >= count }
    }

    /// Waits until a task sleeps until `offset` after the clock's creation: the one sleeper a
    /// test means, when others come and go (a timer cancelled as its boundary resolves). Returns
    /// early, like ``waitForSleepers(_:)``, when the waiting task is cancelled.
    ///
    /// ```swift
    /// await clock.waitForSleeper(dueAt: .milliseconds(200))   // the first backoff
    /// clock.advance(by: .milliseconds(200))
    /// await clock.waitForSleeper(dueAt: .milliseconds(600))   // the second, 400 ms later
    /// ```
    public func waitForSleeper(dueAt offset: Duration) async {
        await waitUntil { sleepers in sleepers.values.contains { $0.deadline.offset == offset } }
    }

    private func waitUntil(_ isSatisfied: @escaping ([Int: Sleeper]) -> Bool) async {
        let id: Int = locked {
            nextWatcher += 1
            return nextWatcher
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready: Bool = locked {
                    if isSatisfied(sleepers) || Task.isCancelled { return true }
                    watchers[id] = (isSatisfied, continuation)
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            let watcher = locked { watchers.removeValue(forKey: id) }
            watcher?.continuation.resume()
        }
    }

    /// The watchers now satisfied, taken out; called with the lock held.
    private func takeSatisfiedWatchers() -> [CheckedContinuation<Void, Never>] {
        let satisfied = watchers.filter { $0.value.isSatisfied(sleepers) }
        for id in satisfied.keys { watchers[id] = nil }
        return satisfied.values.map(\.continuation)
    }

    private func locked<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
