import SuspenseKit
import Testing

@testable import SuspenseTesting

@Suite struct AssertRenderTests {
    let card = Suspense {
        try MemberCard(id: 1)
    } fallback: {
        Text("Loading…")
    }

    @Test func matchingRenderPasses() async {
        await assertRender(
            of: card,
            as: .tree,
            outcomes: ["member/1": .value(Member(name: "Ann"))],
            matches: """
                Suspense #0 [resolved]
                └─ MemberCard
                   └─ <p class="member">
                      └─ "Hi, I am Ann."
                """
        )
    }

    @Test func framesCanBeComparedInline() async {
        await assertRender(
            of: card,
            as: .frames(.plain),
            outcomes: ["member/1": .value(Member(name: "Ann"))],
            matches: """
                ── frame 1: initial ──
                Loading…
                ── frame 2: after member/1 ──
                Hi, I am Ann.
                """
        )
    }

    @Test func theRenderRunsOnTheGivenClock() async {
        // The member never answers: past its one-second timeout on the test clock, the
        // ErrorBoundary shows. Nothing sleeps for real.
        let clock = TestClock()
        let page = ErrorBoundary {
            Suspense(timeout: .seconds(1)) {
                try MemberCard(id: 1)
            } fallback: {
                Text("Loading…")
            }
        } fallback: { _ in
            Text("Too slow.")
        }
        async let rendered: Void = assertRender(
            of: page,
            as: .frames(.plain),
            outcomes: ["member/1": .pending],
            clock: clock,
            matches: """
                ── frame 1: initial ──
                Loading…
                ── frame 2: after timeout of Suspense #0.0 ──
                Too slow.
                """
        )
        #expect(await clock.waitForSleepers(1))
        clock.advance(by: .seconds(1))
        await rendered
    }

    @Test func mismatchGivesTheLineDiff() async throws {
        let message = try #require(
            await verifyRender(of: card, as: .plain, outcomes: ["member/1": .pending], matches: "Hi, I am Ann.")
        )
        #expect(
            message == """
                Rendering does not match the expected text
                (- expected, + actual)
                @@ -1,1 +1,1 @@
                -Hi, I am Ann.
                +Loading…
                """)
    }

    @Test func mismatchIsReportedAtTheCallSite() async {
        let line = #line + 2
        await withKnownIssue {
            await assertRender(of: Text("actual"), as: .plain, matches: "expected")
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("-expected\n+actual")
                && issue.sourceLocation?.line == line
        }
    }
}
