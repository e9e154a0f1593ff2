import SuspenseKit
import Testing

@testable import SuspenseTesting

@Suite struct ExpectDiagnosticsTests {
    /// Reads the user, then the posts: a waterfall.
    struct Profile: Component {
        let text: String
        init(id: Int) throws {
            let user: String = try resolveValue(key: "user/\(id)") { "from the network" }
            let posts: Int = try resolveValue(key: "posts/\(id)") { 0 }
            text = "\(user): \(posts) posts"
        }
        var body: some Component { Text(text) }
    }

    /// Reads both at once.
    struct ParallelProfile: Component {
        let text: String
        init(id: Int) throws {
            let (user, posts): (String, Int) = try resolveValues(
                ("user/\(id)", { "from the network" }), ("posts/\(id)", { 0 }))
            text = "\(user): \(posts) posts"
        }
        var body: some Component { Text(text) }
    }

    let outcomes: FixedOutcomes = ["user/1": .value("Ann"), "posts/1": .value(3)]

    @Test func aParallelReadPassesExpectNoDiagnostics() async {
        await expectNoDiagnostics(in: Suspense { try ParallelProfile(id: 1) }, outcomes: outcomes)
    }

    @Test func aWaterfallIsFoundByExpectDiagnostic() async throws {
        let diagnostic = await expectDiagnostic(
            .sequentialQueries, in: Suspense { try Profile(id: 1) }, outcomes: outcomes)
        #expect(diagnostic?.keys == ["user/1", "posts/1"])
        #expect(diagnostic?.component == "Profile")
    }

    @Test func aWaterfallFailsExpectNoDiagnosticsNamingIt() async throws {
        let (diagnostics, error) = await diagnose(
            Suspense { try Profile(id: 1) }, as: .tree, outcomes: outcomes, clock: nil)
        #expect(error == nil)
        let message = try #require(noDiagnosticsFailure(diagnostics, error: error))
        #expect(message.hasPrefix("Expected no diagnostics, the render noticed 1:\n- sequentialQueries: Profile read"))
    }

    @Test func aMissingDiagnosticFailsExpectDiagnosticListingWhatWasFound() async throws {
        let (diagnostics, _) = await diagnose(
            Suspense { try ParallelProfile(id: 1) }, as: .tree, outcomes: outcomes, clock: nil)
        #expect(diagnostics.isEmpty)
        #expect(
            missingDiagnosticFailure(.sequentialQueries, found: diagnostics)
                == "Expected a sequentialQueries diagnostic, the render noticed none")
    }

    @Test func aStreamFormatFindsTheShellWaitingOnData() async {
        await expectDiagnostic(
            .suspendedOutsideBoundary, in: try ParallelProfile(id: 1), as: .stream, outcomes: outcomes)
    }
}
