import SuspenseKit
import SuspenseTesting
import Testing

@testable import DashboardPage

/// The dashboard with its cards in a `SuspenseList`, pinned with every outcome fixed: the cards
/// show in the list's order whatever order their data arrives in, each placeholder only when its
/// card is next (a collapsed tail), and the alerts card's error counts as settled.
@Suite(.snapshots) struct DashboardRevealSnapshotTests {
    @Test func cardsRevealFromTheLastOneBackwards() async {
        await assertSnapshot(
            of: Dashboard(reveal: .backwards), as: .frames(.plain), outcomes: StreamSnapshotTests.dashboardOutcomes)
    }

    @Test func cardsRevealTopToBottomInTheStream() async {
        await assertSnapshot(
            of: DashboardDocument(reveal: .forwards), as: .stream, outcomes: StreamSnapshotTests.dashboardOutcomes)
    }
}
