import Testing

@testable import SuspenseKit

/// Suspends on its own key; its query returns only once all `total` queries have started, so
/// the render finishes only if every query under the boundary runs at the same time.
private struct Rendezvous: Component {
    let index: Int
    init(index: Int, total: Int, started: Counter) throws {
        self.index = index
        let _: Int = try resolveValue(key: "rendezvous/\(index)") {
            started.increment()
            try await waitUntil("all \(total) queries to start") { started.value >= total }
            return index
        }
    }
    var body: some Component { Text("\(index) ") }
}

private struct Shared: Component {
    let value: String
    init(runs: Counter) throws {
        value = try resolveValue(key: "shared") {
            runs.increment()
            try await Task.sleep(for: .milliseconds(5))
            return "v"
        }
    }
    var body: some Component { Text(value) }
}

@Suite struct ConcurrencyTests {
    @Test func allQueriesUnderABoundaryRunAtOnce() async throws {
        let total = 50
        let started = Counter()
        let page = Suspense {
            ForEach(0..<total) { index in try Rendezvous(index: index, total: total, started: started) }
        }
        let output = try await render(page, as: .plain)
        #expect(output == (0..<total).map { "\($0) " }.joined())
        #expect(started.value == total)
    }

    @Test func siblingsAcrossNestedBoundariesAreDiscoveredInOnePass() async throws {
        let started = Counter()
        let page = Group {
            Suspense { try Rendezvous(index: 0, total: 3, started: started) }
            Element("div") {
                Suspense {
                    try Rendezvous(index: 1, total: 3, started: started)
                    Suspense { try Rendezvous(index: 2, total: 3, started: started) }
                }
            }
        }
        #expect(try await html(page) == "0 <div>1 2 </div>")
    }

    @Test func identicalKeysShareOneQueryExecution() async throws {
        let runs = Counter()
        let page = Suspense {
            ForEach(0..<100) { _ in try Shared(runs: runs) }
            Element("p") { Suspense { try Shared(runs: runs) } }
        }
        let output = try await render(page, as: .plain)
        #expect(output == String(repeating: "v", count: 100) + "\nv")
        #expect(runs.value == 1)
    }

    @Test func aSharedCacheServesLaterRendersWithoutRunningTheQueryAgain() async throws {
        let runs = Counter()
        let cache = QueryCache()
        _ = try await render(Suspense { try Shared(runs: runs) }, cache: cache)
        let second = try await resolveFrames(Suspense { try Shared(runs: runs) }, cache: cache)
        #expect(runs.value == 1)
        #expect(second.count == 1)
        #expect(cache.value(for: "shared", as: String.self) == "v")
    }

    @Test func aBoundaryIsReevaluatedOnlyWhenItsOwnQueriesFinish() async throws {
        // Boundary B's query finishes only after A has been re-evaluated; until then B's
        // component must not have been evaluated again.
        let aEvaluations = Counter()
        let bEvaluations = Counter()
        struct A: Component {
            init(evaluations: Counter) throws {
                evaluations.increment()
                let _: String = try resolveValue(key: "a") {
                    await Task.yield()
                    return "a"
                }
            }
            var body: some Component { Text("a") }
        }
        struct B: Component {
            init(evaluations: Counter, aEvaluations: Counter) throws {
                evaluations.increment()
                let _: String = try resolveValue(key: "b") {
                    try await waitUntil("A to be re-evaluated") { aEvaluations.value >= 2 }
                    return "b"
                }
            }
            var body: some Component { Text("b") }
        }
        let page = Group {
            Suspense {
                try A(evaluations: aEvaluations)
            }
            Suspense {
                try B(evaluations: bEvaluations, aEvaluations: aEvaluations)
            }
        }
        let frames = try await resolveFrames(page, options: RenderOptions(deliveryOrder: .completion))
        #expect(frames.map(\.cause) == [.shell, .query("a"), .query("b")])
        #expect(aEvaluations.value == 2)
        #expect(bEvaluations.value == 2)
    }

    @Test func deliveryInDiscoveryOrderGivesTheSameFramesWhateverOrderQueriesFinishIn() async throws {
        struct Delayed: Component {
            let key: String
            init(_ key: String, milliseconds: Int) throws {
                self.key = try resolveValue(key: key) {
                    try await Task.sleep(for: .milliseconds(milliseconds))
                    return key
                }
            }
            var body: some Component { Text(key) }
        }
        // "first" is discovered first but finishes last.
        let page = Group {
            Suspense {
                try Delayed("first", milliseconds: 30)
            } fallback: {
                Text("1…")
            }
            Suspense {
                try Delayed("second", milliseconds: 1)
            } fallback: {
                Text("2…")
            }
        }
        let frames = try await resolveFrames(page)
        #expect(frames.map(\.cause) == [.shell, .query("first"), .query("second")])
        #expect(try frames.map { try $0.node.rendered(as: .html) } == ["1…2…", "first2…", "firstsecond"])
    }

    @Test func cancellingTheRenderCancelsEveryQueryInFlight() async throws {
        let started = Counter()
        let cancelled = Counter()
        struct Forever: Component {
            init(_ index: Int, started: Counter, cancelled: Counter) throws {
                let _: Int = try resolveValue(key: "forever/\(index)") {
                    started.increment()
                    do {
                        try await Task.sleep(for: .seconds(3600))
                    } catch {
                        cancelled.increment()
                        throw error
                    }
                    return index
                }
            }
            var body: some Component { Text("never") }
        }
        let task = Task {
            try await render(Suspense { ForEach(0..<5) { try Forever($0, started: started, cancelled: cancelled) } })
        }
        try await waitUntil("queries to start") { started.value == 5 }
        task.cancel()
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(cancelled.value == 5)
    }
}
