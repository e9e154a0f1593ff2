import Testing

@testable import SuspenseKit

/// The root given to `render` and its siblings is made inside the render, as a builder child is:
/// a root whose initializer reads data suspends, and one whose initializer throws fails the render
/// with a `RenderError` naming it.
@Suite struct RootComponentTests {
    /// The component of the issue: its initializer reads its user.
    struct UserCard: Component {
        let name: String
        init(id: Int, evaluations: Counter? = nil) throws {
            evaluations?.increment()
            name = try resolveValue(key: "user/\(id)") {
                await Task.yield()
                return id == 1 ? "Ann" : "Bob"
            }
        }
        var body: some Component {
            Element("p") { Text("Hi, my name is \(name).") }
        }
    }

    @Test func aRootThatReadsDataRendersAsATree() async throws {
        #expect(
            try await render(UserCard(id: 1), as: .tree) == """
                UserCard
                └─ <p>
                   └─ "Hi, my name is Ann."
                """)
    }

    @Test func aRootThatReadsDataRendersAsHTML() async throws {
        #expect(try await render(UserCard(id: 1), as: .html) == "<p>Hi, my name is Ann.</p>")
        #expect(try await resolve(UserCard(id: 2)).rendered(as: .plain) == "Hi, my name is Bob.")
    }

    @Test func aRootThatReadsDataStreamsOnceItHasLoaded() async throws {
        let page = try await renderStream(UserCard(id: 1)).collect()
        #expect(page == "<p>Hi, my name is Ann.</p>")
    }

    @Test func aRootThatReadsDataGivesItsFrames() async throws {
        let frames = try await resolveFrames(UserCard(id: 1))
        #expect(try frames.map { try $0.rendered(as: .plain) } == ["Hi, my name is Ann."])
        var live: [String] = []
        for try await frame in liveFrames(try UserCard(id: 2)) {
            live.append(try frame.rendered(as: .plain))
        }
        #expect(live == ["Hi, my name is Bob."])
    }

    @Test func aSuspendedRootIsMadeAgainWhenItsDataArrives() async throws {
        let evaluations = Counter()
        let cache = QueryCache()
        cache.stub(.value("Ann"), for: "user/1")  // a stubbed key always suspends first
        _ = try await render(UserCard(id: 1, evaluations: evaluations), cache: cache)
        #expect(evaluations.value == 2)
        // With its data stored, the root is made once.
        _ = try await render(UserCard(id: 1, evaluations: evaluations), cache: cache)
        #expect(evaluations.value == 3)
    }

    @Test func aRootWhoseInitializerThrowsFailsWithARenderErrorNamingIt() async throws {
        do {
            let output = try await render(Throwing(TestFailure("no such page")), as: .tree)
            Issue.record("expected a RenderError, got \(output)")
        } catch let error as RenderError {
            #expect(error.path == ["Throwing"])
            #expect(error.underlying as? TestFailure == TestFailure("no such page"))
        }
    }

    @Test func aRootWhoseQueryFailsFailsWithARenderErrorNamingIt() async throws {
        do {
            let output = try await render(Failing("user/9", message: "offline"), as: .tree)
            Issue.record("expected a RenderError, got \(output)")
        } catch let error as RenderError {
            #expect(error.path == ["Failing"])
            #expect(error.underlying as? TestFailure == TestFailure("offline"))
        }
    }

    @Test func aStreamWhoseRootThrowsFailsBeforeItsShell() async throws {
        await #expect(throws: RenderError.self) {
            _ = try await renderStream(Throwing(TestFailure("no such page")))
        }
    }

    @Test func anUncaughtRootErrorReachesTheUncaughtErrorHook() async throws {
        let reported = Log()
        var options = RenderOptions()
        options.onUncaughtError = { reported.append($0.path.joined(separator: " > ")) }
        _ = try? await render(Throwing(TestFailure("no such page")), options: options)
        #expect(reported.all == ["Throwing"])
    }
}
