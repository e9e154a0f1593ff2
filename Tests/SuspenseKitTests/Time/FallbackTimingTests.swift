import SuspenseTesting
import Testing

@testable import SuspenseKit

/// `Suspense(fallbackDelay:minimumFallbackDuration:)` in streams and frames, on a test clock.
@Suite(.timeLimit(.minutes(3)))
struct FallbackTimingTests {
    struct Delayed: Component {
        let gates: Gates
        var body: some Component {
            Element("main") {
                Suspense(fallbackDelay: .milliseconds(100)) {
                    try Gated("a", gates: gates)
                } fallback: {
                    Text("a loading")
                }
            }
        }
    }

    @Test func contentThatResolvesWithinTheDelayIsInTheShellNeverAFallback() async throws {
        let clock = TestClock()
        let gates = Gates()
        async let stream = renderStream(Delayed(gates: gates), options: options(clock))
        // The shell waits for the delay; the content arrives first.
        await clock.waitForSleepers(1)
        gates.open("a")
        var chunks: [String] = []
        for try await chunk in try await stream { chunks.append(chunk) }
        #expect(chunks == ["<main><p>a loaded</p></main>"])
    }

    @Test func contentSlowerThanTheDelayShowsTheFallbackOnceTheDelayHasPassed() async throws {
        let clock = TestClock()
        let gates = Gates()
        async let stream = renderStream(Delayed(gates: gates), options: options(clock))
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(100))
        var iterator = try await stream.makeAsyncIterator()
        let shell = try #require(try await iterator.next())
        #expect(shell.contains("a loading"))
        gates.open("a")
        let rest = try #require(try await iterator.next())
        #expect(rest.contains("<p>a loaded</p>"))
    }

    @Test func aBoundaryWaitsForAnInnerOneResolvingWithinItsDelay() async throws {
        let clock = TestClock()
        let gates = Gates()
        struct Nested: Component {
            let gates: Gates
            var body: some Component {
                Suspense {
                    try Gated("outer", gates: gates)
                    Suspense(fallbackDelay: .milliseconds(200)) {
                        try Gated("inner", gates: gates)
                    } fallback: {
                        Text("inner loading")
                    }
                } fallback: {
                    Text("outer loading")
                }
            }
        }
        let frames = liveFrames(Nested(gates: gates), options: options(clock))
        var iterator = frames.makeAsyncIterator()
        let shell = try #require(try await iterator.next())
        #expect(try shell.node.rendered(as: .plain) == "outer loading")
        gates.open("outer")
        // The outer content is ready, but the inner Suspense is within its delay: held.
        await clock.waitForSleepers(1)
        gates.open("inner")
        let final = try #require(try await iterator.next())
        let text = try final.node.rendered(as: .plain)
        #expect(text == "outer loaded\ninner loaded")
        #expect(try await iterator.next() == nil)
    }

    @Test func aFallbackOnceShownStaysForItsMinimumDuration() async throws {
        let clock = TestClock()
        let gates = Gates()
        struct Minimum: Component {
            let gates: Gates
            var body: some Component {
                Suspense(minimumFallbackDuration: .milliseconds(500)) {
                    try Gated("a", gates: gates)
                } fallback: {
                    Text("a loading")
                }
            }
        }
        let frames = liveFrames(Minimum(gates: gates), options: options(clock))
        var iterator = frames.makeAsyncIterator()
        let shell = try #require(try await iterator.next())
        #expect(try shell.node.rendered(as: .plain) == "a loading")
        gates.open("a")
        // The value arrived; the fallback is held: a recheck sleeps on the clock.
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(499))
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .milliseconds(1))
        let loaded = try #require(try await iterator.next())
        #expect(try loaded.node.rendered(as: .plain) == "a loaded")
        #expect(try await iterator.next() == nil)
    }

    @Test func aWholeRenderDoesNotWaitForFallbackTiming() async throws {
        let clock = TestClock()
        let gates = Gates()
        gates.open("a")
        struct Both: Component {
            let gates: Gates
            var body: some Component {
                Suspense(fallbackDelay: .seconds(60), minimumFallbackDuration: .seconds(3600)) {
                    try Gated("a", gates: gates)
                } fallback: {
                    Text("a loading")
                }
            }
        }
        // The clock never moves: only a render that ignores fallback timing can return.
        #expect(try await render(Both(gates: gates), as: .plain, options: options(clock)) == "a loaded")
    }

    @Test func theDeadlineShowsContentThatTimingHeldBack() async throws {
        let clock = TestClock()
        let gates = Gates()
        struct Held: Component {
            let gates: Gates
            var body: some Component {
                Suspense(minimumFallbackDuration: .seconds(10)) {
                    try Gated("a", gates: gates)
                } fallback: {
                    Text("a loading")
                }
            }
        }
        let frames = liveFrames(Held(gates: gates), options: options(clock, deadline: .seconds(1)))
        var iterator = frames.makeAsyncIterator()
        _ = try #require(try await iterator.next())
        gates.open("a")
        await clock.waitForSleepers(2)  // the deadline and the recheck
        clock.advance(by: .seconds(1))
        let last = try #require(try await iterator.next())
        #expect(try last.node.rendered(as: .plain) == "a loaded")
        #expect(try await iterator.next() == nil)
    }
}
