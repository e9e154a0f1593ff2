import Testing

@testable import SuspenseKit

/// A query that waits, without sleeping for long, until the test opens its gate; it counts its
/// runs and whether it saw its own cancellation.
private final class GatedQuery: Sendable {
    let runs = Counter()
    let cancellations = Counter()
    let gate = Counter()

    @Sendable func run() async throws -> String {
        runs.increment()
        do {
            // A gate the test never opens fails the query after `waitUntil`'s limit instead of hanging.
            try await waitUntil("the gate to open") { gate.value > 0 }
        } catch is CancellationError {
            cancellations.increment()
            throw CancellationError()
        }
        return "value"
    }
}

private struct Reader: Component {
    let value: String
    init(_ key: String, query: GatedQuery) throws {
        value = try resolveValue(key: key, query: query.run)
    }
    var body: some Component { Text(value) }
}

@Suite struct QueryRunnerTests {
    @Test func tenConcurrentRendersOfOneKeyRunItOnce() async throws {
        let cache = QueryCache()
        let query = GatedQuery()
        let outputs = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<10 {
                group.addTask {
                    try await render(Suspense { try Reader("shared", query: query) }, as: .plain, cache: cache)
                }
            }
            // Every render waits on the one run before it may finish.
            try await waitUntil("ten renders to wait on one run") {
                cache.subscriberCount(of: "shared") == 10
            }
            query.gate.increment()
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outputs == Array(repeating: "value", count: 10))
        #expect(query.runs.value == 1)
        #expect(cache.runningQueryCount == 0)
    }

    @Test func aCancelledRenderStopsWaitingWithoutCancellingTheQueryForOthers() async throws {
        let cache = QueryCache()
        let query = GatedQuery()
        let cancelled = Task {
            try await render(Suspense { try Reader("shared", query: query) }, as: .plain, cache: cache)
        }
        let kept = Task { try await render(Suspense { try Reader("shared", query: query) }, as: .plain, cache: cache) }
        try await waitUntil("both renders to wait") { cache.subscriberCount(of: "shared") == 2 }
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        #expect(cache.subscriberCount(of: "shared") == 1)
        query.gate.increment()
        #expect(try await kept.value == "value")
        #expect(query.runs.value == 1)
        #expect(query.cancellations.value == 0)
    }

    @Test func aQueryNobodyWaitsForIsCancelled() async throws {
        let cache = QueryCache()
        let query = GatedQuery()
        let task = Task { try await render(Suspense { try Reader("alone", query: query) }, cache: cache) }
        try await waitUntil("the query to start") { query.runs.value == 1 }
        task.cancel()
        _ = await task.result
        // The render waited for the query it cancelled before it returned.
        #expect(query.cancellations.value == 1)
        #expect(cache.runningQueryCount == 0)
        #expect(!cache.contains("alone"))
    }

    @Test func aKeylessQueryWhoseComponentWasDiscardedIsCancelled() async throws {
        let query = GatedQuery()
        struct Keyless: Component {
            init(_ value: String?, query: GatedQuery) throws {
                _ = try resolveValue(value, query: query.run)
            }
            var body: some Component { Text("never") }
        }
        let cache = QueryCache()
        cache.stub(.failure(TestFailure("sibling failed")), for: "fails")
        // The sibling's failure discards the boundary's content, the keyless slot with it.
        let page = ErrorBoundary {
            Suspense { (value: String?) in
                try Keyless(value, query: query)
                try Loaded("fails")
            }
        } fallback: { error in
            Text("caught: \(error)")
        }
        let output = try await render(page, as: .plain, cache: cache)
        #expect(output == "caught: sibling failed")
        #expect(query.runs.value <= 1)
        #expect(query.cancellations.value == query.runs.value)
    }

    @Test func oneBoundarysQueriesCanBeStoppedAlone() async throws {
        let cache = QueryCache()
        let slow = GatedQuery()
        let other = GatedQuery()
        let page = Group {
            Suspense {
                try Reader("slow", query: slow)
            } fallback: {
                Text("slow…")
            }
            Suspense {
                try Reader("other", query: other)
            } fallback: {
                Text("other…")
            }
        }
        let resolver = _Resolver(cache: cache, options: RenderOptions())
        let runner = QueryRunner(cache: cache, mailbox: resolver.scope.mailbox)
        resolver.evaluateRoot { page }
        var discovered = resolver.waits.takeDiscovered()
        for index in discovered.indices { _ = runner.start(&discovered[index]) }
        try await waitUntil("both queries to start") { slow.runs.value == 1 && other.runs.value == 1 }
        let first = try #require(resolver.records.suspenses.firstIndex { $0.id.description == "0" })
        for query in resolver.stopWaiting(for: first) { runner.cancel(query) }
        try await waitUntil("the slow query to see its cancellation") { slow.cancellations.value == 1 }
        #expect(cache.subscriberCount(of: "other") == 1)
        #expect(resolver.waits.activeWaiters == 1)
        other.gate.increment()
        let delivery = try #require(await runner.mailbox.next()?.first)
        // As the render loop does: the runner learns the result is applied, then the resolver
        // applies it.
        runner.finished(delivery.0)
        resolver.apply(delivery.1, for: delivery.0)
        #expect(try resolver.tree().rendered(as: .plain) == "slow…value")
        await runner.finish()
        #expect(other.cancellations.value == 0)
    }
}
