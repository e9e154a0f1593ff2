import Testing

@testable import SuspenseKit

/// Reads one key; counts its evaluations and its query's runs. The query answers at once unless
/// `suspends`, in which case it yields first, as a real fetch would.
private struct Reading: Component {
    let value: String

    init(_ key: String, suspends: Bool = false, runs: Counter, evaluations: Counter? = nil) throws {
        evaluations?.increment()
        value = try resolveValue(key: key) {
            runs.increment()
            if suspends { await Task.yield() }
            return "v:\(key)"
        }
    }

    var body: some Component { Text(value) }
}

/// Reads one key whose query fails at once.
private struct FailingAtOnce: Component {
    init(runs: Counter) throws {
        let _: String = try resolveValue(key: "broken") {
            runs.increment()
            throw TestFailure("broken at once")
        }
    }
    var body: some Component { Text("never") }
}

/// Reads one key whose query runs until it is cancelled.
private struct Endless: Component {
    init(_ key: String, started: Counter, cancelled: Counter) throws {
        let _: Int = try resolveValue(key: key) {
            started.increment()
            do {
                try await Task.sleep(for: .seconds(3600))
            } catch {
                cancelled.increment()
                throw error
            }
            return 0
        }
    }
    var body: some Component { Text("never") }
}

@Suite struct ImmediateQueryTests {
    @Test func aQueryThatAnswersAtOnceNeverShowsTheFallback() async throws {
        let runs = Counter()
        let evaluations = Counter()
        let page = Suspense {
            try Reading("a", runs: runs, evaluations: evaluations)
        } fallback: {
            Text("loading")
        }
        let frames = try await resolveFrames(page)
        #expect(frames.count == 1)
        #expect(
            try frames[0].node.rendered(as: .tree) == """
                Suspense #0 [resolved]
                └─ Reading
                   └─ "v:a"
                """)
        // Evaluated once: the value came back from resolveValue, no promise was thrown.
        #expect(evaluations.value == 1)
        #expect(runs.value == 1)
    }

    @Test func aQueryThatSuspendsShowsTheFallbackAndRunsOnce() async throws {
        let runs = Counter()
        let evaluations = Counter()
        let page = Suspense {
            try Reading("a", suspends: true, runs: runs, evaluations: evaluations)
        } fallback: {
            Text("loading")
        }
        let frames = try await resolveFrames(page)
        #expect(try frames.map { try $0.node.rendered(as: .plain) } == ["loading", "v:a"])
        #expect(frames.map(\.cause) == [.shell, .query("a")])
        #expect(evaluations.value == 2)
        #expect(runs.value == 1)
    }

    @Test func aQueryThatFailsAtOnceGoesStraightToTheErrorBoundary() async throws {
        let runs = Counter()
        let page = ErrorBoundary {
            Suspense {
                try FailingAtOnce(runs: runs)
            } fallback: {
                Text("loading")
            }
        } fallback: { error in
            Text("caught: \(error)")
        }
        let frames = try await resolveFrames(page)
        #expect(try frames.map { try $0.node.rendered(as: .plain) } == ["caught: broken at once"])
        #expect(runs.value == 1)
    }

    @Test func aStubbedOutcomeStillShowsTheFallbackFirst() async throws {
        let runs = Counter()
        let cache = QueryCache()
        cache.stub(.value("stubbed"), for: "a")
        let page = Suspense {
            try Reading("a", runs: runs)
        } fallback: {
            Text("loading")
        }
        let frames = try await resolveFrames(page, cache: cache)
        #expect(try frames.map { try $0.node.rendered(as: .plain) } == ["loading", "stubbed"])
        #expect(runs.value == 0)
    }

    @Test func tenThousandComponentsOnOneKeyRunItOnce() async throws {
        for suspends in [false, true] {
            let runs = Counter()
            let page = Suspense {
                ForEach(0..<10_000) { _ in try Reading("shared", suspends: suspends, runs: runs) }
            } fallback: {
                Text("loading")
            }
            let html = try await render(page, as: .html)
            #expect(html == String(repeating: "v:shared", count: 10_000))
            #expect(runs.value == 1, "suspends: \(suspends)")
        }
    }

    @Test func aStoredValueIsReadWithoutRunningTheQuery() async throws {
        let runs = Counter()
        let cache = QueryCache()
        cache.store("v:stored", for: "a")
        let text = try await render(Suspense { try Reading("a", runs: runs) }, as: .plain, cache: cache)
        #expect(text == "v:stored")
        #expect(runs.value == 0)
    }

    @Test func aStartedQueryWhoseComponentWasDiscardedIsCancelledWhenTheRenderEnds() async throws {
        // The query starts when its component asks for it; the sibling's error discards the
        // component in the same pass, so nobody waits for the query: the render cancels it and
        // returns instead of waiting for an hour.
        let started = Counter()
        let cancelled = Counter()
        let cache = QueryCache()
        let page = ErrorBoundary {
            Suspense {
                try Endless("endless", started: started, cancelled: cancelled)
                try Thrower("sibling failed")
            } fallback: {
                Text("loading")
            }
        } fallback: { error in
            Text("caught: \(error)")
        }
        #expect(try await render(page, as: .plain, cache: cache) == "caught: sibling failed")
        #expect(started.value == 1)
        #expect(cancelled.value == 1)
        #expect(cache.runningQueryCount == 0)
        #expect(!cache.contains("endless"))
    }

    @Test func aCancelledRenderCancelsTheQueriesItStartedAtOnce() async throws {
        let started = Counter()
        let cancelled = Counter()
        let cache = QueryCache()
        let task = Task {
            try await render(
                Suspense {
                    ForEach(0..<5) { try Endless("endless/\($0)", started: started, cancelled: cancelled) }
                },
                cache: cache)
        }
        try await waitUntil("the queries to start") { started.value == 5 }
        task.cancel()
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(cancelled.value == 5)
        #expect(cache.runningQueryCount == 0)
    }

    @Test func rendersSharingACacheShareAQueryStartedAtOnce() async throws {
        // The first render starts the key at once and it suspends; the second finds it running
        // and joins it: one run for both.
        let runs = Counter()
        let cache = QueryCache()
        let gate = Counter()
        struct Gated: Component {
            let value: String
            init(runs: Counter, gate: Counter) throws {
                value = try resolveValue(key: "gated") {
                    runs.increment()
                    try await waitUntil("the gate to open") { gate.value > 0 }
                    return "opened"
                }
            }
            var body: some Component { Text(value) }
        }
        async let first = render(Suspense { try Gated(runs: runs, gate: gate) }, as: .plain, cache: cache)
        try await waitUntil("the query to start") { runs.value == 1 }
        async let second = render(Suspense { try Gated(runs: runs, gate: gate) }, as: .plain, cache: cache)
        try await waitUntil("the second render to join") { cache.subscriberCount(of: "gated") == 2 }
        gate.increment()
        #expect(try await [first, second] == ["opened", "opened"])
        #expect(runs.value == 1)
    }

    @MainActor @Test func aRenderOnTheMainActorReadsQueriesAtOnce() async throws {
        let runs = Counter()
        let evaluations = Counter()
        let page = Suspense {
            ForEach(0..<3) { try Reading("main/\($0)", runs: runs, evaluations: evaluations) }
        } fallback: {
            Text("loading")
        }
        #expect(try await render(page, as: .html) == "v:main/0v:main/1v:main/2")
        #expect(evaluations.value == 3)
        #expect(runs.value == 3)
    }

    @Test func aResultThatArrivedBeforeAnyoneWaitedIsAppliedWhenAComponentAsks() async throws {
        // Found by the property test (it hung): "s1" is started by a component that is then
        // discarded (its boundary caught a sibling's stored failure), so no slot waits on it when
        // its result arrives. Later a fallback asks for "s1": the render must apply the result
        // it holds already, not wait for another delivery that never comes.
        let cache = QueryCache(failures: .keep)
        cache.storeFailure(TestFailure("stored"), for: "d4")
        let runs = Counter()
        struct Late: Component {
            init(cache: QueryCache) throws {
                let _: String = try resolveValue(key: "d7") {
                    try await waitUntil("s1 to be stored") { cache.contains("s1") }
                    throw TestFailure("d7 failed")
                }
            }
            var body: some Component { Text("never") }
        }
        let page = Group {
            ErrorBoundary {
                try Reading("s1", suspends: true, runs: runs)
                try Reading("d4", runs: runs)
            } fallback: { error in
                Text("first caught: \(error)")
            }
            ErrorBoundary {
                try Late(cache: cache)
            } fallback: { error in
                Text("second caught: \(error)")
                try Reading("s1", runs: runs)
            }
        }
        for order in [RenderOptions.DeliveryOrder.discovery, .completion] {
            cache.removeValue(for: "s1")
            let html = try await render(page, as: .html, cache: cache, options: RenderOptions(deliveryOrder: order))
            #expect(html == "first caught: storedsecond caught: d7 failedv:s1")
        }
        #expect(runs.value == 2)
    }

    @Test func outsideARenderResolveValueStillSuspends() throws {
        // With no render around it there is nobody to run the query for: it throws its promise.
        let runs = Counter()
        #expect(throws: Promise<String>.self) { try Reading("a", runs: runs) }
        #expect(runs.value == 0)
    }
}
