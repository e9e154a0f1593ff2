import Testing

@testable import SuspenseKit

/// A component that reads one key with a query of the test's choosing.
private struct ReliabilityReader: Component {
    let value: String
    init(_ key: String, _ query: @escaping @Sendable () async throws -> String) throws {
        value = try resolveValue(key: key, query: query)
    }
    var body: some Component { Text(value) }
}

/// A component whose key is new on every evaluation.
private struct ReliabilityRestless: Component {
    let ledger: ReliabilityQueryLedger
    let value: String
    init(ledger: ReliabilityQueryLedger) throws {
        self.ledger = ledger
        let key = "restless/\(ledger.finished)"
        value = try resolveValue(key: key) {
            try await ledger.run(key) {
                await Task.yield()  // suspends: an instant answer would not suspend at all
                return "loaded"
            }
        }
    }
    var body: some Component { Text(value) }
}

private struct Shutdown: Error, CustomStringConvertible {
    var description: String { "shut down" }
}

/// Faults: queries that never return, fail after cancellation, fallbacks that suspend, keys that
/// never settle. Each ends with its documented outcome, and no query task outlives the render.
/// (Timeouts and retries do not exist yet; cancelling the render is what bounds a query today.)
struct ReliabilityFaultTests {
    /// Waits until `ledger` shows `count` queries running. Polls, never asserts on time, and
    /// fails after `waitUntil`'s deadline instead of hanging.
    private func waitUntilRunning(_ ledger: ReliabilityQueryLedger, count: Int = 1) async throws {
        try await waitUntil("\(count) queries to run") { ledger.live >= count }
    }

    @Test func aQueryThatNeverReturnsEndsWhenTheRenderIsCancelled() async throws {
        let ledger = ReliabilityQueryLedger()
        let rendering = Task {
            try await render(
                Suspense {
                    try ReliabilityReader("forever") {
                        try await ledger.run("forever") {
                            try await Task.sleep(for: .seconds(86_400))
                            return "never"
                        }
                    }
                    try ReliabilityReader("fast") { try await ledger.run("fast") { "fast" } }
                } fallback: {
                    Text("Loading…")
                },
                as: .tree
            )
        }
        try await waitUntilRunning(ledger)
        rendering.cancel()
        await #expect(throws: CancellationError.self) { try await rendering.value }
        #expect(ledger.live == 0)
        #expect(ledger.starts == ["forever": 1, "fast": 1])
    }

    @Test func queriesThatThrowAfterCancellationEndWithCancellation() async throws {
        let ledger = ReliabilityQueryLedger()
        let rendering = Task {
            try await resolve(
                ErrorBoundary {
                    Suspense {
                        ForEach(0..<20) { index in
                            try ReliabilityReader("q\(index)") {
                                try await ledger.run("q\(index)") {
                                    // Ignores cancellation until it comes, then fails its own way.
                                    while !Task.isCancelled { await Task.yield() }
                                    throw Shutdown()
                                }
                            }
                        }
                    } fallback: {
                        Text("Loading…")
                    }
                } fallback: { error in
                    Text("caught: \(error)")
                }
            )
        }
        try await waitUntilRunning(ledger, count: 20)
        rendering.cancel()
        // Not a "shut down" caught by the boundary: the render itself was cancelled.
        await #expect(throws: CancellationError.self) { try await rendering.value }
        #expect(ledger.live == 0 && ledger.finished == 20)
    }

    @Test func aRenderCancelledBeforeItStartsRunsNoQueryToCompletion() async throws {
        let ledger = ReliabilityQueryLedger()
        let cache = QueryCache()
        let rendering = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await resolve(
                Suspense {
                    try ReliabilityReader("a") {
                        try await ledger.run("a") {
                            try await Task.sleep(for: .seconds(86_400)); return "a"
                        }
                    }
                },
                cache: cache
            )
        }
        await #expect(throws: CancellationError.self) { try await rendering.value }
        // Whatever started has ended, and nothing completed: no result reached the cache.
        #expect(ledger.live == 0)
        #expect(!cache.contains("a"))
        #expect(cache.runningQueryCount == 0)
    }

    @Test func aFallbackThatSuspendsWaitsInTheBoundaryOutside() async throws {
        let ledger = ReliabilityQueryLedger()
        // The content resolves; the fallback's own query may or may not have finished by then.
        let node = try await resolve(
            Suspense {
                try ReliabilityReader("content") { try await ledger.run("content") { "content" } }
            } fallback: {
                try ReliabilityReader("fallback") {
                    try await ledger.run("fallback") {
                        await Task.yield(); return "fallback"
                    }
                }
            }
        )
        #expect(try node.rendered(as: .tree) == "Suspense #0 [resolved]\n└─ ReliabilityReader\n   └─ \"content\"")
        #expect(ledger.live == 0)

        // The content never resolves: the Suspense keeps its fallback, which resolved itself.
        let cache = QueryCache()
        cache.stub(.pending, for: "content")
        let pending = try await resolve(
            Suspense {
                try ReliabilityReader("content") { "never runs" }
            } fallback: {
                try ReliabilityReader("fallback") { try await ledger.run("fallback") { "fallback" } }
            },
            cache: cache
        )
        #expect(
            try pending.rendered(as: .tree)
                == "Suspense #0 [pending: content]\n└─ ReliabilityReader\n   └─ \"fallback\"")

        // The fallback never resolves: the render still ends, with the content.
        let stuck = QueryCache()
        stuck.stub(.pending, for: "fallback")
        let resolved = try await resolve(
            Suspense {
                try ReliabilityReader("content") { try await ledger.run("content") { "content" } }
            } fallback: {
                try ReliabilityReader("fallback") { "never runs" }
            },
            cache: stuck
        )
        #expect(try resolved.rendered(as: .plain) == "content")
        #expect(ledger.live == 0)
    }

    @Test func aKeyThatChangesOnEveryEvaluationFailsAfterMaxResuspensions() async throws {
        let ledger = ReliabilityQueryLedger()
        let node = try await resolve(
            ErrorBoundary {
                Suspense { try ReliabilityRestless(ledger: ledger) }
            } fallback: { error in
                Text("caught: \(error)")
            },
            options: RenderOptions(maxResuspensions: 5)
        )
        guard case .errorBoundary(.caught(let description)) = node.children.first?.kind else {
            Issue.record("expected the boundary to catch: \(try node.rendered(as: .tree))")
            return
        }
        #expect(
            description
                == "\(SuspenseError.stillSuspending(component: "ReliabilityRestless", attempts: 6, lastQuery: "restless/6"))"
        )
        // Six runs answered: the first suspension and five more. The seventh key, asked for at
        // the last allowed try, never started (it would only have been cancelled).
        #expect(ledger.finished == 6 && ledger.live == 0)
        #expect(ledger.starts["restless/6"] == nil)

        // Without a boundary, the render throws it, naming the component.
        let again = ReliabilityQueryLedger()
        let error = try await #require(throws: RenderError.self) {
            try await resolve(
                Suspense { try ReliabilityRestless(ledger: again) }, options: RenderOptions(maxResuspensions: 2))
        }
        #expect(error.path == ["Suspense", "ReliabilityRestless"])
        #expect(
            error.underlying as? SuspenseError
                == .stillSuspending(component: "ReliabilityRestless", attempts: 3, lastQuery: "restless/3"))
        #expect(again.live == 0 && again.finished == 3 && again.starts["restless/3"] == nil)
    }

    @Test func theRootSuspendedForeverFailsClearly() async throws {
        let cache = QueryCache()
        cache.stub(.pending, for: "config")
        let error = try await #require(throws: RenderError.self) {
            try await resolve(Group { try ReliabilityReader("config") { "never runs" } }, cache: cache)
        }
        #expect(error.underlying as? SuspenseError == .rootSuspendedForever(queries: ["config"]))
    }

    @Test func anUncaughtFailureEndsTheRenderWithNoQueryLeftRunning() async throws {
        let ledger = ReliabilityQueryLedger()
        let error = try await #require(throws: RenderError.self) {
            try await resolve(
                Suspense {
                    try ReliabilityReader("fails") { try await ledger.run("fails") { throw Shutdown() } }
                    ForEach(0..<10) { index in
                        try ReliabilityReader("slow\(index)") {
                            try await ledger.run("slow\(index)") {
                                try await Task.sleep(for: .seconds(86_400)); return ""
                            }
                        }
                    }
                }
            )
        }
        #expect(error.path == ["Suspense", "ReliabilityReader"])
        #expect(error.underlying is Shutdown)
        #expect(ledger.live == 0)
    }

    @Test func concurrentRendersSharingOneCacheRunEachQueryOnce() async throws {
        let ledger = ReliabilityQueryLedger()
        let cache = QueryCache()
        let pages = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    try await render(
                        Suspense {
                            ForEach(0..<50) { index in
                                try ReliabilityReader("shared\(index)") {
                                    try await ledger.run("shared\(index)") {
                                        await Task.yield(); return "\(index),"
                                    }
                                }
                            }
                        },
                        as: .plain,
                        cache: cache
                    )
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(pages.allSatisfy { $0 == (0..<50).map { "\($0)," }.joined() })
        // A key one render started is joined by the others: each of the 50 ran exactly once.
        #expect(ledger.starts == Dictionary(uniqueKeysWithValues: (0..<50).map { ("shared\($0)", 1) }))
        #expect(ledger.live == 0)
    }
}
