import Testing

@testable import SuspenseKit

/// Records a render's events as lines, with the `.tree` of each subtree.
private final class EventLog: RenderEventConsumer {
    var lines: [String] = []
    var wantsSubtrees: Bool { true }

    func consume(_ event: RenderEvent) {
        switch event {
        case .shell(let tree, let pending):
            lines.append("shell pending=\(pending.map(\.description)) \(render(tree))")
        case .resolved(let id, let tree): lines.append("resolved \(id) \(render(tree))")
        case .suspended(let id, let tree): lines.append("suspended \(id) \(render(tree))")
        case .waiting(let id, let tree): lines.append("waiting \(id) \(render(tree))")
        case .caught(let id, let tree, let error):
            lines.append("caught \(id) \(error.map { "\($0)" } ?? "") \(render(tree))")
        case .updated(let tree): lines.append("updated \(render(tree))")
        case .queryStarted(let key, let joined): lines.append(joined ? "joined \(key)" : "started \(key)")
        case .queryFinished(let key): lines.append("finished \(key)")
        case .queryFailed(let key, let error): lines.append("failed \(key): \(error)")
        case .queryCancelled(let key): lines.append("cancelled \(key)")
        case .timedOut(let id, let error): lines.append("timed out \(id): \(error)")
        case .deadlinePassed(let cutOff): lines.append("deadline passed: \(cutOff.map(\.description))")
        case .progress:
            // The end of a pass: frames flush there (LiveFramesTests), not a change of its own.
            break
        case .finished(let tree): lines.append("end \(render(tree))")
        }
    }

    private func render(_ tree: RenderTree?) -> String {
        guard let tree, let text = try? tree.rendered(as: .plain) else { return "-" }
        return "[\(text)]"
    }
}

private func events<C: Component>(
    _ component: C, cache: QueryCache = QueryCache(), order: RenderOptions.DeliveryOrder = .discovery
) async throws -> [String] {
    let log = EventLog()
    _ = try await _Resolver.run(
        { component }, cache: cache, options: RenderOptions(deliveryOrder: order), consumer: log)
    return log.lines
}

@Suite struct RenderEventTests {
    @Test func theShellThenEachBoundaryAsItResolves() async throws {
        let cache = QueryCache()
        cache.stub("a", with: .value("A"))
        cache.stub("b", with: .value("B"))
        let page = Group {
            Suspense {
                try Loaded("a")
            } fallback: {
                Text("a…")
            }
            Suspense {
                try Loaded("b")
            } fallback: {
                Text("b…")
            }
        }
        #expect(
            try await events(page, cache: cache) == [
                "shell pending=[\"0\", \"1\"] [a…b…]",
                "started a",
                "started b",
                "finished a",
                "resolved 0 [A]",
                "finished b",
                "resolved 1 [B]",
                "end [AB]",
            ])
    }

    @Test func theShellWaitsForWhatIsOutsideEverySuspense() async throws {
        let cache = QueryCache()
        cache.stub("outside", with: .value("O"))
        cache.stub("inside", with: .pending)
        let page = Group {
            try Loaded("outside")
            Suspense {
                try Loaded("inside")
            } fallback: {
                Text("…")
            }
        }
        #expect(
            try await events(page, cache: cache) == [
                "started outside",
                "finished outside",
                "shell pending=[\"1\"] [O…]",
                "end [O…]",
            ])
    }

    @Test func aPendingBoundaryReportsWhatItStillWaitsOn() async throws {
        let cache = QueryCache()
        cache.stub("a", with: .value("A"))
        cache.stub("b", with: .value("B"))
        let page = Suspense {
            try Loaded("a")
            try Loaded("b")
        } fallback: {
            Text("…")
        }
        let lines = try await events(page, cache: cache)
        #expect(lines.contains("waiting 0 […]"))
        #expect(lines.suffix(3) == ["finished b", "resolved 0 [AB]", "end [AB]"])
    }

    @Test func aLateErrorIsCaughtWithItsBoundarysSubtree() async throws {
        let cache = QueryCache()
        cache.stub("card", with: .failure(TestFailure("offline")))
        let page = ErrorBoundary {
            Suspense {
                try Loaded("card")
            } fallback: {
                Text("…")
            }
        } fallback: { error in
            Text("failed: \(error)")
        }
        #expect(
            try await events(page, cache: cache) == [
                "shell pending=[\"0.0\"] […]",
                "started card",
                "failed card: offline",
                "caught 0 offline [failed: offline]",
                "end [failed: offline]",
            ])
    }

    @Test func contentSuspendingAgainInAResolvedSuspenseReportsItSuspended() async throws {
        let cache = QueryCache()
        cache.stub("late", with: .failure(TestFailure("late")))
        cache.stub("recovery", with: .value("recovered"))
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
        #expect(
            try await events(page, cache: cache) == [
                "shell pending=[\"0.0.0\"] [inner…]",
                "started late",
                "failed late: late",
                "caught 0.0 late []",
                "suspended 0 [outer…]",
                "started recovery",
                "finished recovery",
                "resolved 0 [recovered]",
                "end [recovered]",
            ])
    }

    @Test func aRenderJoiningAQueryInFlightSaysSo() async throws {
        let cache = QueryCache()
        let gate = Counter()
        let runs = Counter()
        struct Gated: Component {
            let value: String
            init(runs: Counter, gate: Counter) throws {
                value = try resolveValue(key: "shared") {
                    runs.increment()
                    try await waitUntil("the gate to open") { gate.value > 0 }
                    return "v"
                }
            }
            var body: some Component { Text(value) }
        }
        async let first = events(Suspense { try Gated(runs: runs, gate: gate) }, cache: cache)
        try await waitUntil("the first render to start the query", seconds: 60) { runs.value == 1 }
        async let second = events(Suspense { try Gated(runs: runs, gate: gate) }, cache: cache)
        try await waitUntil("the second render to join", seconds: 60) { cache.subscriberCount(of: "shared") == 2 }
        gate.increment()
        let (firstLines, secondLines) = try await (first, second)
        #expect(firstLines.contains("started shared"))
        #expect(secondLines.contains("joined shared"))
        #expect(runs.value == 1)
    }
}
