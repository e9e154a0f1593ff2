import SuspenseKit
import Testing

// The README's hero example, compiled and run as written there.
private struct User: Sendable { let name: String }

private enum API {
    static func user(_ id: Int) async throws -> User {
        try await Task.sleep(for: .milliseconds(50))
        return User(name: id == 1 ? "Ann" : "Bob")
    }
}

private struct UserCard: Component {
    let user: User

    init(id: Int) throws {  // suspends until the query has run
        user = try resolveValue(key: "user/\(id)") { try await API.user(id) }
    }

    var body: some Component {
        Element("p") { Text("Hi, my name is \(user.name).") }
    }
}

private struct Page: Component {
    var body: some Component {
        ErrorBoundary {
            Suspense {
                try UserCard(id: 1)  // both queries start at once
                try UserCard(id: 2)
            } fallback: {
                Text("Loading…")
            }
        } fallback: { error in
            Text("Could not load: \(error)")
        }
    }
}

@Suite struct ReadmeTests {
    @Test func theHeroExamplePrintsWhatTheReadmeShows() async throws {
        #expect(
            try await render(Page(), as: .tree) == """
                Page
                └─ ErrorBoundary #0
                   └─ Suspense #0.0 [resolved]
                      ├─ UserCard
                      │  └─ <p>
                      │     └─ "Hi, my name is Ann."
                      └─ UserCard
                         └─ <p>
                            └─ "Hi, my name is Bob."
                """)
    }
}
