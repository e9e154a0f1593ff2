import SuspenseTesting
import Testing

@testable import SuspenseKit

/// `RetryPolicy` and `resolveValue(key:retry:query:)`, on a test clock.
@Suite(.timeLimit(.minutes(3)))
struct RetryTests {
    @Test func delaysGrowExponentiallyUpToTheMaximum() {
        let policy = RetryPolicy(
            maxAttempts: 10, initialDelay: .milliseconds(100), multiplier: 2, maxDelay: .seconds(1))
        #expect(
            (1...6).map { policy.delay(afterAttempt: $0) }
                == [
                    .milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800), .seconds(1),
                    .seconds(1),
                ])
    }

    @Test func jitterTakesARandomShareOffEachDelay() {
        let policy = RetryPolicy(initialDelay: .seconds(1), jitter: 0.5, random: { 0.5 })
        #expect(policy.delay(afterAttempt: 1) == .milliseconds(750))
        #expect(policy.delay(afterAttempt: 2) == .milliseconds(1500))
        let none = RetryPolicy(initialDelay: .seconds(1), jitter: 0.5, random: { 0 })
        #expect(none.delay(afterAttempt: 1) == .seconds(1))
    }

    @Test func outOfRangeSettingsAreClamped() {
        let policy = RetryPolicy(maxAttempts: 0, initialDelay: .seconds(-1), multiplier: .nan, jitter: 7)
        #expect(policy.maxAttempts == 1)
        #expect(policy.initialDelay == .zero)
        #expect(policy.multiplier == 1)
        #expect(policy.jitter == 1)
    }

    @Test func aFlakyQueryIsTriedAgainAfterEachBackoffUntilItSucceeds() async throws {
        let clock = TestClock()
        let flaky = Flaky(failures: 2)
        let policy = RetryPolicy(maxAttempts: 3, initialDelay: .milliseconds(100), multiplier: 2)
        let frames = liveFrames(RetriedPage(flaky: flaky, policy: policy), options: options(clock))
        var iterator = frames.makeAsyncIterator()
        // The first attempt failed at once: the component waits for its retry behind the fallback.
        let shell = try #require(try await iterator.next())
        #expect(try shell.node.rendered(as: .plain) == "Loading…")
        await clock.waitForSleepers(1)
        #expect(flaky.calls.value == 1)
        clock.advance(by: .milliseconds(99))
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .milliseconds(1))
        try await waitUntil("the second attempt") { flaky.calls.value == 2 }
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(199))
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .milliseconds(1))
        let loaded = try #require(try await iterator.next())
        #expect(try loaded.node.rendered(as: .plain) == "loaded after 3 calls")
        #expect(try await iterator.next() == nil)
        #expect(flaky.calls.value == 3)
    }

    @Test func afterTheLastAttemptTheLastErrorReachesTheErrorBoundary() async throws {
        let clock = TestClock()
        let flaky = Flaky(failures: 5)
        let policy = RetryPolicy(maxAttempts: 2, initialDelay: .seconds(1))
        async let output = render(RetriedPage(flaky: flaky, policy: policy), as: .plain, options: options(clock))
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        #expect(try await output == "failed: unavailable")
        #expect(flaky.calls.value == 2)
    }

    @Test func anErrorThatIsNotTransientIsNeverTriedAgain() async throws {
        let clock = TestClock()
        let flaky = Flaky(failures: 5, error: NotFound())
        let output = try await render(
            RetriedPage(flaky: flaky, policy: RetryPolicy(maxAttempts: 5)), as: .plain, options: options(clock))
        #expect(output == "failed: NotFound()")
        #expect(flaky.calls.value == 1)
        #expect(clock.sleeperCount == 0)
    }

    @Test func cancellingTheRenderDuringABackoffEndsItPromptly() async throws {
        let clock = TestClock()
        let flaky = Flaky(failures: 5)
        let task = Task {
            try await render(
                RetriedPage(flaky: flaky, policy: RetryPolicy(maxAttempts: 5)), as: .plain, options: options(clock))
        }
        await clock.waitForSleepers(1)
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(clock.sleeperCount == 0)
        #expect(flaky.calls.value == 1)
    }

    @Test func outsideARenderTheBackoffUsesTheContinuousClock() async throws {
        // A zero delay: the retry path runs without a render's clock and without waiting.
        let flaky = Flaky(failures: 1)
        let policy = RetryPolicy(maxAttempts: 2, initialDelay: .zero)
        let promise: Promise<String>
        do {
            _ = try resolveValue(key: "outside", retry: policy) { try flaky.value() }
            Issue.record("outside a render, resolveValue throws a promise")
            return
        } catch let thrown as Promise<String> {
            promise = thrown
        }
        #expect(try await promise.query() == "loaded after 2 calls")
    }
}
