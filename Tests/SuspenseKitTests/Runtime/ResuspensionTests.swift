import Testing

@testable import SuspenseKit

/// The semantics runtime v2 fixed: each rule of DESIGN.md that the first runtime broke in some
/// shape, with the shape that broke it.
@Suite struct ResuspensionTests {
    /// The outer Suspense resolves in the first pass; the inner one fails later; the boundary's
    /// fallback then suspends, so the outer Suspense must show its fallback again, then the
    /// fallback's content: never an empty hole.
    @Test func contentSuspendingAgainInAResolvedSuspenseShowsItsFallbackUntilItResolves() async throws {
        let cache = QueryCache()
        cache.stub(.failure(TestFailure("late")), for: "late")
        cache.stub(.value("recovered"), for: "recovery")
        let page = Suspense {
            ErrorBoundary {
                Suspense {
                    try Loaded("late")
                } fallback: {
                    Text("inner…")
                }
            } fallback: { _ in
                try Loaded("recovery")
            }
        } fallback: {
            Text("outer…")
        }
        let frames = try await resolveFrames(page, cache: cache)
        #expect(try frames.map { try $0.node.rendered(as: .plain) } == ["inner…", "outer…", "recovered"])
        #expect(frames.map(\.cause) == [.shell, .query("late"), .query("recovery")])
        #expect(
            try frames.last?.node.rendered(as: .tree) == """
                Suspense #0 [resolved]
                └─ ErrorBoundary #0.0 [caught: late]
                   └─ Loaded
                      └─ "recovered"
                """)
    }

    @Test func theSameInATypedSuspense() async throws {
        let cache = QueryCache()
        cache.stub(.failure(TestFailure("late")), for: "late")
        cache.stub(.value(42), for: "Promise<Int>")
        struct Recovery: Component {
            let value: Int
            init(_ value: Int?) throws { self.value = try resolveValue(value) { 0 } }
            var body: some Component { Text("recovered \(value)") }
        }
        let page = Suspense { (value: Int?) in
            ErrorBoundary {
                Suspense {
                    try Loaded("late")
                } fallback: {
                    Text("inner…")
                }
            } fallback: { _ in
                try Recovery(value)
            }
        } fallback: {
            Text("outer…")
        }
        let frames = try await resolveFrames(page, cache: cache)
        #expect(try frames.map { try $0.node.rendered(as: .plain) }.last == "recovered 42")
        #expect(try frames.map { try $0.node.rendered(as: .plain) }.contains("outer…"))
        #expect(try await render(page, as: .plain, cache: cache) == "recovered 42")
    }

    @Test func aKeylessPromiseReachesTheNearestTypedSuspenseOfItsTypeThroughOthers() async throws {
        struct Name: Component {
            let name: String
            init(_ name: String?) throws {
                self.name = try resolveValue(name) {
                    await Task.yield()
                    return "Ann"
                }
            }
            var body: some Component { Text(name) }
        }
        let page = Suspense { (name: String?) in
            Suspense { (count: Int?) in
                Suspense {
                    try Name(name)
                    Text(" \(count ?? 0)")
                } fallback: {
                    Text("inner…")
                }
            } fallback: {
                Text("typed Int…")
            }
        } fallback: {
            Text("typed String…")
        }
        #expect(try await render(page, as: .plain) == "Ann 0")
    }

    @Test func withoutATypedSuspenseOfItsTypeAKeylessPromiseIsAClearError() async throws {
        struct Orphan: Component {
            init() throws { let _: Double = try resolveValue(nil) { 1 } }
            var body: some Component { Text("never") }
        }
        let page = Suspense { (count: Int?) in
            Suspense { try Orphan() }
        }
        let error = try await renderError(page)
        #expect(
            error.underlying as? SuspenseError == .keylessPromise(component: "Orphan", valueType: "Promise<Double>"))
    }

    @Test func theFirstSuspensionIsNotARe_suspension() async throws {
        let options = RenderOptions(maxResuspensions: 0)
        let typed = Suspense { (value: Int?) in
            Text("\(try resolveValue(value) { 5 })")
        }
        #expect(try await render(typed, as: .plain, options: options) == "5")
        #expect(try await render(Suspense { try Loaded("k") }, as: .plain, options: options) == "k")
    }

    @Test func theTreeFormatEscapesKeysAndListsThemInDocumentOrder() async throws {
        // `b` is found second but its first query finishes first, and both then wait on keys
        // that never resolve: the pending list follows the components' places, not completion.
        struct TwoStep: Component {
            init(_ name: String, milliseconds: Int) throws {
                let _: String = try resolveValue(key: "\(name)1") {
                    try await Task.sleep(for: .milliseconds(milliseconds))
                    return name
                }
                let _: String = try resolveValue(key: "\(name)\n2") { name }
            }
            var body: some Component { Text("never") }
        }
        let cache = QueryCache()
        cache.stub(.pending, for: "a\n2")
        cache.stub(.pending, for: "b\n2")
        let page = Suspense {
            try TwoStep("a", milliseconds: 40)
            try TwoStep("b", milliseconds: 1)
        } fallback: {
            Text("…")
        }
        #expect(
            try await render(page, as: .tree, cache: cache)
                == "Suspense #0 [pending: a\\n2, b\\n2]\n└─ \"…\"")
    }

    @Test func aCancelledRenderThrowsCancellationError() async throws {
        let started = Counter()
        struct Endless: Component {
            init(started: Counter) throws {
                let _: Int = try resolveValue(key: "endless") {
                    started.increment()
                    try await Task.sleep(for: .seconds(3600))
                    return 0
                }
            }
            var body: some Component { Text("never") }
        }
        let cache = QueryCache()
        cache.stub(.pending, for: "forever")
        // The root waits on a query that never ends, and a Suspense on a key that never resolves.
        let page = Group {
            try Endless(started: started)
            Suspense { try Loaded("forever") }
        }
        let task = Task { try await render(page, cache: cache) }
        try await waitUntil("the query to start") { started.value == 1 }
        task.cancel()
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(cache.runningQueryCount == 0)
    }

    @Test func aPromiseThrownInsideAQueryIsAnErrorAtOnce() async throws {
        let runs = Counter()
        struct Confused: Component {
            init(runs: Counter) throws {
                let _: Int = try resolveValue(key: "confused") {
                    runs.increment()
                    throw Promise<Int>.pending(key: "inner") { 1 }
                }
            }
            var body: some Component { Text("never") }
        }
        let page = ErrorBoundary {
            Suspense { try Confused(runs: runs) }
        } fallback: { error in
            Text("\(error)")
        }
        let output = try await render(page, as: .plain)
        #expect(output.hasPrefix("the query confused threw a Promise<Int>"))
        #expect(runs.value == 1)
    }

    @Test func typeNamesBeginningWithAnUnderscoreAppearInPaths() async throws {
        struct _Internal: Component {
            init() throws { throw TestFailure("boom") }
            var body: some Component { Text("never") }
        }
        struct Outer: Component {
            var body: some Component { try _Internal() }
        }
        let error = try await renderError(Outer())
        #expect(error.path == ["Outer", "_Internal"])
    }

    @Test func aLongPathIsShortenedInTheDescription() async throws {
        struct Nested: Component {
            let level: Int
            var body: some Component {
                if level == 0 {
                    try Failing2()
                } else {
                    Nested(level: level - 1)
                }
            }
        }
        struct Failing2: Component {
            init() throws { throw TestFailure("deep") }
            var body: some Component { Text("never") }
        }
        let error = try await renderError(Nested(level: 99))
        #expect(error.path.count == 101)
        let names = Array(repeating: "Nested", count: 10).joined(separator: " > ")
        #expect(
            error.description
                == "uncaught error in \(names) > … (81 more) … > \(Array(repeating: "Nested", count: 9).joined(separator: " > ")) > Failing2: deep"
        )
    }
}
