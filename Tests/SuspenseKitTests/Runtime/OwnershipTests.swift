import SuspenseTesting
import Testing

@testable import SuspenseKit

/// Counts the instances of `Tracked` that are alive: a render owns nothing once it returns or
/// throws, so the count must be back to zero after every kind of render.
private final class LiveCount: Sendable {
    let count = Counter()
    let made = Counter()
}

/// One instance per component value, per query closure and per fallback: whatever a render
/// captures holds one, and releases it only when it is itself released.
private final class Tracked: Sendable {
    let live: LiveCount

    init(_ live: LiveCount) {
        self.live = live
        live.count.increment()
        live.made.increment()
    }

    deinit {
        live.count.decrement()
    }
}

/// A component that holds a `Tracked`, and whose query closure captures another.
private struct Holder: Component {
    let tracked: Tracked
    let text: String

    init(_ key: String, live: LiveCount, fails: Bool = false, suspends: Bool = true) throws {
        tracked = Tracked(live)
        let captured = Tracked(live)
        text = try resolveValue(key: key) {
            _ = captured
            if suspends { await Task.yield() }
            if fails { throw TestFailure("\(key) failed") }
            return key
        }
    }

    var body: some Component { Text(text) }
}

/// A component for a typed Suspense: suspends on a keyless promise until it has the value.
private struct TypedHolder: Component {
    let tracked: Tracked
    let value: Int

    init(value: Int?, live: LiveCount) throws {
        tracked = Tracked(live)
        let captured = Tracked(live)
        self.value = try resolveValue(value) {
            _ = captured
            await Task.yield()
            return 7
        }
    }

    var body: some Component { Text("\(value)") }
}

/// A component whose query never ends on its own, only when it is cancelled.
private struct NeverEnding: Component {
    let tracked: Tracked

    init(_ key: String, live: LiveCount, started: Counter) throws {
        tracked = Tracked(live)
        let captured = Tracked(live)
        let _: Int = try resolveValue(key: key) {
            _ = captured
            started.increment()
            try await Task.sleep(for: .seconds(3600))
            return 0
        }
    }

    var body: some Component { Text("never") }
}

/// Every closure of its body captures the page, so its `token` stays alive as long as any
/// closure the render keeps (a boundary's content, a suspended child's thunk) is alive.
private struct Page: Component {
    let live: LiveCount
    let count: Int
    let token: Tracked

    init(live: LiveCount, count: Int) {
        self.live = live
        self.count = count
        self.token = Tracked(live)
    }

    var body: some Component {
        ErrorBoundary {
            Suspense {
                ForEach(0..<count) { index in
                    try Holder("item/\(index)", live: live, fails: index == 3)
                }
            } fallback: {
                FallbackText(live: live)
            }
            Suspense { (value: Int?) in
                try TypedHolder(value: value, live: live)
            }
            Suspense {
                // Never resolves: its slot, and the thunk that would evaluate it again, live
                // until the render ends.
                try Holder("forever", live: live)
                Text(token.live === live ? "" : "?")
            }
        } fallback: { error in
            FallbackText(live: live)
        }
        Suspense {
            ForEach(0..<count) { index in
                try Holder("other/\(index)", live: live)
            }
        } fallback: {
            FallbackText(live: live)
        }
    }
}

/// An environment value that holds a `Tracked`.
private struct TrackedKey: EnvironmentKey {
    static let defaultValue: Tracked? = nil
}

extension EnvironmentValues {
    fileprivate var tracked: Tracked? {
        get { self[TrackedKey.self] }
        set { self[TrackedKey.self] = newValue }
    }
}

/// Reads the environment's `Tracked` and captures it in its query closure; suspends on `key`.
private struct EnvironmentHolder: Component {
    @Environment(\.tracked) var tracked
    let text: String

    init(_ key: String) throws {
        @Environment(\.tracked) var captured
        text = try resolveValue(key: key) { [captured] in
            _ = captured
            await Task.yield()
            return key
        }
    }

    var body: some Component { Text(tracked == nil ? "none" : text) }
}

/// Sets a `Tracked` made during the render on subtrees that suspend, resolve, or never resolve.
private struct EnvironmentPage: Component {
    let live: LiveCount

    var body: some Component {
        Suspense {
            ForEach(0..<10) { index in
                try EnvironmentHolder("env/\(index)")
            }
            Suspense {
                try EnvironmentHolder("forever")
            } fallback: {
                FallbackText(live: live)
            }
            .environment(\.tracked, Tracked(live))
        }
        .environment(\.tracked, Tracked(live))
    }
}

private struct FallbackText: Component {
    let tracked: Tracked
    init(live: LiveCount) { tracked = Tracked(live) }
    var body: some Component { Text("…") }
}

/// Three minutes each at most: `TestClock.waitForSleepers` returns when the time limit cancels it.
@Suite(.timeLimit(.minutes(3)))
struct OwnershipTests {
    @Test func nothingARenderCapturedOutlivesIt() async throws {
        let live = LiveCount()
        let cache = QueryCache()
        cache.stub(.pending, for: "forever")
        for format in [RenderFormat.tree, .plain, .html] {
            _ = try await render(Page(live: live, count: 20), as: format, cache: cache)
            #expect(live.count.value == 0)
        }
        _ = try await resolve(Page(live: live, count: 20), cache: cache)
        #expect(live.count.value == 0)
        let frames = try await resolveFrames(Page(live: live, count: 20), cache: QueryCache.forever())
        #expect(frames.count > 1)
        #expect(live.count.value == 0)
        // The renders really made and suspended what they were given.
        #expect(live.made.value > 300)
    }

    @Test func environmentValuesSetDuringARenderDoNotOutliveIt() async throws {
        let live = LiveCount()
        let cache = QueryCache()
        cache.stub(.pending, for: "forever")
        let output = try await render(EnvironmentPage(live: live), as: .plain, cache: cache)
        #expect(output.hasPrefix("env/0env/1"))
        #expect(live.count.value == 0)
        let frames = try await resolveFrames(EnvironmentPage(live: live), cache: QueryCache.forever())
        #expect(frames.count > 1)
        #expect(live.count.value == 0)
        // Two values and a fallback per render.
        #expect(live.made.value == 6)
    }

    @Test func streamsAndLiveFramesReleaseEverythingOnceTheirRenderEnds() async throws {
        let live = LiveCount()
        for order in [StreamOptions.Order.outOfOrder, .inOrder] {
            let page = try await renderStream(
                Page(live: live, count: 20), cache: QueryCache.forever(), stream: StreamOptions(order: order)
            ).collect()
            #expect(page.contains("other/19"))
            // The stream ends when the render has returned; its task lets go of the page just after.
            try await waitUntil("the \(order) stream's render to let go") { live.count.value == 0 }
        }
        var frames = 0
        for try await _ in liveFrames(Page(live: live, count: 20), cache: QueryCache.forever()) { frames += 1 }
        #expect(frames > 1)
        try await waitUntil("the live frames' render to let go") { live.count.value == 0 }
        #expect(live.made.value > 300)
    }

    @Test func aStreamDroppedAfterItsShellReleasesEverything() async throws {
        let live = LiveCount()
        let started = Counter()
        do {
            let page = Suspense {
                ForEach(0..<10) { try NeverEnding("never/\($0)", live: live, started: started) }
            } fallback: {
                FallbackText(live: live)
            }
            var chunks = try await renderStream(page).makeAsyncIterator()
            _ = try await chunks.next()
            #expect(started.value == 10)
        }
        try await waitUntil("the dropped stream's render to let go") { live.count.value == 0 }
    }

    @Test func timedOutAndCutOffRendersReleaseEverything() async throws {
        let live = LiveCount()
        struct Timed: Component {
            let live: LiveCount
            let started: Counter
            var body: some Component {
                ErrorBoundary {
                    Suspense(timeout: .seconds(1)) {
                        try NeverEnding("timed", live: live, started: started)
                    } fallback: {
                        FallbackText(live: live)
                    }
                } fallback: { _ in
                    FallbackText(live: live)
                }
                Suspense {
                    try NeverEnding("cut", live: live, started: started)
                } fallback: {
                    FallbackText(live: live)
                }
            }
        }
        do {
            let clock = TestClock()
            let started = Counter()
            let options = RenderOptions(clock: clock, deadline: .seconds(2))
            async let output = render(Timed(live: live, started: started), as: .plain, options: options)
            await clock.waitForSleepers(2)
            clock.advance(by: .seconds(2))
            #expect(try await output == "……")
            #expect(started.value == 2)
            #expect(clock.sleeperCount == 0)
        }
        // Past the deadline the render does not wait for the queries it cancelled: they let go
        // of what they captured as they stop.
        try await waitUntil("every instance released") { live.count.value == 0 }
        #expect(live.made.value >= 6)
    }

    @Test func aFailedRenderReleasesEverything() async throws {
        let live = LiveCount()
        let token = Tracked(live)
        // The closures capture `token`: it lives as long as the render keeps any of them.
        let page = Suspense {
            ForEach(0..<10) { try Holder("fails/\($0)", live: token.live, fails: $0 == 5) }
        }
        await #expect(throws: RenderError.self) { try await render(page) }
        // Only the test's own token is left.
        #expect(live.count.value == 1)
        _ = token
    }

    @Test func aCancelledRenderReleasesEverything() async throws {
        let live = LiveCount()
        let started = Counter()
        let token = Tracked(live)
        let task = Task {
            try await render(
                Suspense { ForEach(0..<10) { try NeverEnding("never/\($0)", live: token.live, started: started) } })
        }
        try await waitUntil("the queries to start") { started.value == 10 }
        task.cancel()
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(live.count.value == 1)
        _ = token
    }

    @Test func queriesThatAnswerAtOnceKeepNothing() async throws {
        let live = LiveCount()
        let cache = QueryCache()
        let page = ErrorBoundary {
            Suspense {
                ForEach(0..<50) { try Holder("instant/\($0)", live: live, fails: $0 == 40, suspends: false) }
            }
        } fallback: { _ in
            Text("caught")
        }
        #expect(try await render(page, as: .plain, cache: cache) == "caught")
        let other = Suspense { ForEach(0..<50) { try Holder("fine/\($0)", live: live, suspends: false) } }
        _ = try await resolveFrames(other, cache: cache)
        #expect(live.count.value == 0)
        // 41 components of the first render (the 41st failed), 50 of the second, two each.
        #expect(live.made.value == 182)
        #expect(cache.runningQueryCount == 0)
    }

    @Test func repeatedRendersSharingACacheKeepNothingButTheCachedValues() async throws {
        let live = LiveCount()
        let cache = QueryCache()
        for round in 0..<5 {
            // New keys each round, so that every round suspends.
            let page = Suspense {
                ForEach(0..<50) { try Holder("round\(round)/\($0)", live: live) }
            }
            _ = try await render(page, cache: cache)
            #expect(live.count.value == 0)
            #expect(cache.runningQueryCount == 0)
        }
        #expect(cache.value(for: "round4/49", as: String.self) == "round4/49")
    }
}

extension QueryCache {
    fileprivate static func forever() -> QueryCache {
        let cache = QueryCache()
        cache.stub(.pending, for: "forever")
        return cache
    }
}
