import Foundation
import SuspenseKit
import Testing

@testable import SuspenseTesting

#if canImport(XCTest)
    import XCTest
#endif

/// A test case run again in the same process (`--repetitions`, Xcode's "Run Repeatedly") is a
/// new execution: its unnamed snapshots are numbered from 1 again, so it compares with the files
/// of its first run instead of recording new ones.
@Suite(.snapshots) struct SnapshotExecutionTests {
    let path = "/repo/Tests/AppTests/ProfileTests.swift"

    func file(_ location: SnapshotLocation, _ execution: SnapshotExecution?, in run: SnapshotSession) throws -> String {
        try location.nextFile(named: nil, pathExtension: "txt", execution: execution, in: run).lastPathComponent
    }

    @Test func aSecondExecutionNumbersItsSnapshotsFromOneAgain() throws {
        let run = SnapshotSession()
        let loaded = SnapshotLocation(testFilePath: path, testName: "loaded()")
        let first = SnapshotExecution()
        #expect(try file(loaded, first, in: run) == "loaded.1.txt")
        #expect(try file(loaded, first, in: run) == "loaded.2.txt")
        let second = SnapshotExecution()
        #expect(try file(loaded, second, in: run) == "loaded.1.txt")
        #expect(try file(loaded, second, in: run) == "loaded.2.txt")
    }

    @Test func aSecondExecutionTakesItsFilesAgainWithoutACollision() throws {
        let run = SnapshotSession()
        let file = URL(fileURLWithPath: "/repo/__Snapshots__/ProfileTests/loaded.1.txt")
        let owner = SnapshotOwner(key: "ProfileTests.loaded()|", description: "ProfileTests.loaded()")
        let first = SnapshotExecution()
        try run.claim(file, by: owner, in: first)
        try run.note("Ann", for: file, by: owner, in: first)
        // Run again, the test takes its file afresh: text it rendered differently on its first
        // run is for the golden file's diff to show, not "the same file twice".
        let second = SnapshotExecution()
        try run.claim(file, by: owner, in: second)
        try run.note("Bo", for: file, by: owner, in: second)
        // Within one execution, the check still holds.
        #expect(throws: SnapshotNamingError.self) { try run.note("Cy", for: file, by: owner, in: second) }
        // And another test taking the file is a collision whichever execution it is in.
        let other = SnapshotOwner(key: "loaded()|", description: "loaded()")
        #expect(throws: SnapshotNamingError.self) { try run.claim(file, by: other, in: SnapshotExecution()) }
    }

    /// Runs this test case's snapshots twice, each time as Swift Testing runs a repetition under
    /// the trait; the second run compares with the first run's files, including the snapshot
    /// taken from a child task.
    @Test func eachRunUnderTheTraitComparesWithTheFirstRunsFiles() async throws {
        let test = try #require(Test.current)
        for _ in 1...2 {
            try await SnapshotsTrait().provideScope(for: test, testCase: Test.Case.current) {
                await assertSnapshot(of: Text("the first snapshot"), as: .plain)
                async let second: Void = assertSnapshot(of: Text("the second, from a child task"), as: .plain)
                await second
            }
        }
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("__Snapshots__/SnapshotExecutionTests")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasPrefix("eachRunUnderTheTraitComparesWithTheFirstRunsFiles.") }.sorted()
        #expect(
            files == [
                "eachRunUnderTheTraitComparesWithTheFirstRunsFiles.1.txt",
                "eachRunUnderTheTraitComparesWithTheFirstRunsFiles.2.txt",
            ])
    }

    @Test func anUnnamedSnapshotOfARepeatedTestWithoutTheTraitFails() throws {
        let repeating = SnapshotSession(repeatsTests: true)
        let test = SnapshotTestIdentity(
            suites: ["ProfileTests"], function: "loaded()", isParameterized: false, arguments: nil, caseKey: "")
        let location = SnapshotLocation(testFilePath: path, testName: "loaded()", test: test)
        let error = #expect(throws: SnapshotNamingError.self) { try file(location, nil, in: repeating) }
        #expect(
            error?.description
                == "ProfileTests.loaded() runs more than once in this process (--repetitions or --repeat-until), "
                + "and without the .snapshots trait each run would number its unnamed snapshots on from the "
                + "last, recording new golden files. Add the trait to the suite, @Suite(.snapshots), or to the "
                + "test, or name each snapshot with named:.")
        #expect(try file(location, SnapshotExecution(), in: repeating) == "loaded.1.txt", "under the trait")
        let named = try location.nextFile(named: "ann", pathExtension: "txt", in: repeating)
        #expect(named.lastPathComponent == "loaded.ann.txt")
        let xcTest = SnapshotLocation(testFilePath: path, testName: "testLoaded()")
        #expect(try file(xcTest, nil, in: repeating) == "testLoaded.1.txt", "XCTest")
    }

    @Test func theCommandLineSaysWhetherTestsRepeat() {
        #expect(SnapshotExecution.requestRepetitions(["xctest", "--repetitions", "3"]))
        #expect(SnapshotExecution.requestRepetitions(["xctest", "--repeat-until", "fail"]))
        #expect(!SnapshotExecution.requestRepetitions(["xctest", "--repetitions", "1"]))
        #expect(!SnapshotExecution.requestRepetitions(["xctest", "--filter", "Profile"]))
        #expect(!SnapshotExecution.requestRepetitions(["xctest", "--repetitions"]))
    }

    #if canImport(XCTest) && !canImport(Darwin)
        /// Runs an XCTest test case twice, as XCTest runs one again, on a thread of its own
        /// (outside this test's task, so that its snapshot goes through XCTest): the second run
        /// compares with the first run's file. swift-corelibs-xctest only: Apple's XCTest makes
        /// its test cases from selectors.
        @Test func xcTestRunningATestCaseAgainComparesWithTheFirstRunsFile() async throws {
            // Observing XCTest before the runs, as it is once any XCTest snapshot was taken.
            _ = await XCTestExecutions.shared.current()
            let runs = [RunAgain.make(), RunAgain.make()]
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                Thread {
                    for testCase in runs { testCase.run() }
                    done.resume()
                }
                .start()
            }
            for testCase in runs {
                #expect(testCase.failures.isEmpty)
                #expect(testCase.testRun?.hasSucceeded == true)
            }
            let second = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("__Snapshots__/SnapshotExecutionTests/takeOneSnapshot.2.txt")
            #expect(!FileManager.default.fileExists(atPath: second.path))
        }
    #endif
}

#if canImport(XCTest) && !canImport(Darwin)
    /// An XCTest test case that `xcTestRunningATestCaseAgainComparesWithTheFirstRunsFile` runs;
    /// its method is not named `test…`, so that XCTest does not run it on its own.
    final class RunAgain: XCTestCase, @unchecked Sendable {
        /// The failures its run recorded, kept instead of failing the run it is inside.
        var failures: [String] = []

        static func make() -> RunAgain {
            RunAgain(name: "takeOneSnapshot") { testCase in
                try asyncTest(RunAgain.takeOneSnapshot)(testCase as! RunAgain)()
            }
        }

        override func recordFailure(
            withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
        ) {
            failures.append(description)
        }

        func takeOneSnapshot() async {
            await assertSnapshot(of: Text("the same on every run"), as: .plain)
        }
    }
#endif
