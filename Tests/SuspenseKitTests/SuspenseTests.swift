import Testing

@testable import SuspenseKit

private struct User: Sendable, Equatable {
    let name: String
}

private struct UserCard: Component {
    let user: User
    init(id: Int, evaluations: Counter? = nil) throws {
        evaluations?.increment()
        user = try resolveValue(key: "user/\(id)") {
            await Task.yield()
            return User(name: "User \(id)")
        }
    }
    var body: some Component {
        Element("p") { Text("Hi, my name is \(user.name).") }
    }
}

/// The article's component: throws a keyless promise until it is given a user.
private struct UserComponent: Component {
    let user: User
    init(user: User?, log: Log? = nil) throws {
        log?.append(user.map { "init(\($0.name))" } ?? "init(nil)")
        self.user = try resolveValue(user) {
            await Task.yield()
            return User(name: "Ann")
        }
    }
    var body: some Component { Text("Hi, my name is \(user.name).") }
}

private struct ChangingKey: Component {
    init(counter: Counter) throws {
        let attempt = counter.increment()
        let _: Int = try resolveValue(key: "changing/\(attempt)") {
            await Task.yield()  // suspends: an instant answer would not suspend at all
            return attempt
        }
    }
    var body: some Component { Text("never") }
}

private struct SuspendsInBody: Component {
    var body: some Component {
        get throws {
            let name: String = try resolveValue(key: "body/name") { "from body" }
            return Text(name)
        }
    }
}

@Suite struct SuspenseTests {
    @Test func showsContentOnceEverythingBeneathItResolved() async throws {
        let page = Suspense {
            try UserCard(id: 1)
            try UserCard(id: 2)
        } fallback: {
            Text("Loading…")
        }
        #expect(
            try await tree(page) == """
                Suspense #0 [resolved]
                ├─ UserCard
                │  └─ <p>
                │     └─ "Hi, my name is User 1."
                └─ UserCard
                   └─ <p>
                      └─ "Hi, my name is User 2."
                """)
    }

    @Test func firstFrameShowsTheFallbackWithThePendingKeys() async throws {
        let page = Suspense {
            try UserCard(id: 1)
            Text("static")
            try UserCard(id: 2)
        } fallback: {
            Text("Loading…")
        }
        let frames = try await resolveFrames(page)
        #expect(frames.first?.cause == .shell)
        #expect(
            try frames.first?.node.rendered(as: .tree) == """
                Suspense #0 [pending: user/1, user/2]
                └─ "Loading…"
                """)
        #expect(
            try frames.last?.node.rendered(as: .html)
                == "<p>Hi, my name is User 1.</p>static<p>Hi, my name is User 2.</p>")
    }

    @Test func aPendingPromiseWithNoSuspenseAboveItSuspendsTheRoot() async throws {
        let page = Element("div") { try UserCard(id: 7) }
        #expect(try await html(page) == "<div><p>Hi, my name is User 7.</p></div>")
    }

    @Test func nestedBoundariesResolveOnTheirOwnAndOnlyWaitingComponentsAreReevaluated() async throws {
        // The inner query waits until the outer one has been applied, so a frame must show the
        // outer boundary resolved while the inner one still shows its fallback.
        let outerEvaluations = Counter()
        let innerEvaluations = Counter()
        struct Outer: Component {
            init(evaluations: Counter) throws {
                evaluations.increment()
                let _: String = try resolveValue(key: "outer") {
                    await Task.yield()
                    return "outer"
                }
            }
            var body: some Component { Text("outer content") }
        }
        struct Inner: Component {
            init(evaluations: Counter, outerEvaluations: Counter) throws {
                evaluations.increment()
                let _: String = try resolveValue(key: "inner") {
                    try await waitUntil("outer component re-evaluated") { outerEvaluations.value == 2 }
                    return "inner"
                }
            }
            var body: some Component { Text("inner content") }
        }
        let page = Suspense {
            try Outer(evaluations: outerEvaluations)
            Suspense {
                try Inner(evaluations: innerEvaluations, outerEvaluations: outerEvaluations)
            } fallback: {
                Text("inner loading")
            }
        } fallback: {
            Text("outer loading")
        }
        let frames = try await resolveFrames(page, options: RenderOptions(deliveryOrder: .completion))
        #expect(frames.map(\.cause) == [.shell, .query("outer"), .query("inner")])
        #expect(
            try frames.map { try $0.node.rendered(as: .tree) } == [
                """
                Suspense #0 [pending: outer]
                └─ "outer loading"
                """,
                """
                Suspense #0 [resolved]
                ├─ Outer
                │  └─ "outer content"
                └─ Suspense #0.1 [pending: inner]
                   └─ "inner loading"
                """,
                """
                Suspense #0 [resolved]
                ├─ Outer
                │  └─ "outer content"
                └─ Suspense #0.1 [resolved]
                   └─ Inner
                      └─ "inner content"
                """,
            ])
        // Resolving the outer query re-evaluated only the component waiting on it.
        #expect(outerEvaluations.value == 2)
        #expect(innerEvaluations.value == 2)
    }

    @Test func theTypedFormIsCalledWithNilFirstThenWithTheValue() async throws {
        let log = Log()
        let page = Suspense { (user: User?) in
            try UserComponent(user: user, log: log)
        }
        let frames = try await resolveFrames(page)
        #expect(try frames.map { try $0.node.rendered(as: .plain) } == ["Loading…", "Hi, my name is Ann."])
        #expect(frames.map(\.cause) == [.shell, .query("Promise<User>")])
        #expect(log.all == ["init(nil)", "init(Ann)"])
    }

    @Test func aKeylessPromiseWithoutATypedSuspenseIsAClearError() async throws {
        let error = try await renderError(Suspense { try UserComponent(user: nil) })
        #expect(error.path == ["Suspense", "UserComponent"])
        #expect(
            error.underlying as? SuspenseError
                == .keylessPromise(component: "UserComponent", valueType: "Promise<User>"))
        #expect("\(error)".contains("use resolveValue(key:query:)"))
    }

    @Test func aComponentWhoseKeyChangesOnEveryEvaluationFailsAfterABoundedNumberOfTries() async throws {
        let counter = Counter()
        let page = ErrorBoundary {
            Suspense { try ChangingKey(counter: counter) }
        } fallback: { error in
            Text("failed: \(error)")
        }
        let options = RenderOptions(maxResuspensions: 5)
        let output = try await render(page, as: .plain, options: options)
        #expect(output.hasPrefix("failed: ChangingKey suspended again after its queries resolved, 6 times"))
        #expect(counter.value == 7)
    }

    @Test func aComponentMaySuspendInItsBody() async throws {
        #expect(
            try await tree(Suspense { SuspendsInBody() }) == """
                Suspense #0 [resolved]
                └─ SuspendsInBody
                   └─ "from body"
                """)
    }

    @Test func aSuspenseWhoseContentDoesNotSuspendNeverEvaluatesItsFallback() async throws {
        let log = Log()
        let page = Suspense {
            Text("ready")
        } fallback: {
            let _ = log.append("fallback")
            Text("Loading…")
        }
        #expect(try await html(page) == "ready")
        #expect(log.all.isEmpty)
    }

    @Test func theClosureFormCatchesWhatAnInitializerThrowsAtItsOwnBoundary() async throws {
        // What `.suspense { }` on `try UserCard(id: 3)` could not do (the modifiers are
        // unavailable): the inner boundary waits, the outer one shows its content meanwhile.
        let page = Suspense {
            Text("outer content")
            Suspense {
                try UserCard(id: 3)
            } fallback: {
                Text("inner loading")
            }
        } fallback: {
            Text("outer loading")
        }
        let frames = try await resolveFrames(page)
        #expect(
            try frames.map { try $0.node.rendered(as: .tree) } == [
                """
                Suspense #0 [resolved]
                ├─ "outer content"
                └─ Suspense #0.1 [pending: user/3]
                   └─ "inner loading"
                """,
                """
                Suspense #0 [resolved]
                ├─ "outer content"
                └─ Suspense #0.1 [resolved]
                   └─ UserCard
                      └─ <p>
                         └─ "Hi, my name is User 3."
                """,
            ])
    }

    @Test func everyComponentSuspendingAtEveryLevelStillResolves() async throws {
        let page = Suspense {
            try Level(depth: 0, index: 0)
        } fallback: {
            Text("loading 0")
        }
        let frames = try await resolveFrames(page)
        #expect(
            try frames.first?.node.rendered(as: .tree) == """
                Suspense #0 [pending: level/0/0]
                └─ "loading 0"
                """)
        #expect(
            try frames.last?.node.rendered(as: .html) == """
                <div>0.0<div>1.0<div>2.0</div><div>2.1</div></div><div>1.1<div>2.0</div><div>2.1</div></div></div>
                """)
        // Each level's boundary appears exactly once pending on that level's queries, in order.
        #expect(
            frames.map(\.cause) == [
                .shell, .query("level/0/0"), .query("level/1/0"), .query("level/1/1"), .query("level/2/0"),
                .query("level/2/1"),
            ])
        #expect(
            try frames[1].node.rendered(as: .tree) == """
                Suspense #0 [resolved]
                └─ Level
                   └─ <div>
                      ├─ "0.0"
                      └─ Suspense #0.0.0.1 [pending: level/1/0, level/1/1]
                         └─ "loading 1"
                """)
    }
}

/// A tree in which every component suspends, at every level, each under its own Suspense.
private struct Level: Component {
    let depth: Int
    let index: Int
    let label: String
    init(depth: Int, index: Int) throws {
        self.depth = depth
        self.index = index
        label = try resolveValue(key: "level/\(depth)/\(index)") {
            await Task.yield()  // suspends: each level shows its fallback first
            return "\(depth).\(index)"
        }
    }
    var body: some Component {
        Element("div") {
            Text(label)
            if depth < 2 {
                Suspense {
                    try Level(depth: depth + 1, index: 0)
                    try Level(depth: depth + 1, index: 1)
                } fallback: {
                    Text("loading \(depth + 1)")
                }
            }
        }
    }
}
