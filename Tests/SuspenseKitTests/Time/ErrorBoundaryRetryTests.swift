import SuspenseTesting
import Testing

@testable import SuspenseKit

/// `ErrorBoundary(retry:)`, on a test clock.
@Suite(.timeLimit(.minutes(3)))
struct ErrorBoundaryRetryTests {
    /// Reads `key` from `flaky`, at once (no suspension) and with no retry of its own.
    struct Card: Component {
        let value: String
        init(_ key: String, flaky: Flaky) throws {
            value = try resolveValue(key: key) { try flaky.value() }
        }
        var body: some Component { Element("p") { Text(value) } }
    }

    struct Page: Component {
        let flaky: Flaky
        let policy: RetryPolicy
        var body: some Component {
            Suspense {
                ErrorBoundary(retry: policy) {
                    try Card("card", flaky: flaky)
                } fallback: { error in
                    Text("failed: \(error)")
                }
            } fallback: {
                Text("Loading…")
            }
        }
    }

    @Test func theContentIsTriedAgainAfterTheBackoffWhileTheSuspenseShowsItsFallback() async throws {
        let clock = TestClock()
        let flaky = Flaky(failures: 1)
        let frames = liveFrames(
            Page(flaky: flaky, policy: RetryPolicy(maxAttempts: 3, initialDelay: .seconds(1))), options: options(clock))
        var iterator = frames.makeAsyncIterator()
        let shell = try #require(try await iterator.next())
        #expect(try shell.node.rendered(as: .tree).contains("[pending: retry of ErrorBoundary #0.0 after attempt 1]"))
        #expect(try shell.node.rendered(as: .plain) == "Loading…")
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(999))
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .milliseconds(1))
        let loaded = try #require(try await iterator.next())
        #expect(try loaded.node.rendered(as: .plain) == "loaded after 2 calls")
        #expect(try await iterator.next() == nil)
        #expect(flaky.calls.value == 2)
    }

    @Test func afterTheLastAttemptTheFallbackShowsAndTheTreeCountsTheAttempts() async throws {
        let clock = TestClock()
        let flaky = Flaky(failures: 5)
        let reports = Counter()
        let policy = RetryPolicy(maxAttempts: 3, initialDelay: .seconds(1), multiplier: 2)
        async let output = render(
            Page(flaky: flaky, policy: policy), as: .tree,
            options: RenderOptions(clock: clock).onCaughtError { _ in reports.increment() })
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        try await waitUntil("the second attempt") { flaky.calls.value == 2 }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(2))
        let tree = try await output
        #expect(tree.contains("ErrorBoundary #0.0 [caught after 3 attempts: unavailable]"))
        #expect(tree.contains("failed: unavailable"))
        #expect(flaky.calls.value == 3)
        // One failure reported: the one whose fallback shows.
        #expect(reports.value == 1)
    }

    @Test func anErrorThatIsNotTransientShowsTheFallbackAtOnce() async throws {
        let flaky = Flaky(failures: 5, error: NotFound())
        let tree = try await render(
            Page(flaky: flaky, policy: RetryPolicy(maxAttempts: 3)), as: .tree, options: options(TestClock()))
        #expect(tree.contains("ErrorBoundary #0.0 [caught: NotFound()]"))
        #expect(flaky.calls.value == 1)
    }

    @Test func onlyTheFailuresMetBeneathTheBoundaryAreForgotten() async throws {
        let clock = TestClock()
        let cache = QueryCache(failures: .keep)
        let outside = Flaky(failures: 5)
        let inside = Flaky(failures: 1)
        struct Both: Component {
            let outside: Flaky
            let inside: Flaky
            var body: some Component {
                ErrorBoundary {
                    try Card("outside", flaky: outside)
                } fallback: { _ in
                    Text("outside failed")
                }
                ErrorBoundary(retry: RetryPolicy(maxAttempts: 2, initialDelay: .seconds(1))) {
                    try Card("inside", flaky: inside)
                } fallback: { _ in
                    Text("inside failed")
                }
            }
        }
        async let output = render(
            Both(outside: outside, inside: inside), as: .plain, cache: cache, options: options(clock))
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        #expect(try await output == "outside failed\nloaded after 2 calls")
        #expect(cache.contains("outside"))
        #expect(outside.calls.value == 1)
    }

    @Test func withNoSuspenseAboveTheRenderWaitsForTheRetry() async throws {
        let clock = TestClock()
        let flaky = Flaky(failures: 2)
        struct Bare: Component {
            let flaky: Flaky
            var body: some Component {
                ErrorBoundary(retry: RetryPolicy(maxAttempts: 3, initialDelay: .milliseconds(10), multiplier: 1)) {
                    try Card("card", flaky: flaky)
                } fallback: { _ in
                    Text("failed")
                }
            }
        }
        async let output = render(Bare(flaky: flaky), as: .plain, options: options(clock))
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(10))
        try await waitUntil("the second attempt") { flaky.calls.value == 2 }
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(10))
        #expect(try await output == "loaded after 3 calls")
    }

    @Test func aFailureArrivingLaterIsTriedAgainToo() async throws {
        // The content suspends first, and its query fails after the shell.
        let clock = TestClock()
        let calls = Counter()
        struct Late: Component {
            let value: String
            init(calls: Counter) throws {
                value = try resolveValue(key: "late") {
                    await Task.yield()
                    if calls.increment() == 1 { throw TestFailure("first run failed") }
                    return "second run"
                }
            }
            var body: some Component { Text(value) }
        }
        struct LatePage: Component {
            let calls: Counter
            var body: some Component {
                Suspense {
                    ErrorBoundary(retry: RetryPolicy(maxAttempts: 2, initialDelay: .seconds(1))) {
                        try Late(calls: calls)
                    } fallback: { error in
                        Text("failed: \(error)")
                    }
                } fallback: {
                    Text("Loading…")
                }
            }
        }
        async let output = render(LatePage(calls: calls), as: .plain, options: options(clock))
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        #expect(try await output == "second run")
        #expect(calls.value == 2)
    }
}
