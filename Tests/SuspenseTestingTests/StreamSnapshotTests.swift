import SuspenseKit
import SuspenseTesting
import Testing

@testable import DashboardPage
@testable import UserProfile

/// The examples' streams, pinned: every outcome fixed, so each fallback is sent first and the
/// boundaries follow in the order their queries were discovered.
@Suite(.snapshots) struct StreamSnapshotTests {
    static let dashboardOutcomes: FixedOutcomes = [
        "metric/Visitors": .value(Metric(label: "Visitors", value: 1204)),
        "metric/Signups": .value(Metric(label: "Signups", value: 37)),
        "alerts": .failure(ServiceUnavailable(service: "the alerting service")),
        "tasks": .value([String]()),
        "post/latest": .value(Metric(label: "Release notes", value: 3)),
        "comments/Release notes": .value(["Looks good to me.", "Ship it & see <what> happens!"]),
    ]

    @Test func dashboardDocumentStreamsOutOfOrder() async {
        await assertSnapshot(of: DashboardDocument(), as: .stream, outcomes: Self.dashboardOutcomes)
    }

    @Test func dashboardDocumentStreamsInOrder() async {
        await assertSnapshot(of: DashboardDocument(), as: .stream(order: .inOrder), outcomes: Self.dashboardOutcomes)
    }

    @Test func userProfileStreams() async {
        await assertSnapshot(
            of: ContentView(), as: .stream, outcomes: ["Promise<User>": .value(User(name: "Ann"))])
    }
}
