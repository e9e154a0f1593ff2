import SuspenseKit
import Testing

// Written as a user writes: main-actor components that read main-actor state, no `try` before a
// container, `ForEach(_:id:)`, throwing children inside elements. It must compile without a
// warning (CI builds with warnings visible, and the suite is kept at zero).

@MainActor
private final class Session {
    var userName = "Ann"
    var teams = [Team(id: 1, name: "Core"), Team(id: 2, name: "Docs")]
}

private struct Team: Sendable {
    let id: Int
    let name: String
}

/// A team's member count, loaded by key.
private struct MemberCount: Component {
    let count: Int
    init(team: Team) throws {
        count = try resolveValue(key: "members/\(team.id)") {
            // Really waits: a query started from the main actor may run on past a yield at
            // once, finishing without suspending, and the fallback this test expects is skipped.
            try await Task.sleep(for: .milliseconds(1))
            return team.id * 3
        }
    }
    var body: some Component { Text(" (\(count) members)") }
}

/// Main-actor components: an isolated conformance (`@MainActor Component`), so that `body` reads
/// the session without `await` and the component need not be `Sendable`.
@MainActor
private struct Header: @MainActor Component {
    let session: Session
    var body: some Component {
        Element("h1") { Text("Hello \(session.userName)") }
    }
}

@MainActor
private struct TeamList: @MainActor Component {
    let session: Session
    var body: some Component {
        Element("ul") {
            ForEach(session.teams, id: \.id) { team in
                Element("li") {
                    Text(team.name)
                    try MemberCount(team: team)
                }
            } empty: {
                Element("li") { Text("No teams yet.") }
            }
        }
    }
}

@MainActor
private struct Page: @MainActor Component {
    let session: Session
    var body: some Component {
        Header(session: session)
        Suspense {
            TeamList(session: session)
        } fallback: {
            Text("Loading teams…")
        }
    }
}

@MainActor
@Suite struct UserStyleTests {
    @Test func mainActorComponentsRenderWithoutTryBeforeContainers() async throws {
        let session = Session()
        #expect(
            try await render(Page(session: session), as: .plain)
                == "Hello Ann\n\n- Core (3 members)\n- Docs (6 members)")
        session.teams = []
        #expect(try await render(Page(session: session), as: .plain) == "Hello Ann\n\n- No teams yet.")
    }

    @Test func mainActorComponentsStreamAndFrameToo() async throws {
        let session = Session()
        let frames = try await resolveFrames(Page(session: session))
        #expect(try frames.first?.rendered(as: .plain) == "Hello Ann\nLoading teams…")
        #expect(try frames.last?.rendered(as: .plain) == "Hello Ann\n\n- Core (3 members)\n- Docs (6 members)")
        var chunks: [String] = []
        for try await chunk in try await renderStream(Page(session: session)) { chunks.append(chunk) }
        // The shell, the teams once both counts arrived, the script that removes the markers.
        #expect(chunks.count == 3, "\(chunks)")
        #expect(chunks.first == "<h1>Hello Ann</h1><!--sk:1-->Loading teams…<!--/sk:1-->")
        #expect(chunks.dropFirst().first?.contains("<li>Docs (6 members)</li>") == true)
    }
}
