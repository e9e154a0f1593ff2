import SuspenseKit
import SuspenseTesting
import Testing

// The components of Examples/UserProfile and of the Dashboard's task list, as written there
// (the examples are executables, so they cannot be imported). Their queries never run here:
// every test fixes the outcome, so no test waits on the network or sleeps.

struct User: Sendable {
    let name: String
}

struct UserNotFound: Error, CustomStringConvertible {
    var description: String { "no such user" }
}

@Sendable func getUser() async throws -> User {
    try await Task.sleep(for: .milliseconds(300))
    return User(name: "Ann")
}

struct UserComponent: Component {
    let user: User

    init(user: User?) throws {
        self.user = try resolveValue(user) { try await getUser() }
    }

    var body: some Component {
        Element("p") { Text("Hi, my name is \(user.name).") }
    }
}

struct ContentView: Component {
    var body: some Component {
        ErrorBoundary {
            Suspense { (user: User?) in
                try UserComponent(user: user)
            }
        }
    }
}

struct TasksCard: Component {
    let tasks: [String]

    init() throws {
        tasks = try resolveValue(key: "tasks") { try await fetchTasks() }
    }

    var body: some Component {
        Element("section", attributes: ["class": "card"]) {
            Element("h2") { Text("Tasks") }
            Element("ul") {
                ForEach(tasks) { task in
                    Element("li") { Text(task) }
                } empty: {
                    Element("li", attributes: ["class": "empty"]) { Text("No open tasks.") }
                }
            }
        }
    }
}

@Sendable func fetchTasks() async throws -> [String] {
    try await Task.sleep(for: .milliseconds(40))
    return []
}

/// The four states of a page that loads: loading, loaded, failed and empty.
@Suite struct UserProfileSnapshotTests {
    // The article's keyless `Promise<User>` is addressed by its label in `.tree`.
    @Test func loading() async {
        await assertSnapshot(of: ContentView(), as: .tree, outcomes: ["Promise<User>": .pending])
    }

    @Test func loaded() async {
        let outcomes: QueryOutcomes = ["Promise<User>": .value(User(name: "Ann"))]
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
