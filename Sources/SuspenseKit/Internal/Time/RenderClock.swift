/// The clock of one render, opened once from the `any Clock<Duration>` of ``RenderOptions``:
/// everything the render waits for (timeouts, the deadline, retry backoff) is measured as an
/// offset from the render's start on this clock, so that a test clock that was advanced before a
/// timer was armed still fires it (an instant already past returns at once).
///
/// Offsets are waits (`Duration+Waits`): a negative one is the render's start, and one of
/// `Duration.longestWait` or more is never reached, so the clock is never asked to advance an
/// instant that far (`ContinuousClock` traps past `Int64.max` seconds).
struct RenderClock: Sendable {
    /// The time since the render started.
    let elapsed: @Sendable () -> Duration
    /// Waits until `offset` after the render's start, forever when it is `Duration.longestWait` or
    /// more; throws `CancellationError` when cancelled.
    let sleepUntil: @Sendable (_ offset: Duration) async throws -> Void

    init(_ clock: any Clock<Duration>) {
        self = Self.open(clock)
    }

    private init(
        elapsed: @escaping @Sendable () -> Duration,
        sleepUntil: @escaping @Sendable (Duration) async throws -> Void
    ) {
        self.elapsed = elapsed
        self.sleepUntil = sleepUntil
    }

    private static func open<C: Clock<Duration>>(_ clock: C) -> RenderClock {
        let start = clock.now
        return RenderClock(
            elapsed: { start.duration(to: clock.now) },
            sleepUntil: { offset in
                if offset.neverArrives { return try await RenderClock.waitUntilCancelled() }
                try await clock.sleep(until: start.advanced(by: max(offset, .zero)), tolerance: nil)
            }
        )
    }

    /// Waits for `duration` from now, forever when that is past `Duration.longestWait`.
    func sleep(for duration: Duration) async throws {
        try await sleepUntil(elapsed().saturatingAdding(duration.clampedWait))
    }

    /// Suspends until the task is cancelled, then throws `CancellationError`: the wait for an
    /// instant that never comes, asking no clock.
    static func waitUntilCancelled() async throws {
        let state = Locked<(isCancelled: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let isCancelled = state.withLock { state in
                    if !state.isCancelled { state.waiter = continuation }
                    return state.isCancelled
                }
                if isCancelled { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                state.isCancelled = true
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }
        throw CancellationError()
    }
}
