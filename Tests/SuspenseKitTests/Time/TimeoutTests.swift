import SuspenseTesting
import Testing

@testable import SuspenseKit

/// `Suspense(timeout:)`, on a test clock: nothing here sleeps for real.
@Suite(.timeLimit(.minutes(3)))
struct TimeoutTests {
    struct Page: Component {
        let hang: Hang
        var body: some Component {
            ErrorBoundary {
                Suspense(timeout: .seconds(2)) {
                    try Hanging("slow", hang: hang)
                } fallback: {
                    Text("Loading…")
                }
            } fallback: { error in
                Text("failed: \(error)")
            }
        }
    }

    @Test func aSuspenseStillWaitingPastItsTimeoutGivesTheErrorBoundaryATimeoutError() async throws {
        let clock = TestClock()
        let hang = Hang()
        async let output = render(Page(hang: hang), as: .plain, options: options(clock))
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(2))
        #expect(
            try await output == "failed: Page > ErrorBoundary > Suspense timed out after 2.0 seconds waiting on slow")
        #expect(hang.runs.value == 1)
        #expect(hang.cancellations.value == 1)
        #expect(clock.sleeperCount == 0)
    }

    @Test func theTimeoutDoesNotFireBeforeItsTime() async throws {
        let clock = TestClock()
        let gates = Gates()
        struct GatedPage: Component {
            let gates: Gates
            var body: some Component {
                ErrorBoundary {
                    Suspense(timeout: .seconds(2)) {
                        try Gated("a", gates: gates)
                    } fallback: {
                        Text("Loading…")
                    }
                } fallback: { error in
                    Text("failed: \(error)")
                }
            }
        }
        async let output = render(GatedPage(gates: gates), as: .plain, options: options(clock))
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(1999))
        #expect(clock.sleeperCount == 1)
        gates.open("a")
        #expect(try await output == "a loaded")
        // The timer of a boundary that resolved was cancelled with the render.
        #expect(clock.sleeperCount == 0)
    }

    @Test func onlyTheQueriesOnlyTheTimedOutBoundaryWaitsOnAreCancelled() async throws {
        let clock = TestClock()
        let gates = Gates()
        let hang = Hang()
        struct Shared: Component {
            let gates: Gates
            let hang: Hang
            var body: some Component {
                Suspense {
                    try Gated("shared", gates: gates)
                } fallback: {
                    Text("outer loading")
                }
                ErrorBoundary {
                    Suspense(timeout: .seconds(1)) {
                        try Gated("shared", gates: gates)
                        try Hanging("slow", hang: hang)
                    } fallback: {
                        Text("inner loading")
                    }
                } fallback: { error in
                    Text("inner failed after \((error as? TimeoutError)?.duration ?? .zero)")
                }
            }
        }
        async let output = render(Shared(gates: gates, hang: hang), as: .plain, options: options(clock))
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        try await waitUntil("the slow query cancelled") { hang.cancellations.value == 1 }
        // "shared" still runs for the boundary outside: its gate opens after the timeout.
        #expect(gates.cancellations.value == 0)
        gates.open("shared")
        #expect(try await output == "shared loaded\ninner failed after 1.0 seconds")
        #expect(gates.runs.value == 1)
    }

    @Test func aTimeoutWithNoErrorBoundaryAboveFailsTheRender() async throws {
        let clock = TestClock()
        let hang = Hang()
        struct Bare: Component {
            let hang: Hang
            var body: some Component {
                Suspense(timeout: .milliseconds(500)) { try Hanging("k", hang: hang) }
            }
        }
        async let output = render(Bare(hang: hang), as: .tree, options: options(clock))
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        do {
            _ = try await output
            Issue.record("expected a RenderError")
        } catch let error as RenderError {
            #expect(error.path == ["Bare", "Suspense"])
            let timeout = try #require(error.underlying as? TimeoutError)
            #expect(
                timeout
                    == TimeoutError(path: ["Bare", "Suspense"], duration: .milliseconds(500), pendingQueries: ["k"]))
        }
        #expect(hang.cancellations.value == 1)
    }

    @Test func aKeyPendingForeverTimesOutToo() async throws {
        let clock = TestClock()
        let cache = QueryCache()
        cache.stub(.pending, for: "slow")
        async let output = render(Page(hang: Hang()), as: .plain, cache: cache, options: options(clock))
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(2))
        #expect(
            try await output == "failed: Page > ErrorBoundary > Suspense timed out after 2.0 seconds waiting on slow")
    }

    @Test func aTimerArmedAfterTheClockMovedFiresFromTheMomentTheBoundaryWentPending() async throws {
        // The clock moved before the render began: the boundary's timeout counts from when it
        // showed its fallback, so one more advance of the timeout fires it, no less.
        let clock = TestClock()
        clock.advance(by: .seconds(10))
        let hang = Hang()
        async let output = render(Page(hang: hang), as: .plain, options: options(clock))
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .seconds(1))
        #expect(try await output.hasPrefix("failed:"))
    }

    @Test func framesShowTheFallbackThenTheTimeoutsError() async throws {
        let clock = TestClock()
        let frames = liveFrames(Page(hang: Hang()), options: options(clock))
        var iterator = frames.makeAsyncIterator()
        let shell = try #require(try await iterator.next())
        #expect(try shell.node.rendered(as: .plain) == "Loading…")
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(2))
        let failed = try #require(try await iterator.next())
        guard case .timeout(let id) = failed.cause else {
            Issue.record("the frame's cause is \(failed.cause), not a timeout")
            return
        }
        #expect(id.positions == [0, 0])
        #expect(failed.cause.description == "timeout of Suspense #0.0")
        #expect(
            try failed.node.rendered(as: .tree).contains(
                "ErrorBoundary #0 [caught: Page > ErrorBoundary > Suspense timed out"))
        #expect(try await iterator.next() == nil)
    }

    @Test func aSuspenseThatGoesBackToPendingStartsAFreshTimeout() async throws {
        // A typed Suspense resolved with a value whose content suspends again on a key that hangs.
        let clock = TestClock()
        let hang = Hang()
        struct Again: Component {
            let hang: Hang
            var body: some Component {
                ErrorBoundary {
                    Suspense(timeout: .seconds(1)) { (value: Int?) in
                        if let value {
                            try Hanging("after \(value)", hang: hang)
                        } else {
                            try Keyless()
                        }
                    } fallback: {
                        Text("Loading…")
                    }
                } fallback: { error in
                    Text("\(error)")
                }
            }
        }
        struct Keyless: Component {
            init() throws { throw Promise<Int>.pending { 7 } }
            var body: some Component { Text("never") }
        }
        async let output = render(Again(hang: hang), as: .plain, options: options(clock))
        try await waitUntil("the second query started") { hang.runs.value == 1 }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        #expect(try await output == "Again > ErrorBoundary > Suspense timed out after 1.0 seconds waiting on after 7")
    }

    /// Two boundaries timing out at 2 s and 1 s (written in that order), and two at 1 s: one
    /// `advance` past all of them times them out earliest first, those due together in the order
    /// their timers were armed (document order), on every run, whichever timer task wakes first.
    @Test func timeoutsDueInOneAdvanceFireInTheOrderTheyAreDue() async throws {
        struct Timed: Component {
            let timeouts: [Int]
            let hang: Hang
            var body: some Component {
                ForEach(Array(timeouts.enumerated()), id: \.offset) { index, seconds in
                    ErrorBoundary {
                        Suspense(timeout: .seconds(seconds)) {
                            try Hanging("slow \(index)", hang: hang)
                        } fallback: {
                            Text("…")
                        }
                    } fallback: { _ in
                        Text("[\(index)]")
                    }
                }
            }
        }
        // Elements numbered by their id (`id: \.offset`): `[1]` is the second element's.
        let cases = [([2, 1], ["0.[1].0", "0.[0].0"]), ([1, 1, 1], ["0.[0].0", "0.[1].0", "0.[2].0"])]
        for (timeouts, expected) in cases {
            for _ in 0..<50 {
                let clock = TestClock()
                let caught = Log()
                let page = Timed(timeouts: timeouts, hang: Hang())
                let options = options(clock).onCaughtError { failure in
                    caught.append(failure.boundary.description)
                }
                async let output = render(page, as: .plain, options: options)
                await clock.waitForSleepers(timeouts.count)
                clock.advance(by: .seconds(3))
                _ = try await output
                #expect(caught.all == expected)
            }
        }
    }
}
