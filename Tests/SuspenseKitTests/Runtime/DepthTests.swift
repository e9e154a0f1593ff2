import Testing

@testable import SuspenseKit

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
