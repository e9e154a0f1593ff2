import SuspenseKit
import SuspenseTesting
import Testing

@testable import DashboardPage
@testable import UserProfile

// The examples' own components, imported from their executables: `ContentView` and
// `UserComponent` from Examples/UserProfile, `TasksCard` from Examples/DashboardPage. Their queries
// never run here: every test fixes the outcome, so no test waits on the network or sleeps.

struct UserNotFound: Error, CustomStringConvertible {
    var description: String { "no such user" }
}

/// The four states of a page that loads: loading, loaded, failed and empty.
@Suite(.snapshots) struct UserProfileSnapshotTests {
    // The article's keyless `Promise<User>` is addressed by its label in `.tree`.
    @Test func loading() async {
        await assertSnapshot(of: ContentView(), as: .tree, outcomes: ["Promise<User>": .pending])
    }

    @Test func loaded() async {
        let outcomes: FixedOutcomes = ["Promise<User>": .value(User(name: "Ann"))]
        await assertSnapshot(of: ContentView(), as: .frames, outcomes: outcomes)
        await assertSnapshot(of: ContentView(), as: .html, outcomes: outcomes)
    }

    @Test func failed() async {
        await assertSnapshot(of: ContentView(), as: .tree, outcomes: ["Promise<User>": .failure(UserNotFound())])
    }

    @Test func emptyTaskList() async {
        let card = Suspense {
            try TasksCard()
        } fallback: {
            Text("Loading tasks…")
        }
        await assertSnapshot(of: card, as: .html(pretty: true), outcomes: ["tasks": .value([String]())])
    }
}
