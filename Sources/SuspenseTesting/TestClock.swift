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
/// for it with ``waitForSleepers(_:timeout:fileID:filePath:line:column:)`` before advancing past
/// it.
///
/// ## Order of wake-ups
///
/// One ``advance(by:)`` wakes the sleepers it passes one at a time: earliest instant first,
/// sleepers due at the same instant in the order they began sleeping. Each is resumed only once
/// the one before it has been seen to wake, that is, its `sleep` is returning (or it was
/// cancelled). A sleeper wakes on the actor it slept on, so tasks isolated to one actor see their
/// wake-ups in that order, each running until it next suspends before the next one wakes. Tasks
/// on the concurrent pool see their `sleep` calls return in that order, but what each does next
/// may interleave with the next one: nothing in Swift orders two tasks on the pool.
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

    struct Sleeper {
        let id: Int
        let deadline: Instant
        /// When it began sleeping, among the clock's sleepers: orders sleepers due together.
        let armed: Int
        let continuation: CheckedContinuation<Void, any Error>
    }

    private let lock = NSLock()
    private var current = Instant(offset: .zero)
    /// Sleepers whose instant has not come, by id.
    private(set) var sleepers: [Int: Sleeper] = [:]
    private var nextSleeper = 0
    private var nextArmed = 0
    /// Sleepers whose instant came, in the order they wake, not resumed yet.
    private var due: [Sleeper] = []
    /// The sleeper resumed last, until it is seen to wake: the next waits for it.
    private var waking: Int?
    /// Tests waiting for sleepers, by number: each with what it waits for, checked with the lock
    /// held.
    var watchers: [Int: Watcher] = [:]
    var nextWatcher = 0

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

    #if compiler(>=6.2)
        /// Waits until `deadline` has been reached by ``advance(by:)``; returns at once if it has.
        /// Throws `CancellationError` when the sleeping task is cancelled. Runs, and wakes, on the
        /// caller's actor.
        nonisolated(nonsending) public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
            try await sleep(until: deadline, isolation: #isolation)
        }
    #else
        /// Waits until `deadline` has been reached by ``advance(by:)``; returns at once if it has.
        /// Throws `CancellationError` when the sleeping task is cancelled.
        public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
            try await sleep(until: deadline, isolation: nil)
        }
    #endif

    private func sleep(until deadline: Instant, isolation: isolated (any Actor)?) async throws {
        let id: Int = locked {
            nextSleeper += 1
            return nextSleeper
        }
        // Seen to wake, on the caller's actor: the next sleeper due may wake now.
        defer { wokeUp(id) }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation(isolation: isolation) {
                (continuation: CheckedContinuation<Void, any Error>) in
                let (resumeNow, ready) = locked { () -> (Bool, [Watcher]) in
                    if deadline <= current || Task.isCancelled { return (true, []) }
                    nextArmed += 1
                    sleepers[id] = Sleeper(id: id, deadline: deadline, armed: nextArmed, continuation: continuation)
                    return (false, takeSatisfiedWatchers())
                }
                for watcher in ready { watcher.continuation.resume(returning: .satisfied) }
                if resumeNow {
                    if Task.isCancelled {
                        continuation.resume(throwing: CancellationError())
                    } else {
                        continuation.resume()
                    }
                }
            }
        } onCancel: {
            let sleeper = locked { () -> Sleeper? in
                if let sleeper = sleepers.removeValue(forKey: id) { return sleeper }
                guard let index = due.firstIndex(where: { $0.id == id }) else { return nil }
                return due.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward by `duration` (nothing for a negative one) and wakes every sleeper
    /// whose instant has come, earliest first, one at a time (see "Order of wake-ups" above).
    public func advance(by duration: Duration) {
        let first: Sleeper? = locked {
            current = current.advanced(by: max(duration, .zero))
            let passed = sleepers.values.filter { $0.deadline <= current }
            for sleeper in passed { sleepers[sleeper.id] = nil }
            due += passed.sorted { ($0.deadline, $0.armed) < ($1.deadline, $1.armed) }
            return waking == nil ? takeNextDue() : nil
        }
        first?.continuation.resume()
    }

    /// The sleeper `id` woke: resumes the next one due, if it was the one resumed last.
    private func wokeUp(_ id: Int) {
        let next: Sleeper? = locked {
            guard waking == id else { return nil }
            waking = nil
            return takeNextDue()
        }
        next?.continuation.resume()
    }

    /// Takes the next sleeper due as the one waking; called with the lock held.
    private func takeNextDue() -> Sleeper? {
        guard !due.isEmpty else { return nil }
        let next = due.removeFirst()
        waking = next.id
        return next
    }

    func locked<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
