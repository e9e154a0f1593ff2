import Testing

@testable import SuspenseKit

/// `levels` nested components, each in an element: the deep shape of a page built by recursion.
struct Chain: Component {
    let levels: Int
    let made: Counter?

    init(levels: Int, made: Counter? = nil) {
        self.levels = levels
        self.made = made
        made?.increment()
    }

    var body: some Component {
        Element("div") {
            if levels > 1 {
                Chain(levels: levels - 1, made: made)
            } else {
                Text("bottom")
            }
        }
    }
}

/// `depth` nested `Group`s, each with siblings: no component, no element, only builder levels.
struct NestedGroups: Component {
    typealias Body = Never
    let depth: Int

    static func _resolve(_ component: Self, in resolver: _Resolver) throws {
        let depth = component.depth
        let group = Group {
            Text("<")
            if depth > 1 { NestedGroups(depth: depth - 1) }
            Text(">")
        }
        try type(of: group)._resolve(group, in: resolver)
    }
}

/// Shows a value that never loads: a timeout always fires before it.
struct NeverLoads: Component {
    init(hang: Hang) throws {
        _ = try resolveValue(key: "never") { try await hang.value("never") }
    }
    var body: some Component { Text("loaded") }
}

/// A Suspense whose timeout fires; its ErrorBoundary's fallback is a chain `levels` deep.
struct TimesOut: Component {
    let levels: Int
    let hang: Hang
    var body: some Component {
        ErrorBoundary {
            Suspense(timeout: .milliseconds(5)) {
                try NeverLoads(hang: hang)
            } fallback: {
                Text("Loading…")
            }
        } fallback: { _ in
            Chain(levels: levels)
        }
    }
}

/// Renders on an actor of its own: isolated, off the main actor.
actor Renderer {
    func render(levels: Int) async throws -> String {
        try await SuspenseKit.render(Chain(levels: levels), as: .plain)
    }

    func renderTimingOut(levels: Int) async throws -> String {
        try await SuspenseKit.render(TimesOut(levels: levels, hang: Hang()), as: .plain)
    }
}

/// Renders `levels` deep with no actor: on whatever thread the executor gives the task.
func renderNonisolated(_ component: some Component, maxDepth: Int = 100_000) async throws -> String {
    try await render(component, as: .plain, options: RenderOptions(maxDepth: maxDepth))
}

@Suite struct DepthTests {
    @MainActor @Test func aRenderOnTheMainActorHandlesAThousandLevels() async throws {
        #expect(try await render(Chain(levels: 1_000), as: .plain) == "bottom")
    }

    @Test func aRenderIsolatedToAnActorHandlesAThousandLevels() async throws {
        #expect(try await Renderer().render(levels: 1_000) == "bottom")
    }

    /// A timeout fires after an `await`, often on another thread than the pass before it: the
    /// fallback it shows is evaluated like any other pass (the old stack guard measured it
    /// against the first thread's stack and failed 16 of 40 renders).
    @Test func fiftyRendersWithAFiringTimeoutOnAnActorShowTheirFallback() async throws {
        let renderer = Renderer()
        for _ in 0..<50 {
            #expect(try await renderer.renderTimingOut(levels: 3) == "bottom")
        }
    }

    @Test func aChainDeeperThanAPassKeepsOnTheStackRendersOnA512KiBThread() async throws {
        let executor = SmallStackExecutor(stackSize: 512 << 10)
        defer { executor.shutDown() }
        let output = try await withTaskExecutorPreference(executor) {
            try await renderNonisolated(Chain(levels: 2_000))
        }
        #expect(output == "bottom")
        #expect(executor.jobsRun > 0)
    }
}

/// The deepest shapes: thousands to a hundred thousand levels. A pass keeps a bounded number of
/// levels on the stack, so these run under every sanitizer, on any thread.
@Suite struct DeepShapeTests {
    @Test func aDeepTreeIsEvaluatedOnceWithoutASecondPass() async throws {
        let made = Counter()
        // Far past the first runtime's 192 KiB first-pass budget, which threw the pass away.
        #expect(try await render(Chain(levels: 5_000, made: made), as: .plain) == "bottom")
        #expect(made.value == 5_000)
    }

    @MainActor @Test func aHundredThousandLevelsRenderOnTheMainActor() async throws {
        let output = try await render(
            Chain(levels: 100_000), as: .plain, options: RenderOptions(maxDepth: 200_001))
        #expect(output == "bottom")
    }

    @Test func aTwentyThousandLevelFallbackAfterATimeoutRendersNonisolated() async throws {
        #expect(try await renderNonisolated(TimesOut(levels: 20_000, hang: Hang())) == "bottom")
    }

    @Test func aTwentyThousandLevelFallbackAfterATimeoutRendersOnA1MiBThread() async throws {
        let executor = SmallStackExecutor(stackSize: 1 << 20)
        defer { executor.shutDown() }
        let output = try await withTaskExecutorPreference(executor) {
            try await renderNonisolated(TimesOut(levels: 20_000, hang: Hang()))
        }
        #expect(output == "bottom")
    }

    @Test func aTwentyThousandLevelFallbackAfterATimeoutRendersOnAnActor() async throws {
        #expect(try await Renderer().renderTimingOut(levels: 20_000) == "bottom")
    }

    @Test func deeplyNestedGroupsRenderBelowMaxDepth() async throws {
        let output = try await render(NestedGroups(depth: 95_000), as: .plain)
        #expect(output.utf8.count == 190_000)
        #expect(output.hasPrefix("<<<") && output.hasSuffix(">>>"))
    }
}
