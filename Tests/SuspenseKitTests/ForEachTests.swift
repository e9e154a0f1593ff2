import Testing

@testable import SuspenseKit

/// `ForEach` as SwiftUI users write it: with `id:`, with `empty:`, over any collection.
struct ForEachTests {
    struct User: Identifiable {
        let id: Int
        let name: String
    }

    static let users = [User(id: 7, name: "Ann"), User(id: 3, name: "Bo")]

    struct UserList: Component {
        let users: [User]
        var body: some Component {
            Element("ul") {
                ForEach(users, id: \.id) { user in
                    Element("li", attributes: ["data-id": "\(user.id)"]) { Text(user.name) }
                }
            }
        }
    }

    @Test func forEachWithAnIDShowsEveryElementInOrder() async throws {
        #expect(
            try await html(UserList(users: Self.users))
                == #"<ul><li data-id="7">Ann</li><li data-id="3">Bo</li></ul>"#)
    }

    @Test func forEachWithAnIDAndAnEmptyStateShowsItWhenEmpty() async throws {
        func list(_ users: [User]) -> some Component {
            ForEach(users, id: \.name) { user in
                Text(user.name)
            } empty: {
                Text("No users yet.")
            }
        }
        #expect(try await render(list(Self.users), as: .plain) == "AnnBo")
        #expect(try await render(list([]), as: .plain) == "No users yet.")
    }

    @Test func forEachOverARangeBySelf() async throws {
        let page = ForEach(0..<3, id: \.self) { index in
            Text("\(index)")
        }
        #expect(try await render(page, as: .plain) == "012")
    }

    @Test func identifiableElementsNeedNoID() async throws {
        let page = ForEach(Self.users) { user in
            Text("\(user.id)")
        } empty: {
            Text("none")
        }
        #expect(try await render(page, as: .plain) == "73")
    }

    @Test func elementsWhoseComponentThrowsReachTheErrorBoundary() async throws {
        struct Card: Component {
            let name: String
            init(_ user: User) throws {
                guard user.id != 3 else { throw TestFailure("no card for \(user.name)") }
                name = user.name
            }
            var body: some Component { Text(name) }
        }
        let page = ErrorBoundary {
            ForEach(Self.users, id: \.id) { user in
                try Card(user)
            }
        } fallback: { error in
            Text("caught: \(error)")
        }
        #expect(try await render(page, as: .plain) == "caught: no card for Bo")
    }
}
