import Testing

@testable import SuspenseKit

// Queries run with the task-local values of the render that started them (a request id, a
// locale, a tracing context), whichever path starts them, but never with the render's own scope:
// a query is not part of the render.

/// What a server would bind around a render: a request's id.
private enum Request {
    @TaskLocal static var id = "none"
}

/// Reads `key`; its query answers with the request id it sees, after yielding first when
/// `suspends` (then the id before and after the yield).
private struct RequestReader: Component {
    let value: String
    init(_ key: String, suspends: Bool, evaluations: Counter) throws {
        evaluations.increment()
        value = try resolveValue(key: key) {
            let before = Request.id
            guard suspends else { return before }
            await Task.yield()
            return "\(before)/\(Request.id)"
        }
    }
    var body: some Component { Text(value) }
}

/// Throws a keyed promise itself, as a component may without `resolveValue`: the key's run is
/// started by the runner (the suspending path), and the value read back from the cache.
private struct KeyedPromiseReader: Component {
    let value: String
    init(cache: QueryCache) throws {
        guard let value = cache.value(for: "keyed", as: String.self) else {
            throw Promise<String>.pending(key: "keyed") {
                let before = Request.id
                await Task.yield()
                return "\(before)/\(Request.id)"
            }
        }
        self.value = value
    }
    var body: some Component { Text(value) }
}

/// `levels` nested components whose bottom reads the request id, in itself and in its query:
/// deep enough that a pass defers the subtree below its bound to the pass loop.
private struct DeepReader: Component {
    let levels: Int
    var body: some Component {
        Element("div") {
            if levels > 1 {
                DeepReader(levels: levels - 1)
            } else {
                try BottomReader()
            }
        }
    }
}

private struct BottomReader: Component {
    let value: String
    init() throws {
        let made = Request.id
        value = "\(made)|" + (try resolveValue(key: "deep") { Request.id })
    }
    var body: some Component { Text(value) }
}

/// A keyless promise, whose value only a typed Suspense delivers.
private struct KeylessReader: Component {
    let value: String
    init(_ value: String?) throws {
        self.value = try resolveValue(value) {
            let before = Request.id
            await Task.yield()
            return "\(before)/\(Request.id)"
        }
    }
    var body: some Component { Text(value) }
}

/// Reads `key` with a retry policy; its first attempt fails.
private struct RetryingReader: Component {
    let value: String
    init(attempts: Counter) throws {
        value = try resolveValue(key: "retried", retry: RetryPolicy(maxAttempts: 2, initialDelay: .zero)) {
            if attempts.increment() == 1 {
                await Task.yield()
                throw TestFailure("first attempt")
            }
            return Request.id
        }
    }
    var body: some Component { Text(value) }
}

/// Reads `key`, whose query waits for `latch`: the id it saw when it started, then after.
private struct LatchedReader: Component {
    let value: String
    init(latch: Latch, runs: Counter) throws {
        value = try resolveValue(key: "latched") {
            runs.increment()
            let before = Request.id
            await latch.wait()
            return "\(before)/\(Request.id)"
        }
    }
    var body: some Component { Text(value) }
}

/// What a query sees of the render: whether the render's scope is bound, before and after it
/// suspends, and what `resolveValue` does inside it.
private struct ScopeProbe: Component {
    let value: String
    init(_ key: String, suspends: Bool) throws {
        value = try resolveValue(key: key) {
            var seen = RenderScope.current == nil ? "unbound" : "bound"
            if suspends {
                await Task.yield()
                seen += RenderScope.current == nil ? "/unbound" : "/bound"
            }
            return seen
        }
    }
    var body: some Component { Text(value) }
}

/// A query that reads another key: inside a query, `resolveValue` is not part of the render.
private struct NestedRead: Component {
    init(inner: Counter) throws {
        let _: String = try resolveValue(key: "outer") {
            try resolveValue(key: "inner") {
                inner.increment()
                return "inner"
            }
        }
    }
    var body: some Component { Text("never") }
}

@Suite struct QueryContextTests {
    private func rendered<C: Component>(
        _ page: C, as id: String, cache: QueryCache = QueryCache(), options: RenderOptions = RenderOptions()
    ) async throws -> String {
        try await Request.$id.withValue(id) {
            try await render(page, as: .plain, cache: cache, options: options)
        }
    }

    @Test func aQueryThatAnswersAtOnceSeesTheRendersTaskLocals() async throws {
        let evaluations = Counter()
        let page = Suspense { try RequestReader("a", suspends: false, evaluations: evaluations) }
        #expect(try await rendered(page, as: "request-1") == "request-1")
        // Answered on the immediate path: the component never suspended.
        #expect(evaluations.value == 1)
    }

    @Test func aDeferredSubtreeAndItsQueriesSeeTheRendersTaskLocals() async throws {
        #expect(try await rendered(Suspense { DeepReader(levels: 2_000) }, as: "request-7") == "request-7|request-7")
    }

    @Test func aQueryThatSuspendsFirstSeesThemBeforeAndAfter() async throws {
        let evaluations = Counter()
        let page = Suspense { try RequestReader("a", suspends: true, evaluations: evaluations) }
        #expect(try await rendered(page, as: "request-2") == "request-2/request-2")
        #expect(evaluations.value == 2)
    }

    @Test func aKeyedPromiseThrownByAComponentSeesThem() async throws {
        let cache = QueryCache()
        let page = Suspense { try KeyedPromiseReader(cache: cache) }
        #expect(try await rendered(page, as: "request-3", cache: cache) == "request-3/request-3")
    }

    @Test func aKeylessPromiseSeesThem() async throws {
        let page = Suspense { (value: String?) in try KeylessReader(value) }
        #expect(try await rendered(page, as: "request-4") == "request-4/request-4")
    }

    @Test func aQueryTriedAgainSeesThemInEveryAttempt() async throws {
        let attempts = Counter()
        let page = Suspense { try RetryingReader(attempts: attempts) }
        #expect(try await rendered(page, as: "request-5") == "request-5")
        #expect(attempts.value == 2)
    }

    @Test func aRenderJoiningARunDoesNotChangeItsContext() async throws {
        let cache = QueryCache()
        let latch = Latch()
        let runs = Counter()
        let first = Task {
            try await rendered(Suspense { try LatchedReader(latch: latch, runs: runs) }, as: "first", cache: cache)
        }
        try await waitUntil("the first render's run to start") { runs.value == 1 }
        let second = Task {
            try await rendered(Suspense { try LatchedReader(latch: latch, runs: runs) }, as: "second", cache: cache)
        }
        try await waitUntil("both renders to wait on the run") { cache.subscriberCount(of: "latched") == 2 }
        latch.open()
        // One run, started by the first render: both renders read what it saw.
        #expect(try await first.value == "first/first")
        #expect(try await second.value == "first/first")
        #expect(runs.value == 1)
    }

    @Test(arguments: [false, true])
    func theRendersScopeIsNotBoundInsideAQuery(suspends: Bool) async throws {
        let page = Suspense { try ScopeProbe("probe", suspends: suspends) }
        let output = try await render(page, as: .plain)
        #expect(output == (suspends ? "unbound/unbound" : "unbound"))
    }

    @Test func aQueryReadingAKeyIsNotPartOfTheRender() async throws {
        let inner = Counter()
        let cache = QueryCache()
        let page = ErrorBoundary {
            Suspense { try NestedRead(inner: inner) }
        } fallback: { error in
            Text("caught: \(error)")
        }
        let output = try await render(page, as: .plain, cache: cache)
        // The inner read suspends, as outside any render: a query cannot suspend on another.
        #expect(output.hasPrefix("caught: "))
        #expect(output.contains("outer"))
        #expect(inner.value == 0)
        #expect(!cache.contains("inner"))
    }
}
