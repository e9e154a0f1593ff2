import Testing

@testable import SuspenseKit

/// Generated component trees, resolved for real and by a reference model, must agree.
///
/// `swift test` runs 2,000 cases, and 1,000 groups of two to four renders sharing a cache.
/// Knobs, from the environment:
/// - `SUSPENSEKIT_PROPERTY_CASES=100000` runs more (and half as many groups);
/// - `SUSPENSEKIT_PROPERTY_SEED=<n>` changes the base seed (`random` picks one);
/// - `SUSPENSEKIT_PROPERTY_CASE_SEED=<n>` replays the one case (or group) a failure printed.
struct ReliabilityPropertyTests {
    typealias Runner = ReliabilityPropertyRunner
    typealias Generator = ReliabilityHarness.Generator

    @Test func resolverAgreesWithReferenceModel() async throws {
        try await run("resolverAgreesWithReferenceModel", cases: 1) { [Generator.makeCase(seed: $0)] }
    }

    /// Renders sharing one `QueryCache`, started together: each agrees with the model, and a
    /// key one render runs is joined by the others, not run again (see `Runner.check`).
    @Test func rendersSharingACacheAgreeWithReferenceModel() async throws {
        try await run("rendersSharingACacheAgreeWithReferenceModel", cases: 2) { Generator.makeGroup(seed: $0) }
    }

    /// Checks `SUSPENSEKIT_PROPERTY_CASES / share` groups of renders made from seeds; shrinks
    /// and records the first failure.
    private func run(
        _ test: String, cases share: Int, _ make: @escaping @Sendable (UInt64) -> [ReliabilityHarness.Case]
    ) async throws {
        let caseSeeds: [UInt64]
        if let seed = reliabilityEnvironmentNumber("SUSPENSEKIT_PROPERTY_CASE_SEED") {
            caseSeeds = [seed]
        } else {
            let count = Int(reliabilityEnvironmentNumber("SUSPENSEKIT_PROPERTY_CASES") ?? 2_000) / share
            let base =
                reliabilityEnvironment("SUSPENSEKIT_PROPERTY_SEED") == "random"
                ? UInt64.random(in: 0...UInt64.max)
                : reliabilityEnvironmentNumber("SUSPENSEKIT_PROPERTY_SEED") ?? 0x5EED_2024
            var seeds = ReliabilityRandom(seed: base)
            caseSeeds = (0..<count).map { _ in seeds.next() }
        }
        let failure = await firstFailure(among: caseSeeds, concurrency: 4, make)
        guard let (seed, problem) = failure else { return }
        let original = make(seed)
        let shrunk = await Runner.shrink(original)
        let shrunkProblem = await Runner.checkRepeatedly(shrunk, times: 8) ?? "(the shrunk case passed when run again)"
        let size = { (cases: [ReliabilityHarness.Case]) in cases.map { Runner.size($0.root) }.reduce(0, +) }
        let renders = original.count > 1 ? " (\(original.count) renders sharing a cache)" : ""
        let message: Comment = """
            resolve(_:) disagrees with the reference model for case seed \(seed)\(renders)
            (replay: SUSPENSEKIT_PROPERTY_CASE_SEED=\(seed) swift test --filter ReliabilityPropertyTests/\(test))
            \(problem.prefix(4_000))

            shrunk from \(size(original)) to \(size(shrunk)) nodes:
            \(Runner.describe(shrunk))
            \(shrunkProblem)
            """
        // Printed as well: the console reporter sometimes leaves a long comment out.
        print(message.rawValue)
        Issue.record(message)
    }

    /// Runs the cases, a few at a time so that their queries interleave; the first failure.
    private func firstFailure(
        among seeds: [UInt64], concurrency: Int, _ make: @escaping @Sendable (UInt64) -> [ReliabilityHarness.Case]
    ) async -> (UInt64, String)? {
        await withTaskGroup(of: (UInt64, String)?.self) { group in
            var next = 0
            func add() {
                guard next < seeds.count else { return }
                let seed = seeds[next]
                next += 1
                group.addTask {
                    await Runner.check(make(seed)).map { (seed, $0) }
                }
            }
            for _ in 0..<concurrency { add() }
            while let result = await group.next() {
                if let failure = result {
                    group.cancelAll()
                    return failure
                }
                add()
            }
            return nil
        }
    }
}
