/// The clock of one render, opened once from the `any Clock<Duration>` of ``RenderOptions``:
/// everything the render waits for (timeouts, the deadline, retry backoff) is measured as an
/// offset from the render's start on this clock, so that a test clock that was advanced before a
/// timer was armed still fires it (an instant already past returns at once).
struct RenderClock: Sendable {
    /// The time since the render started.
    let elapsed: @Sendable () -> Duration
    /// Waits until `offset` after the render's start; throws `CancellationError` when cancelled.
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
            sleepUntil: { offset in try await clock.sleep(until: start.advanced(by: offset), tolerance: nil) }
        )
    }

    /// Waits for `duration` from now.
    func sleep(for duration: Duration) async throws {
        try await sleepUntil(elapsed() + duration)
    }
}
