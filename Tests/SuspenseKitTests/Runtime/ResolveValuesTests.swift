import Testing

@testable import SuspenseKit

/// Reads "a" and "b" in one initializer with `resolveValues`; counts its evaluations.
private struct Pair: Component {
    let a: String
    let b: Int

    init(gates: Gates, failing: Set<String> = [], evaluations: Counter? = nil) throws {
        evaluations?.increment()
        (a, b) = try resolveValues(
            ("a", { try await gates.value("a", fails: failing.contains("a")) }),
            ("b", { try await gates.value("b", fails: failing.contains("b")).count })
        )
    }

    var body: some Component { Text("\(a), \(b)") }
}

/// The same reads as two `resolveValue` calls: the contrast, a waterfall.
private struct PairOneAfterTheOther: Component {
    let a: String
    let b: String

    init(gates: Gates) throws {
        a = try resolveValue(key: "a") { try await gates.value("a") }
        b = try resolveValue(key: "b") { try await gates.value("b") }
    }

    var body: some Component { Text("\(a), \(b)") }
}

@Suite struct ResolveValuesTests {
    @Test func bothQueriesStartBeforeEitherIsReleased() async throws {
        let gates = Gates()
        let evaluations = Counter()
        let cache = QueryCache()
        let page = Suspense {
            try Pair(gates: gates, evaluations: evaluations)
        } fallback: {
            Text("loading")
        }
        let rendering = Task { try await render(page, as: .plain, cache: cache) }
        // No gate is open: both runs started from the component's first evaluation.
        try await waitUntil("both queries to start while gated") { gates.runs.value == 2 }
        #expect(evaluations.value == 1)
        gates.open("b")
        gates.open("a")
        #expect(try await rendering.value == "a loaded, 8")
        // One execution each.
        #expect(gates.runs.value == 2)
        #expect(cache.statistics.misses == 2)
    }

    /// The contrast: with two `resolveValue` calls the first suspends the component before the
    /// second query starts, which waits for the first to finish.
    @Test func twoResolveValueCallsRunOneAfterTheOther() async throws {
        let gates = Gates()
        let cache = QueryCache()
        let page = Suspense {
            try PairOneAfterTheOther(gates: gates)
        } fallback: {
            Text("loading")
        }
        let rendering = Task { try await render(page, as: .plain, cache: cache) }
        try await waitUntil("the first query to start") { gates.runs.value == 1 }
        // Nothing evaluates the component again before "a" is released: "b" cannot have started.
        #expect(!cache.contains("b") && cache.runningQueryCount == 1)
        gates.open("a")
        try await waitUntil("the second query to start once the first finished") { gates.runs.value == 2 }
        gates.open("b")
        #expect(try await rendering.value == "a loaded, b loaded")
    }

    @Test func aFailureOfTheSecondReachesTheErrorBoundary() async throws {
        let gates = Gates()
        let page = ErrorBoundary {
            Suspense {
                try Pair(gates: gates, failing: ["b"])
            } fallback: {
                Text("loading")
            }
        } fallback: { error in
            Text("failed: \(error)")
        }
        let rendering = Task { try await render(page, as: .plain) }
        try await waitUntil("both queries to start while gated") { gates.runs.value == 2 }
        gates.open("b")
        gates.open("a")
        #expect(try await rendering.value == "failed: b failed")
    }

    @Test func theFirstFailureInArgumentOrderIsThrown() async throws {
        let gates = Gates()
        let page = ErrorBoundary {
            Suspense {
                try Pair(gates: gates, failing: ["a", "b"])
            } fallback: {
                Text("loading")
            }
        } fallback: { error in
            Text("failed: \(error)")
        }
        let cache = QueryCache()
        let rendering = Task { try await render(page, as: .plain, cache: cache) }
        try await waitUntil("both queries to start while gated") { gates.runs.value == 2 }
        // "b" fails first; the component still waits for "a", whose failure comes first in order.
        gates.open("b")
        try await waitUntil("b's failure to be stored") { cache.contains("b") }
        gates.open("a")
        #expect(try await rendering.value == "failed: a failed")
    }

    /// With `.discovery` delivery, a second key that finishes first, before the component waits
    /// on it, is applied all the same: the component shows both values once the first arrives.
    @Test func aLaterKeyFinishingFirstIsNotLostWithDiscoveryDelivery() async throws {
        let gates = Gates()
        let cache = QueryCache()
        let page = Suspense {
            try Pair(gates: gates)
        } fallback: {
            Text("loading")
        }
        let frames = Task { try await resolveFrames(page, cache: cache) }
        try await waitUntil("both queries to start while gated") { gates.runs.value == 2 }
        gates.open("b")
        try await waitUntil("b to be stored") { cache.contains("b") }
        gates.open("a")
        let last = try #require(try await frames.value.last)
        #expect(try last.node.rendered(as: .plain) == "a loaded, 8")
        #expect(gates.runs.value == 2)
    }

    @Test func cachedValuesAnswerAtOnceWithoutSuspending() async throws {
        let gates = Gates()
        let evaluations = Counter()
        let cache = QueryCache()
        cache.store("a loaded", for: "a")
        cache.store(8, for: "b")
        let page = Suspense {
            try Pair(gates: gates, evaluations: evaluations)
        } fallback: {
            Text("loading")
        }
        let frames = try await resolveFrames(page, cache: cache)
        #expect(frames.count == 1)
        #expect(try frames[0].node.rendered(as: .plain) == "a loaded, 8")
        #expect(evaluations.value == 1)
        #expect(gates.runs.value == 0)
    }
}
