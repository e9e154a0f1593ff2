import SuspenseKit
import Testing

// Written as a user writes: no `try` before `Element`, `Group` or `ForEach`, whatever their
// content throws, and no `@testable` import. This file must compile without warnings.

private struct Member: Sendable {
    let name: String
}

private struct MemberCard: Component {
    let member: Member

    init(_ id: Int, runs: Counter? = nil) throws {
        member = try resolveValue(key: "member/\(id)") {
            runs?.increment()
            await Task.yield()
            return Member(name: "Member \(id)")
        }
    }

    var body: some Component {
        Element("p") { Text(member.name) }
    }
}

private struct Team: Component {
    let ids: [Int]

    var body: some Component {
        Suspense {
            Element("section", attributes: ["class": "team"]) {
                Element("h2") { Text("Team") }
                Group {
                    try MemberCard(1)
                }
                Element("ul") {
                    ForEach(ids, id: \.self) { id in
                        Element("li") { try MemberCard(id) }
                    } empty: {
                        Text("none")
                    }
                }
            }
        } fallback: {
            Text("Loading…")
        }
    }
}

/// A statement of an element's closure that throws: the element keeps what it threw.
private struct Greeting: Component {
    let statements: Counter
    let runs: Counter

    var body: some Component {
        Element("p") {
            let _ = statements.increment()
            let name: String = try resolveValue(key: "greeting/name") {
                runs.increment()
                await Task.yield()
                return "Ann"
            }
            Text("Hi, \(name).")
        }
    }
}

private struct Offline: Error, CustomStringConvertible {
    var description: String { "offline" }
}

private func loadHeadline() throws -> String {
    throw Offline()
}

@Suite struct NoTryContainerTests {
    @Test func containersAroundThrowingChildrenNeedNoTry() async throws {
        let runs = Counter()
        let page = Element("main") { try MemberCard(9, runs: runs) }
        #expect(try await html(page) == "<main><p>Member 9</p></main>")
        #expect(
            try await html(Team(ids: [2, 3]))
                == #"<section class="team"><h2>Team</h2><p>Member 1</p><ul><li><p>Member 2</p></li>"#
                + "<li><p>Member 3</p></li></ul></section>")
        #expect(
            try await html(Team(ids: []))
                == #"<section class="team"><h2>Team</h2><p>Member 1</p><ul>none</ul></section>"#)
        #expect(runs.value == 1)
    }

    @Test func aStatementThatThrowsInAnElementGoesToTheNearestErrorBoundaryWithItsPath() async throws {
        struct Page: Component {
            let log: Log
            var body: some Component {
                ErrorBoundary {
                    Element("section") {
                        ErrorBoundary {
                            Element("h1") {
                                let headline = try loadHeadline()
                                Text(headline)
                            }
                        } fallback: { error in
                            Text("inner caught: \(error)")
                        }
                        .onError { log.append("\($0.boundary) \($0.path.joined(separator: " > "))") }
                        Text(" sibling")
                    }
                } fallback: { error in
                    Text("outer caught: \(error)")
                }
            }
        }
        let log = Log()
        #expect(try await html(Page(log: log)) == "<section>inner caught: offline sibling</section>")
        #expect(log.all == ["0.0.0 Page > ErrorBoundary > ErrorBoundary > Element"])
        // The root itself: a container cannot be made again there, and needs no boundary to fail.
        let uncaught = try await renderError(
            Element("h1") {
                let headline = try loadHeadline()
                Text(headline)
            })
        #expect(uncaught.path == ["Element"])
        #expect(uncaught.underlying is Offline)
    }

    @Test func aPromiseThrownByAnElementsStatementSuspendsItAndItIsMadeAgain() async throws {
        let statements = Counter()
        let runs = Counter()
        let page = ErrorBoundary {
            Suspense {
                Greeting(statements: statements, runs: runs)
                Text("after")
            } fallback: {
                Text("Loading…")
            }
        } fallback: { error in
            Text("caught: \(error)")
        }
        let frames = try await resolveFrames(page)
        #expect(
            try frames.map { try $0.node.rendered(as: .tree) } == [
                """
                ErrorBoundary #0
                └─ Suspense #0.0 [pending: greeting/name]
                   └─ "Loading…"
                """,
                """
                ErrorBoundary #0
                └─ Suspense #0.0 [resolved]
                   ├─ Greeting
                   │  └─ <p>
                   │     └─ "Hi, Ann."
                   └─ "after"
                """,
            ])
        #expect(statements.value == 2)
        #expect(runs.value == 1)
    }

    @Test func groupsAndEmptyForEachesKeepAPromiseToo() async throws {
        let statements = Counter()
        func name(_ key: String) throws -> String {
            statements.increment()
            return try resolveValue(key: key) {
                await Task.yield()
                return key
            }
        }
        let page = Suspense {
            Group {
                let first = try name("group")
                Text(first)
            }
            ForEach([String](), id: \.self) {
                Text($0)
            } empty: {
                let second = try name("empty")
                Text(" " + second)
            }
        }
        #expect(try await html(page) == "group empty")
        #expect(statements.value == 4)
    }

    @Test func anEmptyClosureIsBuiltOnlyForAnEmptyCollection() async throws {
        let statements = Counter()
        let page = ForEach(["a", "b"], id: \.self) {
            Text($0)
        } empty: {
            let _ = statements.increment()
            Text(try loadHeadline())
        }
        #expect(try await html(page) == "ab")
        #expect(statements.value == 0)
    }

    @Test func aKeptFailureArrivingAfterTheQueryReachesTheErrorBoundary() async throws {
        let page = ErrorBoundary {
            Suspense {
                Element("p") {
                    let _: String = try resolveValue(key: "fails") {
                        await Task.yield()
                        throw Offline()
                    }
                }
            } fallback: {
                Text("Loading…")
            }
        } fallback: { error in
            Text("caught: \(error)")
        }
        #expect(try await html(page) == "caught: offline")
    }

    @Test func aBodyThatIsAnElementKeepsWhatItsStatementsThrowAndOnlyTheBodyIsEvaluatedAgain() async throws {
        struct Returned: Component {
            let statements: Counter
            init(statements: Counter, made: Counter) {
                made.increment()
                self.statements = statements
            }
            var body: some Component {
                // `return` leaves the builder out: the element is the body itself.
                return Element("b") {
                    let _ = statements.increment()
                    let value: String = try resolveValue(key: "returned") {
                        await Task.yield()
                        return "loaded"
                    }
                    Text(value)
                }
            }
        }
        let statements = Counter()
        let made = Counter()
        let page = Suspense { Returned(statements: statements, made: made) }
        #expect(
            try await tree(page) == """
                Suspense #0 [resolved]
                └─ Returned
                   └─ <b>
                      └─ "loaded"
                """)
        #expect(statements.value == 2)
        #expect(made.value == 1)
    }

    @Test func eachElementOfAForEachWhoseContentIsAContainerIsMadeAgainOnItsOwn() async throws {
        let statements = Counter()
        let page = Suspense {
            ForEach(["a", "b"], id: \.self) { key in
                // `return` leaves the builder out: each element's component is the group itself.
                return Group {
                    let _ = statements.increment()
                    let value: String = try resolveValue(key: key) {
                        await Task.yield()
                        return key.uppercased()
                    }
                    Text(value)
                }
            }
        }
        let frames = try await resolveFrames(page)
        #expect(try frames.first?.node.rendered(as: .tree) == "Suspense #0 [pending: a, b]\n└─ \"Loading…\"")
        #expect(try frames.last?.node.rendered(as: .html) == "AB")
        #expect(statements.value == 4)
    }

    @Test func anElementMadeOnceAndKeptKeepsItsPromiseAndFailsInsteadOfWaitingForever() async throws {
        // Made outside the builder, the element cannot be made again when its query has run: it
        // suspends again each time, up to the bound, like a component whose key keeps changing.
        let kept = Element("p") {
            let value: String = try resolveValue(key: "kept") {
                await Task.yield()
                return "loaded"
            }
            Text(value)
        }
        let error = try await renderError(Suspense { kept })
        #expect(error.path == ["Suspense", "Element"])
        #expect(
            error.underlying as? SuspenseError
                == .stillSuspending(component: "Element", attempts: 33, lastQuery: "kept"))
    }

    @Test func aGroupMadeAgainReadsTheEnvironmentOfItsPlace() async throws {
        let page = Suspense {
            Group {
                let value: String = try resolveValue(key: "environment") {
                    await Task.yield()
                    return "loaded"
                }
                Text(value)
                Localized()
            }
            .environment(\.greeting, "Bonjour")
        }
        #expect(try await html(page) == "loaded Bonjour")
    }
}

private struct GreetingKey: EnvironmentKey {
    static let defaultValue = "Hello"
}

extension EnvironmentValues {
    fileprivate var greeting: String {
        get { self[GreetingKey.self] }
        set { self[GreetingKey.self] = newValue }
    }
}

private struct Localized: Component {
    @Environment(\.greeting) var greeting
    var body: some Component { Text(" \(greeting)") }
}
