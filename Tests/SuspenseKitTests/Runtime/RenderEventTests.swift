import SuspenseTesting
import Testing

@testable import SuspenseKit

/// Records a render's events as lines, with the `.tree` of each subtree, the time of each, and
/// how many trees the events carried. Locked, so that a test may read it while the render runs.
private final class EventLog: RenderObserver, @unchecked Sendable {
    struct Entry: Equatable {
        let time: Duration
        let line: String
    }

    private let state = Locked((entries: [Entry](), shellTrees: 0, boundaryTrees: 0, passTrees: 0))

    var entries: [Entry] { state.withLock { $0.entries } }
    var lines: [String] { entries.map(\.line) }
    /// Each line after its time: `2.0 seconds: finished slow`.
    var timedLines: [String] { entries.map { "\($0.time): \($0.line)" } }
    /// Trees carried by the shell, by boundary events (and `.updated`), by `.progress`.
    var trees: (shell: Int, boundaries: Int, passes: Int) {
        state.withLock { ($0.shellTrees, $0.boundaryTrees, $0.passTrees) }
    }

    func observe(_ event: RenderEvent) {
        var carried: (shell: Bool, boundary: Bool, pass: Bool) = (false, false, false)
        let line: String?
        switch event.kind {
        case .shell(let tree, let pending, _):
            carried.shell = tree != nil
            line = "shell pending=\(pending.map(\.description)) \(render(tree))"
        case .resolved(let id, let tree):
            carried.boundary = tree != nil
            line = "resolved \(id) \(render(tree))"
        case .suspended(let id, let tree):
            carried.boundary = tree != nil
            line = "suspended \(id) \(render(tree))"
        case .waiting(let id, let tree):
            carried.boundary = tree != nil
            line = "waiting \(id) \(render(tree))"
        case .caught(let id, let tree, let error):
            carried.boundary = tree != nil
            line = "caught \(id) \(error.map { "\($0)" } ?? "") \(render(tree))"
        case .updated(let tree):
            carried.boundary = tree != nil
            line = "updated \(render(tree))"
        case .queryStarted(let key, let joined, let cause):
            line = "\(joined ? "joined" : "started") \(key) by \(cause)"
        case .queryFinished(let key): line = "finished \(key)"
        case .queryFailed(let key, let error): line = "failed \(key): \(error)"
        case .queryCancelled(let key): line = "cancelled \(key)"
        case .timedOut(let id, let error): line = "timed out \(id): \(error)"
        case .deadlinePassed(let cutOff): line = "deadline passed: \(cutOff.map(\.description))"
        case .revealedTogether: line = "revealed together"
        case .progress(let tree, _):
            // The end of a pass: frames flush there (LiveFramesTests), not a change of its own.
            carried.pass = tree != nil
            line = nil
        case .finished(let tree): line = "end \(render(tree))"
        }
        state.withLock { state in
            if let line { state.entries.append(Entry(time: event.time, line: line)) }
            if carried.shell { state.shellTrees += 1 }
            if carried.boundary { state.boundaryTrees += 1 }
            if carried.pass { state.passTrees += 1 }
        }
    }

    private func render(_ tree: RenderTree?) -> String {
        guard let tree, let text = try? tree.rendered(as: .plain) else { return "-" }
        return "[\(text)]"
    }
}

/// Runs a render of `component` in `mode` (frames' by default) with `observers`.
private func observe<C: Component>(
    _ component: C, cache: QueryCache = QueryCache(), options: RenderOptions = RenderOptions(deliveryOrder: .discovery),
    mode: RenderMode = .frames, observers: [any RenderObserver]
) async throws {
    _ = try await _Resolver.run({ component }, cache: cache, options: options, mode: mode, observers: observers)
}

/// The lines of a render's events.
private func events<C: Component>(
    _ component: C, cache: QueryCache = QueryCache(), order: RenderOptions.DeliveryOrder = .discovery
) async throws -> [String] {
    let log = EventLog()
    try await observe(component, cache: cache, options: RenderOptions(deliveryOrder: order), observers: [log])
    return log.lines
}

/// Whether `times` never go back.
private func nonDecreasing(_ times: [Duration]) -> Bool {
    zip(times, times.dropFirst()).allSatisfy { $0 <= $1 }
}

@Suite struct RenderEventTests {
    @Test func theShellThenEachBoundaryAsItResolves() async throws {
        let cache = QueryCache()
        cache.stub(.value("A"), for: "a")
        cache.stub(.value("B"), for: "b")
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
                "started a by first pass",
                "started b by first pass",
                "finished a",
                "resolved 0 [A]",
                "finished b",
                "resolved 1 [B]",
                "end [AB]",
            ])
    }

    @Test func theShellWaitsForWhatIsOutsideEverySuspense() async throws {
        let cache = QueryCache()
        cache.stub(.value("O"), for: "outside")
        cache.stub(.pending, for: "inside")
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
                "started outside by first pass",
                "finished outside",
                "shell pending=[\"1\"] [O…]",
                "end [O…]",
            ])
    }

    @Test func aPendingBoundaryReportsWhatItStillWaitsOn() async throws {
        let cache = QueryCache()
        cache.stub(.value("A"), for: "a")
        cache.stub(.value("B"), for: "b")
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
        cache.stub(.failure(TestFailure("offline")), for: "card")
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
                "started card by first pass",
                "failed card: offline",
                "caught 0 offline [failed: offline]",
                "end [failed: offline]",
            ])
    }

    @Test func contentSuspendingAgainInAResolvedSuspenseReportsItSuspended() async throws {
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
        #expect(
            try await events(page, cache: cache) == [
                "shell pending=[\"0.0.0\"] [inner…]",
                "started late by first pass",
                "failed late: late",
                "caught 0.0 late []",
                "suspended 0 [outer…]",
                "started recovery by result of late",
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
        try await waitUntil("the first render to start the query") { runs.value == 1 }
        async let second = events(Suspense { try Gated(runs: runs, gate: gate) }, cache: cache)
        try await waitUntil("the second render to join") { cache.subscriberCount(of: "shared") == 2 }
        gate.increment()
        let (firstLines, secondLines) = try await (first, second)
        #expect(firstLines.contains("started shared by first pass"))
        #expect(secondLines.contains("joined shared by first pass"))
        #expect(runs.value == 1)
    }

    // MARK: Time

    @Test func eachEventCarriesItsTimeOnTheRendersClock() async throws {
        let clock = TestClock()
        struct Slow: Component {
            let value: String
            init(clock: TestClock) throws {
                value = try resolveValue(key: "slow") {
                    try await clock.sleep(for: .seconds(2))
                    return "S"
                }
            }
            var body: some Component { Text(value) }
        }
        let log = EventLog()
        let page = Suspense {
            try Slow(clock: clock)
        } fallback: {
            Text("…")
        }
        async let rendered: Void = observe(page, options: RenderOptions(clock: clock), observers: [log])
        try await waitUntil("the query to start") { log.lines.contains("started slow by first pass") }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(2))
        try await rendered
        #expect(
            log.timedLines == [
                "0.0 seconds: shell pending=[\"0\"] […]",
                "0.0 seconds: started slow by first pass",
                "2.0 seconds: finished slow",
                "2.0 seconds: resolved 0 [S]",
                "2.0 seconds: end [S]",
            ])
    }

    @Test func timesNeverGoBackOnTheContinuousClock() async throws {
        let log = EventLog()
        let page = Group {
            Suspense {
                try Loaded("a")
                try Loaded("b")
            } fallback: {
                Text("…")
            }
            Suspense {
                try Loaded("c")
            } fallback: {
                Text("…")
            }
        }
        try await observe(page, options: RenderOptions(), observers: [log])
        #expect(log.entries.count >= 8)
        #expect(nonDecreasing(log.entries.map(\.time)))
    }

    // MARK: Causes

    /// Reads "a"; once it loaded, its child reads "b": "b" cannot start before "a" finished.
    struct Waterfall: Component {
        let value: String
        init() throws {
            value = try resolveValue(key: "a") {
                await Task.yield()
                return "A"
            }
        }
        var body: some Component {
            Text(value)
            try Loaded("b")
        }
    }

    @Test func aQueryStartedByAnotherQuerysResultSaysSo() async throws {
        // Neither key is stubbed: both start at once, in the component's thread, and are
        // discovered by the pass as they suspend.
        let log = EventLog()
        let page = Suspense {
            try Waterfall()
        } fallback: {
            Text("…")
        }
        try await observe(page, observers: [log])
        #expect(
            log.lines.filter { $0.hasPrefix("started") } == [
                "started a by first pass",
                "started b by result of a",
            ])
        #expect(log.lines.last == "end [Ab]")
        #expect(nonDecreasing(log.entries.map(\.time)))
    }

    @Test func siblingReadsAreBothStartedByTheFirstPass() async throws {
        let log = EventLog()
        let page = Suspense {
            try Loaded("left")
            try Loaded("right")
        } fallback: {
            Text("…")
        }
        try await observe(page, observers: [log])
        #expect(
            log.lines.filter { $0.hasPrefix("started") } == [
                "started left by first pass",
                "started right by first pass",
            ])
    }

    @Test func aQueryStartedByAFailureSaysWhichQueryFailed() async throws {
        let cache = QueryCache()
        cache.stub(.failure(TestFailure("offline")), for: "feed")
        cache.stub(.value("stale"), for: "cached copy")
        let page = Suspense {
            ErrorBoundary {
                try Loaded("feed")
            } fallback: { _ in
                try Loaded("cached copy")
            }
        } fallback: {
            Text("…")
        }
        let lines = try await events(page, cache: cache)
        #expect(
            lines.filter { $0.hasPrefix("started") } == [
                "started feed by first pass", "started cached copy by result of feed",
            ])
        #expect(lines.last == "end [stale]")
    }

    @Test func aQueryStartedByATimeoutSaysWhichSuspenseTimedOut() async throws {
        let clock = TestClock()
        let hang = Hang()
        let cache = QueryCache()
        cache.stub(.value("recovered"), for: "recovery")
        let page = Suspense {
            ErrorBoundary {
                Suspense(timeout: .seconds(2)) {
                    try Hanging("slow", hang: hang)
                } fallback: {
                    Text("…")
                }
            } fallback: { _ in
                try Loaded("recovery")
            }
        } fallback: {
            Text("outer…")
        }
        let log = EventLog()
        async let rendered: Void = observe(page, cache: cache, options: options(clock), observers: [log])
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(2))
        try await rendered
        #expect(
            log.lines.filter { $0.hasPrefix("started") } == [
                "started slow by first pass",
                "started recovery by timeout of 0.0.0",
            ])
        #expect(log.timedLines.last == "2.0 seconds: end [recovered]")
    }

    @Test func contentTriedAgainAfterABackoffIsStartedByTheRetry() async throws {
        let clock = TestClock()
        let flaky = Flaky(failures: 1)
        struct Card: Component {
            let value: String
            init(flaky: Flaky) throws {
                value = try resolveValue(key: "card") {
                    await Task.yield()
                    return try flaky.value()
                }
            }
            var body: some Component { Text(value) }
        }
        let page = Suspense {
            ErrorBoundary(retry: RetryPolicy(maxAttempts: 2, initialDelay: .seconds(1))) {
                try Card(flaky: flaky)
            } fallback: { _ in
                Text("failed")
            }
        } fallback: {
            Text("…")
        }
        let log = EventLog()
        async let rendered: Void = observe(page, options: options(clock), observers: [log])
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        try await rendered
        #expect(
            log.lines.filter { $0.hasPrefix("started") } == [
                "started card by first pass",
                "started retry of ErrorBoundary #0.0 after attempt 1 by result of card",
                "started card by retry of 0.0",
            ])
        #expect(log.timedLines.last == "1.0 seconds: end [loaded after 2 calls]")
    }

    // MARK: Observers

    @Test func everyObserverOfARenderReceivesTheSameEventsInOrder() async throws {
        let cache = QueryCache()
        cache.stub(.value("A"), for: "a")
        cache.stub(.failure(TestFailure("offline")), for: "b")
        let page = Group {
            Suspense {
                try Loaded("a")
            } fallback: {
                Text("a…")
            }
            ErrorBoundary {
                Suspense {
                    try Loaded("b")
                } fallback: {
                    Text("b…")
                }
            } fallback: { _ in
                Text("b failed")
            }
        }
        let first = EventLog()
        let second = EventLog()
        try await observe(page, cache: cache, observers: [first, second])
        #expect(first.entries.count == 8)
        #expect(first.entries == second.entries)
        #expect(first.trees == second.trees)
    }

    // MARK: Modes

    @Test func eachEntryPointChoosesWhatItsRenderBuilds() async throws {
        let modes = RenderModeLog()
        try await RenderModeLog.$current.withValue(modes) {
            _ = try await render(Text("page"))
            _ = try await render(Text("page"), as: .plain)
            _ = try await render(Text("page"), as: .tree)
            _ = try await renderResponse(Text("page"))
            _ = try await resolve(Text("page"))
            _ = try await resolveFrames(Text("page"))
            for try await _ in liveFrames(Text("page")) {}
            _ = try await renderStream(Text("page")).collect()
            _ = try await renderStream(Text("page"), stream: StreamOptions(order: .inOrder)).collect()
        }
        #expect(
            modes.all == [
                .wholeOutput, .wholeOutput, .wholeTree, .wholeOutput, .wholeTree, .frames, .frames,
                .stream(.outOfOrder), .stream(.inOrder),
            ])
        #expect(modes.all[2] == RenderMode(subtrees: false, passTrees: false, fallbackTiming: false))
        // Only what shows components keeps a node for each: the tree format, `resolve` and frames.
        #expect(modes.all.map(\.componentNodes) == [false, false, true, false, true, true, true, false, false])
    }

    /// A page of components, two levels deep, one of them suspending.
    private struct Card: Component {
        let title: String
        var body: some Component {
            Element("article") {
                Element("h2") { Text(title) }
                Group {
                    Byline()
                    Suspense {
                        try Loaded("views")
                    } fallback: {
                        Text("…")
                    }
                }
            }
        }
    }

    private struct Byline: Component {
        var body: some Component { Element("p") { Text("by us") } }
    }

    @Test func aRenderForMarkupLeavesComponentsOutOfItsTreeAndWritesTheSamePage() async throws {
        var pages: [String] = []
        var componentEntries: [Int] = []
        var entries: [Int] = []
        for mode in [RenderMode.wholeTree, .wholeOutput] {
            let page = Element("main") {
                ForEach(["a", "b", "c"]) { Card(title: $0) }
            }
            let tree = try await _Resolver.run(
                { page }, cache: QueryCache(), options: RenderOptions(), mode: mode, observers: [])
            pages.append(try HTMLRenderer.renderCompactString(tree))
            componentEntries.append(tree.entries.filter { $0.kind == .component }.count)
            entries.append(tree.entries.count)
        }
        let card = "<article><h2>X</h2><p>by us</p>views</article>"
        let expected =
            "<main>" + ["a", "b", "c"].map { card.replacingOccurrences(of: "X", with: $0) }.joined() + "</main>"
        #expect(pages == [expected, expected])
        // Three cards, each with a byline and a component made again once its key loaded.
        #expect(componentEntries == [9, 0])
        #expect(entries[0] - entries[1] == 9)
    }

    /// Two boundaries resolving after the shell, one pass each.
    private static func twoBoundaries() -> (some Component, QueryCache) {
        let cache = QueryCache()
        cache.stub(.value("A"), for: "a")
        cache.stub(.value("B"), for: "b")
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
        return (page, cache)
    }

    @Test func aWholeTreeRenderBuildsNoTreeBeforeTheFinalOne() async throws {
        let (page, cache) = Self.twoBoundaries()
        let log = EventLog()
        try await observe(page, cache: cache, mode: .wholeTree, observers: [log])
        #expect(log.lines.contains("resolved 0 -"))
        #expect(log.lines.last == "end [AB]")
        #expect(log.trees == (shell: 0, boundaries: 0, passes: 0))
    }

    @Test func framesBuildEachBoundarysSubtreeAndNoWholeTreePerPass() async throws {
        let (page, cache) = Self.twoBoundaries()
        let log = EventLog()
        try await observe(page, cache: cache, mode: .frames, observers: [log])
        #expect(log.trees == (shell: 1, boundaries: 2, passes: 0))
    }

    @Test func streamsBuildWhatTheirOrderSends() async throws {
        let (page, cache) = Self.twoBoundaries()
        let outOfOrder = EventLog()
        try await observe(page, cache: cache, mode: .stream(.outOfOrder), observers: [outOfOrder])
        #expect(outOfOrder.trees == (shell: 1, boundaries: 2, passes: 0))
        let (samePage, sameCache) = Self.twoBoundaries()
        let inOrder = EventLog()
        try await observe(samePage, cache: sameCache, mode: .stream(.inOrder), observers: [inOrder])
        #expect(inOrder.trees == (shell: 1, boundaries: 0, passes: 2))
    }

    @Test func onlyModesThatShowIntermediateStatesWaitForFallbackTiming() async throws {
        // The clock never moves: a render that honoured the minimum would never end.
        let cache = QueryCache()
        cache.stub(.value("A"), for: "a")
        let page = Suspense(minimumFallbackDuration: .seconds(5)) {
            try Loaded("a")
        } fallback: {
            Text("…")
        }
        let log = EventLog()
        try await observe(page, cache: cache, options: options(TestClock()), mode: .wholeTree, observers: [log])
        #expect(log.lines.last == "end [A]")
        #expect(!RenderMode.wholeTree.fallbackTiming)
        #expect(RenderMode.frames.fallbackTiming && RenderMode.stream(.outOfOrder).fallbackTiming)
        #expect(RenderMode.stream(.inOrder).fallbackTiming)
    }
}
