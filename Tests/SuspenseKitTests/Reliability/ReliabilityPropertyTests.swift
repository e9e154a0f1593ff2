import Testing

@testable import SuspenseKit

/// Generated component trees, resolved for real and by a reference model, must agree.
///
/// `swift test` runs 2,000 cases. Knobs, from the environment:
/// - `SUSPENSEKIT_PROPERTY_CASES=100000` runs more;
/// - `SUSPENSEKIT_PROPERTY_SEED=<n>` changes the base seed (`random` picks one);
/// - `SUSPENSEKIT_PROPERTY_CASE_SEED=<n>` replays the one case a failure printed.
struct ReliabilityPropertyTests {
    typealias Runner = ReliabilityPropertyRunner

    @Test func resolverAgreesWithReferenceModel() async throws {
        let caseSeeds: [UInt64]
        if let seed = reliabilityEnvironmentNumber("SUSPENSEKIT_PROPERTY_CASE_SEED") {
            caseSeeds = [seed]
        } else {
            let count = Int(reliabilityEnvironmentNumber("SUSPENSEKIT_PROPERTY_CASES") ?? 2_000)
            let base =
                reliabilityEnvironment("SUSPENSEKIT_PROPERTY_SEED") == "random"
                ? UInt64.random(in: 0...UInt64.max)
                : reliabilityEnvironmentNumber("SUSPENSEKIT_PROPERTY_SEED") ?? 0x5EED_2024
            var seeds = ReliabilityRandom(seed: base)
            caseSeeds = (0..<count).map { _ in seeds.next() }
        }
        let failure = await firstFailure(among: caseSeeds, concurrency: 4)
        guard let (seed, problem) = failure else { return }
        let original = ReliabilityHarness.Generator.makeCase(seed: seed)
        let shrunk = await Runner.shrink(original)
        let shrunkProblem = await Runner.checkRepeatedly(shrunk, times: 8) ?? "(the shrunk case passed when run again)"
        Issue.record(
            """
            resolve(_:) disagrees with the reference model for case seed \(seed)
            (replay: SUSPENSEKIT_PROPERTY_CASE_SEED=\(seed) swift test --filter ReliabilityPropertyTests)
            \(problem.prefix(4_000))

            shrunk from \(Runner.size(original.root)) to \(Runner.size(shrunk.root)) nodes:
            \(Runner.describe(shrunk))
            \(shrunkProblem)
            """
        )
    }

    /// Runs the cases, a few at a time so that their queries interleave; the first failure.
    private func firstFailure(among seeds: [UInt64], concurrency: Int) async -> (UInt64, String)? {
        await withTaskGroup(of: (UInt64, String)?.self) { group in
            var next = 0
            func add() {
                guard next < seeds.count else { return }
                let seed = seeds[next]
                next += 1
                group.addTask {
                    let testCase = ReliabilityHarness.Generator.makeCase(seed: seed)
                    return await Runner.check(testCase).map { (seed, $0) }
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
