import Testing

@testable import SuspenseKit

/// Reads one key; its query sleeps `milliseconds` (0: yields once), then returns or fails.
private struct Reader<Content: Component>: Component {
    let value: String
    let content: Content

    init(
        _ key: String, milliseconds: Int = 0, fails: Bool = false, @ComponentBuilder content: () throws -> Content
    ) throws {
        value = try resolveValue(key: key) {
            if milliseconds > 0 {
                try await Task.sleep(for: .milliseconds(milliseconds))
            } else {
                await Task.yield()
            }
            if fails { throw TestFailure("\(key) failed") }
            return key
        }
        self.content = try content()
    }

    var body: some Component {
        Text(value)
        content
    }
}

extension Reader where Content == EmptyComponent {
    init(_ key: String, milliseconds: Int = 0, fails: Bool = false) throws {
        try self.init(key, milliseconds: milliseconds, fails: fails) { return EmptyComponent() }
    }
}

/// Shapes the property test found: each hung or failed before the fix beside it.
@Suite struct PropertyFoundRegressionTests {
    /// Every component waiting on `a` is discarded while `a` runs, then `a` is asked for again:
    /// with `.discovery` delivery, `a` was queued twice, and `b`, queued after the second `a`,
    /// waited for a result that never came.
    @Test func aKeyAskedForAgainWhileItRunsIsDeliveredOnceInDiscoveryOrder() async throws {
        let page = Suspense {
            ErrorBoundary {
                Suspense { try Reader("x", fails: true) }
                try Reader("a", milliseconds: 5)
            } fallback: { _ in
                try Reader("a", milliseconds: 5) { try Reader("b") }
            }
        }
        let task = Task {
            try await render(page, as: .plain, options: RenderOptions(deliveryOrder: .discovery))
        }
        // Fails instead of hanging the suite.
        let watchdog = Task {
            try await Task.sleep(for: .seconds(30))
            task.cancel()
        }
        defer { watchdog.cancel() }
        #expect(try await task.value == "ab")
    }

    /// A Suspense that goes back to pending shows its fallback again after a query result; that
    /// fallback read a stored key without the render's cache, suspended, and so took the
    /// Suspense outside back to pending, whose fallback threw.
    @Test func aFallbackShownAgainReadsTheRendersCache() async throws {
        struct Throws: Component {
            init() throws { throw TestFailure("the outer fallback ran") }
            var body: some Component { Text("never") }
        }
        let cache = QueryCache()
        cache.store("stored", for: "d5")
        let page = Suspense {
            Suspense {
                ErrorBoundary {
                    Suspense { try Reader("d1", fails: true) }
                } fallback: { _ in
                    try Reader("d4")
                }
            } fallback: {
                try Reader("d5")
            }
        } fallback: {
            try Throws()
        }
        #expect(
            try await render(page, as: .tree, cache: cache) == """
                Suspense #0 [resolved]
                └─ Suspense #0.0 [resolved]
                   └─ ErrorBoundary #0.0.0 [caught: d1 failed]
                      └─ Reader
                         └─ "d4"
                """)
    }
}
