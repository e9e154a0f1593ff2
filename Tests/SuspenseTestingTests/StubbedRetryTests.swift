import SuspenseKit
import SuspenseTesting
import Testing

/// A stubbed outcome read with `resolveValue(key:retry:)` is tried again like the query it
/// stands for: each attempt gives the stub, with the policy's backoff on the render's clock.
@Suite(.snapshots, .timeLimit(.minutes(3)))
struct StubbedRetryTests {
    /// A transient failure, tried again.
    struct Unavailable: Error, CustomStringConvertible {
        var description: String { "unavailable" }
    }

    /// A failure that says trying again cannot help.
    struct Gone: RetryableError, CustomStringConvertible {
        var isTransient: Bool { false }
        var description: String { "gone" }
    }

    /// Reads `feed` with three attempts, 100 ms then 200 ms apart.
    struct Feed: Component {
        static let policy = RetryPolicy(maxAttempts: 3, initialDelay: .milliseconds(100), multiplier: 2)
        let value: String
        init() throws {
            value = try resolveValue(key: "feed", retry: Self.policy) { () async throws -> String in
                throw Unstubbed(key: "feed")
            }
        }
        var body: some Component { Text(value) }
    }

    struct Page: Component {
        var body: some Component {
            ErrorBoundary {
                Suspense {
                    try Feed()
                } fallback: {
                    Text("Loading…")
                }
            } fallback: { error in
                Text("failed: \(error)")
            }
        }
    }

    @Test func aStubbedFailureWaitsEachBackoffAndThenReachesTheErrorBoundary() async throws {
        let clock = TestClock()
        let cache = QueryCache()
        cache.stub(.failure(Unavailable()), for: "feed")
        async let output = render(Page(), as: .plain, cache: cache, options: RenderOptions(clock: clock))
        // The first attempt fails at once; the second comes 100 ms after it, the third 200 ms later.
        #expect(await clock.waitForSleeper(dueAt: .milliseconds(100)))
        clock.advance(by: .milliseconds(100))
        #expect(await clock.waitForSleeper(dueAt: .milliseconds(300)))
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .milliseconds(200))
        #expect(try await output == "failed: unavailable")
        #expect(clock.sleeperCount == 0)
        #expect(clock.now.offset == .milliseconds(300))
    }

    @Test func theRetrySnapshotOfAStubbedFailureShowsTheFallbackThenTheFailure() async throws {
        let clock = TestClock()
        async let snapshot: Void = assertSnapshot(
            of: Page(), as: .frames, outcomes: ["feed": .failure(Unavailable())], clock: clock)
        #expect(await clock.waitForSleeper(dueAt: .milliseconds(100)))
        clock.advance(by: .milliseconds(100))
        #expect(await clock.waitForSleeper(dueAt: .milliseconds(300)))
        clock.advance(by: .milliseconds(200))
        await snapshot
    }

    @Test func aStubbedFailureThatIsNotTransientIsNotTriedAgain() async throws {
        let clock = TestClock()
        let cache = QueryCache()
        cache.stub(.failure(Gone()), for: "feed")
        let output = try await render(Page(), as: .plain, cache: cache, options: RenderOptions(clock: clock))
        #expect(output == "failed: gone")
        #expect(clock.sleeperCount == 0)
    }

    @Test func aStubbedValueIsReadWithoutWaiting() async throws {
        let clock = TestClock()
        let cache = QueryCache()
        cache.stub(.value("stubbed"), for: "feed")
        let output = try await render(Page(), as: .plain, cache: cache, options: RenderOptions(clock: clock))
        #expect(output == "stubbed")
        #expect(clock.now.offset == .zero)
    }
}
