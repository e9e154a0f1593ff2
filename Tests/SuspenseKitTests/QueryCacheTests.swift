import Testing

@testable import SuspenseKit

private struct Profile: Component {
    let name: String
    init(runs: Counter? = nil) throws {
        name = try resolveValue(key: "profile") {
            runs?.increment()
            return "fetched"
        }
    }
    var body: some Component { Text(name) }
}

private struct Count: Component {
    let count: Int
    init() throws {
        count = try resolveValue(key: "profile") { 42 }
    }
    var body: some Component { Text("\(count)") }
}

@Suite struct QueryCacheTests {
    @Test func aStoredValueIsAHitWithoutRunningTheQueryOrShowingTheFallback() async throws {
        let runs = Counter()
        let cache = QueryCache()
        cache.store("stored", for: "profile")
        let frames = try await resolveFrames(Suspense { try Profile(runs: runs) }, cache: cache)
        #expect(try frames.map { try $0.node.rendered(as: .plain) } == ["stored"])
        #expect(runs.value == 0)
    }

    @Test func aStoredFailureRethrowsAtTheComponent() async throws {
        let cache = QueryCache()
        cache.storeFailure(TestFailure("offline"), for: "profile")
        let page = ErrorBoundary {
            try Profile()
        } fallback: {
            Text("failed: \($0)")
        }
        #expect(try await render(page, as: .plain, cache: cache) == "failed: offline")
    }

    @Test func aKeyLeftPendingForeverKeepsItsFallbackWhenTheRenderEnds() async throws {
        let runs = Counter()
        let cache = QueryCache()
        cache.stub(.pending, for: "profile")
        let page = Group {
            Suspense {
                try Profile(runs: runs)
            } fallback: {
                Text("Loading…")
            }
            Text(" done")
        }
        #expect(
            try await render(page, as: .tree, cache: cache) == """
                Suspense #0 [pending: profile]
                └─ "Loading…"
                " done"
                """)
        #expect(runs.value == 0)
    }

    @Test func theRootSuspendedForeverIsAClearError() async throws {
        let cache = QueryCache()
        cache.stub(.pending, for: "profile")
        let error = try await renderError(Element("div") { try Profile() }, cache: cache)
        #expect(error.underlying as? SuspenseError == .rootSuspendedForever(queries: ["profile"]))
        #expect(error.path == ["Profile"])
    }

    @Test func removingAKeyForgetsItsStubSoTheQueryRuns() async throws {
        let runs = Counter()
        let cache = QueryCache()
        cache.stub(.pending, for: "profile")
        cache.removeValue(for: "profile")
        #expect(try await render(Suspense { try Profile(runs: runs) }, as: .plain, cache: cache) == "fetched")
        #expect(runs.value == 1)
    }

    @Test func readingAKeyAsAnotherTypeIsAClearError() async throws {
        let cache = QueryCache()
        cache.store("a string", for: "profile")
        let error = try await renderError(Suspense { try Count() }, cache: cache)
        let mismatch = try #require(error.underlying as? QueryTypeMismatch)
        #expect(
            mismatch.description == #"query key "profile" holds a value of type String, but resolveValue asked for Int"#
        )
    }

    @Test func entriesCanBeInspectedAndForgotten() {
        let cache = QueryCache()
        cache.store(1, for: "a")
        cache.stub(.pending, for: "b")
        #expect(cache.contains("a"))
        #expect(!cache.contains("b"))
        #expect(cache.value(for: "a", as: Int.self) == 1)
        #expect(cache.value(for: "a", as: String.self) == nil)
        cache.removeValue(for: "a")
        #expect(!cache.contains("a"))
        cache.store(2, for: "c")
        cache.removeAll()
        #expect(!cache.contains("c"))
    }

    @Test func outsideARenderResolveValueThrowsAKeyedPromise() throws {
        do {
            _ = try resolveValue(key: "k") { 1 }
            Issue.record("expected a promise")
        } catch let promise as Promise<Int> {
            #expect(promise.key == "k")
        }
        #expect(try resolveValue(5) { 1 } == 5)
    }
}
