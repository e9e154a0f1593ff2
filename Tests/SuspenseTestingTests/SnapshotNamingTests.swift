import Foundation
import SuspenseKit
import Testing

@testable import SuspenseTesting

/// Golden-file names under Swift Testing, as the running test really is: a parameterized test's
/// cases each get files of their own, and a nested suite's test does not share the file of a
/// test of the same name outside it.
@Suite(.snapshots) struct SnapshotNamingTests {
    /// The identity of the running test, which these tests need.
    func current() throws -> SnapshotTestIdentity {
        try #require(SnapshotTestIdentity.current)
    }

    /// The file name the next unnamed snapshot of the running test would get, in a run of its own.
    func nextFileName(testName: String = #function) throws -> String {
        try SnapshotLocation(testFilePath: #filePath, testName: testName, test: current())
            .nextFile(named: nil, pathExtension: "txt", in: SnapshotSession()).lastPathComponent
    }

    @Test func theRunningTestIsReadFromSwiftTesting() throws {
        let test = try current()
        #expect(test.suites == ["SnapshotNamingTests"])
        #expect(test.function == "theRunningTestIsReadFromSwiftTesting()")
        #expect(!test.isParameterized)
        #expect(test.arguments == nil)
        #expect(try nextFileName() == "theRunningTestIsReadFromSwiftTesting.1.txt")
    }

    @Test(arguments: [1, 20])
    func theArgumentsOfTheRunningCaseAreRead(_ number: Int) throws {
        let test = try current()
        #expect(test.isParameterized)
        #expect(test.arguments == ["\(number)"])
        #expect(try nextFileName() == "theArgumentsOfTheRunningCaseAreRead(\(number)).1.txt")
    }

    /// Each case writes two golden files that name its argument; were the cases to share one
    /// counter, or take each other's files, the text would not match. Run three times in a row,
    /// with the cases in parallel, it passes every time.
    @Test(arguments: ["Ann", "Bo", "Cy"])
    func eachCaseHasItsOwnGoldenFiles(_ name: String) async {
        await assertSnapshot(of: Element("p") { Text("Hello, \(name)") }, as: .plain)
        await assertSnapshot(of: Element("p") { Text("Bye, \(name)") }, as: .html)
    }

    @Test(arguments: [(1, "one"), (2, "two")])
    func severalArgumentsAreJoinedByCommas(_ number: Int, _ word: String) throws {
        #expect(try current().arguments == ["\(number)", "\"\(word)\""])
        #expect(try nextFileName() == "severalArgumentsAreJoinedByCommas(\(number),\(word)).1.txt")
    }

    /// The keys of the cases of `equalArgumentsAreStillTwoCases`, as they run.
    final class CaseKeys: @unchecked Sendable {
        private let lock = NSLock()
        private var keys: [String] = []

        /// Adds `key`; all the keys so far.
        func add(_ key: String) -> [String] {
            lock.lock()
            defer { lock.unlock() }
            keys.append(key)
            return keys
        }
    }

    static let equalCaseKeys = CaseKeys()

    /// Swift Testing tells cases with equal arguments apart (its discriminator): so must the
    /// collision check, or the second would silently share the first's files.
    @Test(arguments: [7, 7])
    func equalArgumentsAreStillTwoCases(_ number: Int) throws {
        let key = try current().key
        let keys = Self.equalCaseKeys.add(key)
        if keys.count == 2 { #expect(keys[0] != keys[1]) }
    }

    @Test func greeting() async throws {
        #expect(try nextFileName() == "greeting.1.txt")
        await assertSnapshot(of: Text("from SnapshotNamingTests"), as: .plain)
    }

    /// A second suite in the same file, with a test of the same name as the outer one.
    @Suite struct Nested {
        @Test func greeting() async throws {
            let test = try #require(SnapshotTestIdentity.current)
            #expect(test.suites == ["SnapshotNamingTests", "Nested"])
            let file = try SnapshotLocation(testFilePath: #filePath, testName: #function, test: test)
                .nextFile(named: nil, pathExtension: "txt", in: SnapshotSession())
            #expect(file.lastPathComponent == "Nested.greeting.1.txt")
            await assertSnapshot(of: Text("from SnapshotNamingTests.Nested"), as: .plain)
        }
    }

    @Test func twoTestsTakingOneFileIsAClearFailureAndNothingIsOverwritten() async throws {
        try await withTemporaryDirectory { directory throws in
            let run = SnapshotSession()
            let path = directory.appendingPathComponent("FakeTests.swift").path
            // A helper that does not pass `testName:` on names every snapshot after itself.
            func snapshot(_ text: String, from suites: [String]) async -> String? {
                await verifySnapshot(
                    of: Text(text), as: .plain, outcomes: [:], named: nil, record: .missing, filePath: path,
                    testName: "helper()",
                    test: SnapshotTestIdentity(
                        suites: suites, function: "loaded()", isParameterized: false, arguments: nil, caseKey: ""),
                    environment: [:], session: run)
            }
            _ = await snapshot("first", from: ["FakeTests"])
            let message = await snapshot("second", from: [])
            let file = directory.appendingPathComponent("__Snapshots__/FakeTests/helper.1.txt")
            // The other test took the file first: the second fails at once, naming both.
            #expect(
                message
                    == "Snapshot name collision: FakeTests.loaded() and loaded() both take the snapshot "
                    + "\(file.path), so each would overwrite the other's golden file. Give one of them "
                    + "another name with named:, or rename one of the tests.")
            #expect(try String(contentsOf: file, encoding: .utf8) == "first\n")
        }
    }
}
