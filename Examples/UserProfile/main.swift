// The example of the swiftui-suspense article, rendered as plain text: an ErrorBoundary around
// a Suspense around a user component whose initializer throws until its query has resolved.
import SuspenseKit

struct User: Sendable {
    let name: String
}

/// Simulates a network request.
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

do {
    // On a terminal, the fallback shows first and is redrawn in place; piped, only the result.
    try await LiveTerminal(format: .plain).render(ContentView())
} catch {
    print("error: \(error)")
}
