import SuspenseTesting
import Testing

@testable import SuspenseKit

/// Durations the API accepts that no clock can wait for: each trapped the process (Duration
/// overflow, or an instant advanced past what the clock holds) before waits were clamped.
@Suite(.timeLimit(.minutes(3)))
struct TimeSafetyTests {
    /// A key that hangs, under a Suspense with `timeout`, in an ErrorBoundary.
    struct TimedPage: Component {
        let timeout: Duration
        let hang: Hang
        var body: some Component {
            ErrorBoundary {
                Suspense(timeout: timeout) {
                    try Hanging("slow", hang: hang)
                } fallback: {
                    Text("Loading…")
                }
            } fallback: { error in
                Text("failed: \(error)")
            }
        }
    }

    @Test func aHugeMultiplierGoesStraightToTheMaximumDelay() async throws {
        let policy = RetryPolicy(
            maxAttempts: 3, initialDelay: .milliseconds(100), multiplier: 1e300, maxDelay: .seconds(5))
        #expect((1...3).map { policy.delay(afterAttempt: $0) } == [.milliseconds(100), .seconds(5), .seconds(5)])
        let clock = TestClock()
        let flaky = Flaky(failures: 2)
        async let output = render(
            RetriedPage(flaky: flaky, policy: policy), as: .plain, options: RenderOptions(clock: clock))
        await clock.waitForSleeper(dueAt: .milliseconds(100))
        clock.advance(by: .milliseconds(100))
        await clock.waitForSleeper(dueAt: .milliseconds(5100))
        clock.advance(by: .seconds(5))
        #expect(try await output == "loaded after 3 calls")
    }

    @Test func aJitterSourceThatReturnsNaNOrLeavesZeroToOneIsClamped() {
        func delay(random: Double) -> Duration {
            RetryPolicy(initialDelay: .seconds(1), jitter: 0.5, random: { random }).delay(afterAttempt: 1)
        }
        // NaN takes nothing off; out of range counts as the nearest end.
        #expect(delay(random: .nan) == .seconds(1))
        #expect(delay(random: -3) == .seconds(1))
        #expect(delay(random: 7) == .milliseconds(500))
        #expect(delay(random: .infinity) == .milliseconds(500))
    }

    @Test func aHugeMaximumDelayIsClampedToTheLongestWait() {
        let policy = RetryPolicy(
            maxAttempts: 100, initialDelay: .milliseconds(100), multiplier: 3, maxDelay: .seconds(1e20))
        #expect(policy.maxDelay == .longestWait)
        #expect(policy.delay(afterAttempt: 60) == .longestWait)
        #expect(policy.delay(afterAttempt: .max) == .longestWait)
    }

    @Test func aBackoffPastTheLongestWaitNeverEndsAndTheDeadlineCutsItOff() async throws {
        let base = TestClock()
        let flaky = Flaky(failures: 5)
        let policy = RetryPolicy(maxAttempts: 2, initialDelay: .seconds(Int64.max), maxDelay: .seconds(Int64.max))
        async let output = render(
            RetriedPage(flaky: flaky, policy: policy), as: .plain,
            options: RenderOptions(clock: NanosecondClock(base), deadline: .seconds(1)))
        await base.waitForSleeper(dueAt: .seconds(1))
        base.advance(by: .seconds(1))
        #expect(try await output == "Loading…")
        #expect(flaky.calls.value == 1)
        #expect(base.sleeperCount == 0)
    }

    @Test func aSuspenseTimeoutPastTheLongestWaitNeverFires() async throws {
        let base = TestClock()
        let hang = Hang()
        async let output = render(
            TimedPage(timeout: .seconds(Int64.max), hang: hang), as: .plain,
            options: RenderOptions(clock: NanosecondClock(base), deadline: .seconds(1)))
        await base.waitForSleeper(dueAt: .seconds(1))
        // Two hundred years: past the longest wait, not past what the clock holds.
        base.advance(by: .seconds(200 * 365 * 86_400))
        #expect(try await output == "Loading…")
        // Past the deadline the render does not wait for the query it cancelled to stop.
        try await waitUntil("the hanging query cancelled") { hang.cancellations.value == 1 }
    }

    @Test func aRenderDeadlinePastTheLongestWaitNeverCutsTheRenderOff() async throws {
        let base = TestClock()
        let hang = Hang()
        async let output = render(
            TimedPage(timeout: .seconds(1), hang: hang), as: .plain,
            options: RenderOptions(clock: NanosecondClock(base), deadline: .seconds(Int64.max)))
        await base.waitForSleeper(dueAt: .seconds(1))
        base.advance(by: .seconds(1))
        #expect(
            try await output
                == "failed: TimedPage > ErrorBoundary > Suspense timed out after 1.0 seconds waiting on slow")
    }

    @Test func aHugeCacheLifetimeKeepsResultsForever() {
        // A lifetime is only compared with the time since a result was stored: nothing to clamp.
        let clock = TestClock()
        let cache = QueryCache(lifetime: .seconds(Int64.max), clock: clock)
        cache.store("value", for: "a")
        clock.advance(by: .seconds(200 * 365 * 86_400))
        #expect(cache.value(for: "a", as: String.self) == "value")
    }

    @Test func negativeDurationsCountAsZero() async throws {
        let policy = RetryPolicy(initialDelay: .seconds(-1), maxDelay: .seconds(-1))
        #expect(policy.delay(afterAttempt: 3) == .zero)
        let clock = TestClock()
        let hang = Hang()
        // A negative timeout fires at once; so does a negative deadline, once the shell is out.
        let timedOut = try await render(
            TimedPage(timeout: .seconds(-1), hang: hang), as: .plain, options: RenderOptions(clock: clock))
        #expect(timedOut == "failed: TimedPage > ErrorBoundary > Suspense timed out after 0.0 seconds waiting on slow")
        let cutOff = try await render(
            TimedPage(timeout: .seconds(5), hang: Hang()), as: .plain,
            options: RenderOptions(clock: clock, deadline: .seconds(-1)))
        #expect(cutOff == "Loading…")
    }

    @Test func suspenseTimingPastTheLongestWaitIsNoTimeoutAndAHoldThatNeverEnds() throws {
        #expect(_SuspenseTiming(timeout: .seconds(Int64.max), fallbackDelay: nil, minimumFallbackDuration: nil) != nil)
        let huge = try #require(
            _SuspenseTiming(
                timeout: .seconds(Int64.max), fallbackDelay: .seconds(Int64.max),
                minimumFallbackDuration: .seconds(Int64.max)))
        #expect(huge.timeout == nil)
        #expect(huge.fallbackDelay == .longestWait)
        #expect(huge.minimumFallbackDuration == .longestWait)
    }
}

/// A clock whose instants count nanoseconds in an `Int64`, as the system clocks behind
/// `ContinuousClock` do: advancing an instant by more than about 292 years traps, as sleeping on
/// `ContinuousClock` past `Int64.max` seconds does. Its time moves with a `TestClock`.
struct NanosecondClock: Clock {
    struct Instant: InstantProtocol {
        var nanoseconds: Int64

        func advanced(by duration: Duration) -> Instant {
            let (seconds, attoseconds) = duration.components
            // Traps on overflow, as the system clock's conversion does.
            return Instant(nanoseconds: nanoseconds + seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        }

        func duration(to other: Instant) -> Duration {
            .nanoseconds(other.nanoseconds - nanoseconds)
        }

        static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.nanoseconds < rhs.nanoseconds
        }
    }

    let base: TestClock

    init(_ base: TestClock) {
        self.base = base
    }

    var now: Instant {
        let (seconds, attoseconds) = base.now.offset.components
        return Instant(nanoseconds: seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }

    var minimumResolution: Duration { .zero }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try await base.sleep(until: TestClock.Instant(offset: .nanoseconds(deadline.nanoseconds)))
    }
}
