import Foundation
import SuspenseKit
import Testing

@testable import SuspenseTesting

/// The record modes and the failure messages of `assertSnapshot`, against golden files in a
/// temporary directory, so that these tests never write into the repository.
@Suite(.snapshots) struct AssertSnapshotTests {
    let greeting = Element("p") { Text("Hello") }

    /// Runs the verification as if the test file were `<directory>/FakeTests.swift`, by default
    /// as a run of the tests of its own (so that a later call may record other text).
    func verify(
        _ component: some Component,
        in directory: URL,
        record: SnapshotRecordMode?,
        named name: String? = "greeting",
        environment: [String: String] = [:],
        session: SnapshotSession = SnapshotSession()
    ) async -> String? {
        await verifySnapshot(
            of: component,
            as: .plain,
            outcomes: [:],
            named: name,
            record: record,
            filePath: directory.appendingPathComponent("FakeTests.swift").path,
            testName: "greets()",
            environment: environment,
            session: session
        )
    }

    func golden(in directory: URL, named name: String = "greeting") -> URL {
        directory.appendingPathComponent("__Snapshots__/FakeTests/greets.\(name).txt")
    }

    func contents(of file: URL) throws -> String {
        try String(contentsOf: file, encoding: .utf8)
    }

    @Test func missingFileIsWrittenAndFailsInMissingMode() async throws {
        try await withTemporaryDirectory { directory throws in
            let message = await verify(greeting, in: directory, record: .missing)
            #expect(message?.contains("was recorded at \(golden(in: directory).path)") == true)
            #expect(try contents(of: golden(in: directory)) == "Hello\n")
            #expect(await verify(greeting, in: directory, record: .missing) == nil)
        }
    }

    @Test func missingFileIsAFailureInNeverMode() async throws {
        try await withTemporaryDirectory { directory throws in
            let message = await verify(greeting, in: directory, record: .never)
            #expect(message?.contains("No golden file at \(golden(in: directory).path)") == true)
            #expect(!FileManager.default.fileExists(atPath: golden(in: directory).path))
        }
    }

    @Test func ciEnvironmentMeansNeverRecord() async throws {
        try await withTemporaryDirectory { directory throws in
            let message = await verify(greeting, in: directory, record: nil, environment: ["CI": "true"])
            #expect(message?.contains("record mode never") == true)
            #expect(!FileManager.default.fileExists(atPath: golden(in: directory).path))
        }
    }

    @Test func mismatchFailsWithTheDiffAndThePath() async throws {
        try await withTemporaryDirectory { directory throws in
            _ = await verify(greeting, in: directory, record: .missing)
            let changed = Element("p") { Text("Hello, Ann") }
            let message = try #require(await verify(changed, in: directory, record: .missing))
            #expect(
                message == """
                    Snapshot does not match the golden file at \(golden(in: directory).path)
                    (- expected, + actual)
                    @@ -1,1 +1,1 @@
                    -Hello
                    +Hello, Ann
                    """)
            #expect(try contents(of: golden(in: directory)) == "Hello\n", "a mismatch is not recorded")
        }
    }

    @Test func allModeRewritesEveryFileAndFails() async throws {
        try await withTemporaryDirectory { directory throws in
            _ = await verify(greeting, in: directory, record: .missing)
            let message = await verify(Text("Bye"), in: directory, record: .all)
            #expect(message?.contains("Recorded the snapshot at") == true)
            #expect(try contents(of: golden(in: directory)) == "Bye\n")
            #expect(await verify(Text("Bye"), in: directory, record: .all) != nil, "all fails even on a match")
            #expect(await verify(Text("Bye"), in: directory, record: .never) == nil)
        }
    }

    @Test func failedModeRewritesOnlyMismatches() async throws {
        try await withTemporaryDirectory { directory throws in
            _ = await verify(greeting, in: directory, record: .missing)
            #expect(await verify(greeting, in: directory, record: .failed) == nil)
            let message = await verify(Text("Bye"), in: directory, record: .failed)
            #expect(message?.contains("+Bye") == true)
            #expect(message?.contains("Re-recorded the golden file") == true)
            #expect(try contents(of: golden(in: directory)) == "Bye\n")
        }
    }

    @Test func environmentVariableRecords() async throws {
        try await withTemporaryDirectory { directory throws in
            _ = await verify(greeting, in: directory, record: .missing)
            let message = await verify(Text("Bye"), in: directory, record: nil, environment: ["SNAPSHOT_RECORD": "all"])
            #expect(message?.contains("(record mode all)") == true)
            #expect(try contents(of: golden(in: directory)) == "Bye\n")
        }
    }

    @Test func goldenFilesEndWithExactlyOneNewline() async throws {
        try await withTemporaryDirectory { directory throws in
            _ = await verify(Text("Hello\n\n\n"), in: directory, record: .missing)
            #expect(try contents(of: golden(in: directory)) == "Hello\n")
            _ = await verify(EmptyComponent(), in: directory, record: .missing, named: "empty")
            #expect(try contents(of: golden(in: directory, named: "empty")) == "\n")
        }
    }

    @Test func unnamedSnapshotsAreNumberedWithinATest() async throws {
        try await withTemporaryDirectory { directory throws in
            let run = SnapshotSession()
            _ = await verify(Text("one"), in: directory, record: .missing, named: nil, session: run)
            _ = await verify(Text("two"), in: directory, record: .missing, named: nil, session: run)
            #expect(try contents(of: golden(in: directory, named: "1")) == "one\n")
            #expect(try contents(of: golden(in: directory, named: "2")) == "two\n")
        }
    }

    @Test func uncaughtRenderErrorIsAFailure() async throws {
        try await withTemporaryDirectory { directory throws in
            let message = await verify(
                Suspense {
                    try MemberCard(id: 1)
                } fallback: {
                    Text("Loading…")
                },
                in: directory,
                record: .missing
            )
            #expect(message?.contains("Could not render the snapshot") == true)
            #expect(message?.contains("query member/1 ran for real; stub it") == true)
            #expect(!FileManager.default.fileExists(atPath: golden(in: directory).path))
        }
    }

    @Test func invalidEnvironmentRecordModeIsAFailure() async throws {
        try await withTemporaryDirectory { directory throws in
            let message = await verify(greeting, in: directory, record: nil, environment: ["SNAPSHOT_RECORD": "yes"])
            #expect(message?.contains("SNAPSHOT_RECORD=yes is not a record mode") == true)
        }
    }

    // MARK: Reporting through Swift Testing

    /// Compared with a committed golden file that says "expected", in `never` mode so that it
    /// is never rewritten.
    @Test func mismatchIsReportedAtTheCallSite() async {
        let line = #line + 2
        await withKnownIssue {
            await assertSnapshot(of: Text("actual"), as: .plain, record: .never)
        } matching: { issue in
            let comment = issue.comments.map(\.rawValue).joined(separator: "\n")
            return comment.contains("__Snapshots__/AssertSnapshotTests/mismatchIsReportedAtTheCallSite.1.txt")
                && comment.contains("@@ -1,1 +1,1 @@\n-expected\n+actual")
                && issue.sourceLocation?.line == line
                && issue.sourceLocation?.fileName == "AssertSnapshotTests.swift"
        }
    }

    @Test func missingFileIsReportedInNeverMode() async {
        await withKnownIssue {
            await assertSnapshot(of: Text("never written"), as: .plain, named: "absent", record: .never)
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("missingFileIsReportedInNeverMode.absent.txt")
        }
    }

    @Test func matchingSnapshotPasses() async {
        await assertSnapshot(of: Text("expected"), as: .plain, record: .never)
    }
}
