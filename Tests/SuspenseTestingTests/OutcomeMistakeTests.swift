import Foundation
import SuspenseKit
import Testing

@testable import SuspenseTesting

/// Outcomes that do not fit the render's queries fail the assertion, and no golden file is
/// written for them.
@Suite struct OutcomeMistakeTests {
    struct Card: Component {
        let count: Int
        init() throws {
            count = try resolveValue(key: "count") {
                await Task.yield()
                return 1
            }
        }
        var body: some Component { Text("\(count)") }
    }

    let page = Suspense {
        try Card()
    } fallback: {
        Text("…")
    }

    @Test func anOutcomeNoQueryAskedForFailsAndListsTheKeysThatWere() async throws {
        try await withTemporaryDirectory { directory in
            let message = await verifySnapshot(
                of: page, as: .plain, outcomes: ["count": .value(2), "cuont": .value(3)], named: nil,
                record: .missing, filePath: directory.appendingPathComponent("FakeTests.swift").path,
                testName: "typo()", environment: [:])
            #expect(
                message?.hasSuffix(
                    "no query asked for the outcome \"cuont\"; the queries asked for: \"count\"") == true,
                "\(message ?? "nil")")
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("__Snapshots__").path))
        }
    }

    @Test func anOutcomeOfTheWrongTypeFailsInsteadOfBeingRecorded() async throws {
        try await withTemporaryDirectory { directory in
            let message = await verifySnapshot(
                of: ErrorBoundary {
                    page
                } fallback: { error in
                    Text("\(error)")
                }, as: .plain,
                outcomes: ["count": .value("two")], named: nil, record: .missing,
                filePath: directory.appendingPathComponent("FakeTests.swift").path, testName: "wrongType()",
                environment: [:])
            #expect(
                message?.hasSuffix("the outcome for \"count\" is a String, but the component reads it as Int") == true,
                "\(message ?? "nil")")
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("__Snapshots__").path))
        }
    }

    @Test func outcomesThatFitPassAsBefore() async {
        let message = await verifyRender(of: page, as: .plain, outcomes: ["count": .value(2)], matches: "2")
        #expect(message == nil)
    }
}
