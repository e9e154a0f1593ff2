import SuspenseKit
import Testing

@testable import SuspenseTesting

/// A root that reads data, given straight to `assertSnapshot` and `assertRender`: it is made
/// inside the render, so it suspends on its stubbed query as a child would.
@Suite(.snapshots) struct RootSnapshotTests {
    let ann: FixedOutcomes = ["member/1": .value(Member(name: "Ann"))]

    @Test func aRootThatReadsDataIsSnapshotted() async throws {
        await assertSnapshot(of: try MemberCard(id: 1), as: .tree, outcomes: ann)
        await assertSnapshot(of: try MemberCard(id: 1), as: .html, outcomes: ann)
    }

    @Test func aRootThatReadsDataIsComparedInlineInEveryFormat() async throws {
        await assertRender(of: try MemberCard(id: 1), as: .plain, outcomes: ann, matches: "Hi, I am Ann.")
        await assertRender(
            of: try MemberCard(id: 1), as: .frames(.plain), outcomes: ann,
            matches: """
                ── frame 1: initial ──
                Hi, I am Ann.
                """)
        await assertRender(
            of: try MemberCard(id: 1), as: .stream, outcomes: ann,
            matches: """
                ── chunk 1 ──
                <p class="member">Hi, I am Ann.</p>
                """)
    }

    @Test func aRootThatFailsToLoadIsReportedAsARenderFailure() async throws {
        let message = await verifyRender(
            of: try MemberCard(id: 1), as: .plain, outcomes: ["member/1": .failure(NotFound(key: "member/1"))],
            matches: "Hi, I am Ann.")
        #expect(message == "Could not render: uncaught error in MemberCard: member/1 was not found")
    }
}
