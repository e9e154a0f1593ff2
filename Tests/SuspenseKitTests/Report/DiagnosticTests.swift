import SuspenseTesting
import Testing

@testable import SuspenseKit

/// Each `Diagnostic.Code`: it fires on the code it names, and not on the code that fixes it.
@Suite(.timeLimit(.minutes(3)))
struct DiagnosticTests {
    /// Catches its own suspension: shows "stranger" whenever the query is slower than the render.
    struct Greeting: Component {
        let name: String
        init(gates: Gates, made: Counter = Counter()) {
            name = (try? resolveValue(key: "name") { try await gates.value("name") }) ?? "stranger"
            made.increment()
        }
        var body: some Component { Text("Hello \(name)") }
    }

    /// The same, fixed: the promise reaches the Suspense.
    struct FixedGreeting: Component {
        let name: String
        init(gates: Gates) throws {
            name = try resolveValue(key: "name") { try await gates.value("name") }
        }
        var body: some Component { Text("Hello \(name)") }
    }

    /// Catches its own suspension in its body.
    struct BodyGreeting: Component {
        let gates: Gates
        var made = Counter()
        var body: some Component {
            let name = (try? resolveValue(key: "name") { try await gates.value("name") }) ?? "stranger"
            made.increment()
            return Text("Hello \(name)")
        }
    }

    @Test func aComponentThatCatchesItsPromiseIsASwallowedSuspension() async throws {
        let gates = Gates()
        let box = ReportBox()
        let made = Counter()
        let page = Suspense {
            Greeting(gates: gates, made: made)
        } fallback: {
            Text("Loading…")
        }
        async let output = render(page, as: .plain, options: box.options())
        // The gate opens once the component has caught the promise, not while it reads.
        try await waitUntil("the component to be made") { made.value == 1 }
        gates.open("name")
        #expect(try await output == "Hello stranger")
        let diagnostic = try #require(box.diagnostics.first)
        #expect(box.diagnostics.count == 1)
        #expect(diagnostic.code == .swallowedSuspension)
        #expect(diagnostic.component == "Greeting")
        #expect(diagnostic.keys == ["name"])
        #expect(diagnostic.message.contains("the initializer of Greeting"))
        #expect(diagnostic.message.contains("Let the Promise propagate to a Suspense"))
        #expect(box.report?.diagnostics == box.diagnostics)
    }

    @Test func aBodyThatCatchesItsPromiseIsASwallowedSuspension() async throws {
        let gates = Gates()
        let box = ReportBox()
        let made = Counter()
        async let output = render(BodyGreeting(gates: gates, made: made), as: .plain, options: box.options())
        // The gate opens once the body has caught the promise, not while it reads.
        try await waitUntil("the body to be evaluated") { made.value == 1 }
        gates.open("name")
        #expect(try await output == "Hello stranger")
        #expect(box.diagnostics.map(\.code) == [.swallowedSuspension])
        #expect(box.diagnostics.first?.message.contains("the body of BodyGreeting") == true)
    }

    @Test func aComponentThatLetsItsPromiseGoHasNoDiagnostic() async throws {
        let gates = Gates()
        let box = ReportBox()
        let page = Suspense {
            try FixedGreeting(gates: gates)
        } fallback: {
            Text("Loading…")
        }
        async let output = render(page, as: .plain, options: box.options())
        try await waitUntil("the query to start") { gates.runs.value == 1 }
        gates.open("name")
        #expect(try await output == "Hello name loaded")
        #expect(box.diagnostics.isEmpty)
        #expect(box.report?.diagnostics.isEmpty == true)
    }

    @Test func readingOneKeyAfterAnotherIsSequentialQueries() async throws {
        let clock = TestClock()
        let box = ReportBox()
        let page = Suspense {
            try Sequential("user", then: "posts", after: .milliseconds(10), clock: clock)
        } fallback: {
            Text("Loading…")
        }
        async let output = render(page, as: .plain, options: box.options(RenderOptions(clock: clock)))
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(10))
        await clock.waitForSleeper(dueAt: .milliseconds(20))
        clock.advance(by: .milliseconds(10))
        #expect(try await output == "user and posts")
        let diagnostic = try #require(box.diagnostics.first)
        #expect(box.diagnostics.count == 1)
        #expect(diagnostic.code == .sequentialQueries)
        #expect(diagnostic.component == "Sequential")
        #expect(diagnostic.keys == ["user", "posts"])
        #expect(diagnostic.boundary?.description == "0")
        #expect(diagnostic.message.contains("resolveValues"))
        #expect(diagnostic.time == .milliseconds(10))
    }

    @Test func readingBothKeysAtOnceWithResolveValuesIsNotSequential() async throws {
        let clock = TestClock()
        let box = ReportBox()
        let page = Suspense {
            try Parallel("user", "posts", after: .milliseconds(10), clock: clock)
        } fallback: {
            Text("Loading…")
        }
        async let output = render(page, as: .plain, options: box.options(RenderOptions(clock: clock)))
        await clock.waitForSleepers(2)
        clock.advance(by: .milliseconds(10))
        #expect(try await output == "user and posts")
        #expect(box.diagnostics.isEmpty)
        #expect(box.query("posts")?.cause == .firstPass)
    }

    /// Shows a child that reads its own key only once the parent's has arrived.
    struct Parent: Component {
        let clock: TestClock
        let user: String
        init(clock: TestClock) throws {
            self.clock = clock
            user = try resolveValue(key: "user") {
                try await clock.sleep(for: .milliseconds(10))
                return "Ann"
            }
        }
        var body: some Component {
            Text(user)
            try Timed("posts/\(user)", after: .milliseconds(10), clock: clock)
        }
    }

    @Test func aChildThatReadsOnlyOnceItsParentsKeyArrivedIsSequentialInItsBoundary() async throws {
        let clock = TestClock()
        let box = ReportBox()
        let page = Suspense {
            try Parent(clock: clock)
        } fallback: {
            Text("Loading…")
        }
        async let output = render(page, as: .plain, options: box.options(RenderOptions(clock: clock)))
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(10))
        await clock.waitForSleeper(dueAt: .milliseconds(20))
        clock.advance(by: .milliseconds(10))
        _ = try await output
        #expect(box.diagnostics.map(\.code) == [.sequentialQueries])
        #expect(box.diagnostics.first?.keys == ["user", "posts/Ann"])
        #expect(box.diagnostics.first?.component == "Timed")
    }

    @Test func aStreamWhoseShellWaitsOnDataIsSuspendedOutsideBoundary() async throws {
        let clock = TestClock()
        let box = ReportBox()
        let page = Group {
            try Timed("nav", after: .milliseconds(10), clock: clock)
            Suspense {
                try Timed("body", after: .milliseconds(10), clock: clock)
            } fallback: {
                Text("Loading…")
            }
        }
        async let stream = renderStream(page, options: box.options(RenderOptions(clock: clock)))
        await clock.waitForSleepers(2)
        clock.advance(by: .milliseconds(10))
        for try await _ in try await stream {}
        #expect(box.diagnostics.map(\.code) == [.suspendedOutsideBoundary])
        #expect(box.diagnostics.first?.keys == ["nav"])
        #expect(box.diagnostics.first?.component == "Timed")
    }

    @Test func aStreamWhoseShellWaitsOnNothingAndAWholeRenderHaveNoSuchDiagnostic() async throws {
        let clock = TestClock()
        let box = ReportBox()
        let inside = Suspense {
            try Timed("body", after: .milliseconds(10), clock: clock)
        } fallback: {
            Text("…")
        }
        let stream = try await renderStream(inside, options: box.options(RenderOptions(clock: clock)))
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(10))
        for try await _ in stream {}
        #expect(box.diagnostics.isEmpty)

        // A whole render has no shell to send early: waiting outside a Suspense costs nothing there.
        let wholeClock = TestClock()
        let whole = ReportBox()
        async let output = render(
            Group { try Timed("nav", after: .milliseconds(10), clock: wholeClock) }, as: .plain,
            options: whole.options(RenderOptions(clock: wholeClock)))
        await wholeClock.waitForSleepers(1)
        wholeClock.advance(by: .milliseconds(10))
        _ = try await output
        #expect(whole.diagnostics.isEmpty)
    }

    /// Its query answers only after a pause, so that the component always suspends on it.
    struct Unstable: Component {
        let value: String
        init(counter: Counter) throws {
            let key = "unstable/\(counter.increment())"
            value = try resolveValue(key: key) {
                await Task.yield()
                try await Task.sleep(for: .milliseconds(1))
                return key
            }
        }
        var body: some Component { Text(value) }
    }

    @Test func aKeyThatChangesOnEveryEvaluationIsAnUnstableKeyBeforeTheError() async throws {
        let log = Log()
        let counter = Counter()
        let options = RenderOptions(maxResuspensions: 2)
            .onDiagnostic { diagnostic in log.append("\(diagnostic.code)") }
            .onCaughtError { _ in log.append("caught") }
        let page = ErrorBoundary {
            Suspense {
                try Unstable(counter: counter)
            } fallback: {
                Text("Loading…")
            }
        } fallback: { error in
            Text("failed")
        }
        #expect(try await render(page, as: .plain, options: options) == "failed")
        #expect(log.all == ["unstableKey", "caught"])
    }

    @Test func aStableKeyHasNoUnstableKeyDiagnostic() async throws {
        let box = ReportBox()
        let gates = Gates()
        let page = Suspense {
            try Gated("stable", gates: gates)
        } fallback: {
            Text("Loading…")
        }
        async let output = render(page, as: .plain, options: box.options(RenderOptions(maxResuspensions: 0)))
        try await waitUntil("the query to start") { gates.runs.value == 1 }
        gates.open("stable")
        #expect(try await output == "stable loaded")
        #expect(box.diagnostics.isEmpty)
    }

    @Test func anErrorNoBoundaryCatchesAfterTheShellIsUncaughtAfterShell() async throws {
        let clock = TestClock()
        let box = ReportBox()
        let page = Suspense {
            try Timed("feed", after: .milliseconds(10), clock: clock, fails: true)
        } fallback: {
            Text("Loading…")
        }
        let stream = try await renderStream(page, options: box.options(RenderOptions(clock: clock)))
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(10))
        await #expect(throws: RenderError.self) { for try await _ in stream {} }
        #expect(box.diagnostics.map(\.code) == [.uncaughtAfterShell])
        #expect(box.diagnostics.first?.message.contains("ErrorBoundary") == true)
        #expect(box.report?.error != nil)
    }

    @Test func anErrorBeforeTheShellOrOneABoundaryCatchesIsNotUncaughtAfterShell() async throws {
        let box = ReportBox()
        await #expect(throws: RenderError.self) {
            try await renderStream(Group { try Thrower("boom") }, options: box.options())
        }
        #expect(box.diagnostics.isEmpty)
        #expect(box.reportCount == 1)

        let clock = TestClock()
        let caught = ReportBox()
        let page = ErrorBoundary {
            Suspense {
                try Timed("feed", after: .milliseconds(10), clock: clock, fails: true)
            } fallback: {
                Text("Loading…")
            }
        } fallback: { _ in
            Text("unavailable")
        }
        let stream = try await renderStream(page, options: caught.options(RenderOptions(clock: clock)))
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(10))
        for try await _ in stream {}
        #expect(caught.diagnostics.isEmpty)
    }

    @Test func withNobodyAskingNoCollectorIsMade() async throws {
        #expect(
            ReportCollector.make(for: RenderOptions(), mode: .wholeTree, clock: RenderClock(ContinuousClock())) == nil)
        #expect(
            ReportCollector.make(
                for: RenderOptions().onDiagnostic { _ in }, mode: .wholeTree, clock: RenderClock(ContinuousClock()))
                != nil)
    }
}
