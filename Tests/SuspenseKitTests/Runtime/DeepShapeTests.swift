import Testing

@testable import SuspenseKit

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
