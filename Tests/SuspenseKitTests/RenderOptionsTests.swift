import SuspenseTesting
import Testing

@testable import SuspenseKit

/// `RenderOptions`' hooks, set with methods: a trailing closure can never become the wrong hook.
@Suite(.timeLimit(.minutes(3)))
struct RenderOptionsTests {
    struct SlowPage: Component {
        let hang: Hang
        var body: some Component {
            Element("main") {
                Suspense {
                    try Hanging("slow", hang: hang)
                } fallback: {
                    Text("slow loading")
                }
            }
        }
    }

    /// The documented spelling (the Time article), `RenderOptions(deadline:).onDeadline { … }`, on a test clock.
    @Test func theDeadlineHookFiresWhenTheDeadlinePasses() async throws {
        let clock = TestClock()
        let hang = Hang()
        let cutOffs = Locked<[[TimeoutError]]>([])
        let options = RenderOptions(clock: clock, deadline: .seconds(1)).onDeadline { cutOff in
            cutOffs.withLock { $0.append(cutOff) }
        }
        async let output = render(SlowPage(hang: hang), as: .html, options: options)
        await clock.waitForSleepers(1)  // the deadline's timer
        clock.advance(by: .seconds(1))
        #expect(try await output == "<main>slow loading</main>")
        #expect(
            cutOffs.withLock { $0 }
                == [[TimeoutError(path: ["SlowPage", "Suspense"], duration: .seconds(1), pendingQueries: ["slow"])]])
    }

    @Test func eachHookMethodSetsItsOwnHookOnACopy() {
        let plain = RenderOptions(deadline: .seconds(1))
        let withDeadline = plain.onDeadline { _ in }
        #expect(plain.onDeadline == nil)
        #expect(withDeadline.onDeadline != nil)
        #expect(withDeadline.onCaughtError == nil && withDeadline.onUncaughtError == nil)
        #expect(withDeadline.deadline == .seconds(1))
        let all = withDeadline.onCaughtError { _ in }.onUncaughtError { _ in }
        #expect(all.onDeadline != nil && all.onCaughtError != nil && all.onUncaughtError != nil)
    }

    @Test func aLaterHookReplacesTheOneSetBefore() async throws {
        let calls = Log()
        let options = RenderOptions()
            .onUncaughtError { _ in calls.append("first") }
            .onUncaughtError { _ in calls.append("second") }
        _ = try? await render(Throwing(TestFailure("boom")), options: options)
        #expect(calls.all == ["second"])
    }

    @Test func theHookPropertiesStaySettable() async throws {
        let calls = Log()
        var options = RenderOptions()
        options.onCaughtError = { calls.append("caught \($0.error)") }
        let page = ErrorBoundary {
            try Throwing(TestFailure("boom"))
        } fallback: { _ in
            Text("fallback")
        }
        #expect(try await render(page, as: .plain, options: options) == "fallback")
        #expect(calls.all == ["caught boom"])
    }
}
