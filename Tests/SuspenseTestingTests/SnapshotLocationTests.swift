import Foundation
import Testing

@testable import SuspenseTesting

@Suite struct SnapshotLocationTests {
    /// A test identity as Swift Testing would give it.
    func identity(
        suites: [String] = ["ProfileTests"],
        function: String = "loaded()",
        arguments: [String]? = nil,
        caseKey: String = ""
    ) -> SnapshotTestIdentity {
        SnapshotTestIdentity(
            suites: suites, function: function, isParameterized: arguments != nil, arguments: arguments,
            caseKey: caseKey)
    }

    func fileName(
        _ test: SnapshotTestIdentity?,
        testName: String = "loaded()",
        file: String = "/repo/Tests/AppTests/ProfileTests.swift",
        named name: String? = nil
    ) throws -> String {
        try SnapshotLocation(testFilePath: file, testName: testName, test: test)
            .nextFile(named: name, pathExtension: "txt", in: SnapshotSession()).lastPathComponent
    }

    @Test func goldenFilesLiveBesideTheTestFile() throws {
        let location = SnapshotLocation(testFilePath: "/repo/Tests/AppTests/ProfileTests.swift", testName: "loaded()")
        let file = try location.nextFile(named: "ann", pathExtension: "txt", in: SnapshotSession())
        #expect(file.path == "/repo/Tests/AppTests/__Snapshots__/ProfileTests/loaded.ann.txt")
    }

    @Test func testNamesLoseTheirArgumentsAndUnsafeCharacters() {
        #expect(SnapshotLocation.fileName(forTest: "loadedState()") == "loadedState")
        #expect(SnapshotLocation.fileName(forTest: "rendersUser(id:name:)") == "rendersUser")
        #expect(SnapshotLocation.fileName(forTest: "testLoaded()") == "testLoaded")
        #expect(SnapshotLocation.fileName(forTest: "`shows a fallback`()") == "shows-a-fallback")
        #expect(SnapshotLocation.fileName(forTest: "()") == "snapshot")
        #expect(SnapshotLocation.sanitized("user (2)/b") == "user-2-b")
    }

    @Test func unnamedSnapshotsAreNumberedPerTestFromOne() throws {
        let run = SnapshotSession()
        let path = "/nowhere/NumberingTests.swift"
        let first = SnapshotLocation(testFilePath: path, testName: "one()")
        let other = SnapshotLocation(testFilePath: path, testName: "other()")
        func next(_ location: SnapshotLocation, _ name: String?, _ pathExtension: String) throws -> String {
            try location.nextFile(named: name, pathExtension: pathExtension, in: run).lastPathComponent
        }
        #expect(try next(first, nil, "txt") == "one.1.txt")
        #expect(try next(first, nil, "html") == "one.2.html")
        #expect(try next(other, nil, "txt") == "other.1.txt")
        #expect(try next(first, "named", "txt") == "one.named.txt")
        #expect(try next(first, nil, "txt") == "one.3.txt")
    }

    @Test func aTestOfTheSuiteNamedAfterItsFileKeepsItsPlainName() throws {
        #expect(try fileName(identity(suites: ["ProfileTests"])) == "loaded.1.txt")
        #expect(try fileName(identity(suites: [])) == "loaded.1.txt", "a test function at file scope")
        #expect(try fileName(nil) == "loaded.1.txt", "XCTest, or no test running")
    }

    @Test func aTestOfAnotherSuiteIsPrefixedWithItsSuite() throws {
        #expect(try fileName(identity(suites: ["OtherTests"])) == "OtherTests.loaded.1.txt")
        #expect(try fileName(identity(suites: ["ProfileTests", "Nested"])) == "Nested.loaded.1.txt")
        #expect(try fileName(identity(suites: ["Outer", "Inner"])) == "Outer.Inner.loaded.1.txt")
        #expect(
            try fileName(identity(suites: ["Outer", "ProfileTests"])) == "loaded.1.txt",
            "a suite nested in an extension, in a file named after it")
    }

    @Test func aCaseOfAParameterizedTestAddsItsArguments() throws {
        let ann = identity(function: "greets(_:mode:)", arguments: [#""Ann Lee""#, ".all"], caseKey: "a")
        #expect(try fileName(ann, testName: "greets(_:mode:)") == "greets(Ann-Lee,all).1.txt")
        #expect(try fileName(ann, testName: "greets(_:mode:)", named: "html") == "greets(Ann-Lee,all).html.txt")
        #expect(try fileName(identity(arguments: [#""""#]), named: "x") == "loaded(_).x.txt", "an empty string")
    }

    @Test func eachTestCaseNumbersItsOwnSnapshots() throws {
        let run = SnapshotSession()
        let path = "/repo/Tests/AppTests/ProfileTests.swift"
        let ann = SnapshotLocation(
            testFilePath: path, testName: "greets(_:)",
            test: identity(function: "greets(_:)", arguments: [#""Ann""#], caseKey: "Ann"))
        let bo = SnapshotLocation(
            testFilePath: path, testName: "greets(_:)",
            test: identity(function: "greets(_:)", arguments: [#""Bo""#], caseKey: "Bo"))
        // Whatever order the cases run in, each gets 1, 2, … of its own.
        #expect(try bo.nextFile(named: nil, pathExtension: "txt", in: run).lastPathComponent == "greets(Bo).1.txt")
        #expect(try ann.nextFile(named: nil, pathExtension: "txt", in: run).lastPathComponent == "greets(Ann).1.txt")
        #expect(try ann.nextFile(named: nil, pathExtension: "txt", in: run).lastPathComponent == "greets(Ann).2.txt")
        #expect(try bo.nextFile(named: nil, pathExtension: "txt", in: run).lastPathComponent == "greets(Bo).2.txt")
    }

    @Test func longArgumentsAreShortenedWithAStableHash() {
        let long = [String(repeating: "a", count: 120) + "1"]
        let other = [String(repeating: "a", count: 120) + "2"]
        let segment = SnapshotLocation.argumentsSegment(long)
        #expect(segment.count <= 80 + 1 + 16)
        #expect(segment.hasPrefix(String(repeating: "a", count: 80) + "~"))
        #expect(segment == SnapshotLocation.argumentsSegment(long), "the same on every call")
        #expect(segment != SnapshotLocation.argumentsSegment(other))
        #expect(SnapshotLocation.argumentsSegment(["1", "two"]) == "1,two", "short lists are kept whole")
    }

    @Test func anUnnamedSnapshotOfAParameterizedTestWhoseArgumentsCannotBeReadFails() throws {
        let unreadable = SnapshotTestIdentity(
            suites: ["ProfileTests"], function: "greets(_:)", isParameterized: true, arguments: nil, caseKey: "")
        let location = SnapshotLocation(
            testFilePath: "/repo/ProfileTests.swift", testName: "greets(_:)", test: unreadable)
        let error = #expect(throws: SnapshotNamingError.self) {
            try location.nextFile(named: nil, pathExtension: "txt", in: SnapshotSession())
        }
        #expect(
            error?.description
                == "ProfileTests.greets(_:) is parameterized, and this version of Swift Testing does not let its "
                + "arguments be read, so unnamed snapshots would be numbered in the order its cases run. "
                + #"Name each snapshot after the arguments, such as named: "\(argument)"."#)
        let named = try location.nextFile(named: "Ann", pathExtension: "txt", in: SnapshotSession())
        #expect(named.lastPathComponent == "greets.Ann.txt")
    }

    @Test func aFileTakenByAnotherTestIsACollisionNamingBoth() throws {
        let run = SnapshotSession()
        let file = URL(fileURLWithPath: "/repo/__Snapshots__/ProfileTests/loaded.1.txt")
        let first = SnapshotOwner(key: "ProfileTests.loaded()|", description: "ProfileTests.loaded()")
        let second = SnapshotOwner(key: "loaded()|", description: "loaded()")
        try run.claim(file, by: first)
        try run.claim(file, by: first)  // the same test again: no collision
        let error = #expect(throws: SnapshotNamingError.self) { try run.claim(file, by: second) }
        #expect(
            error?.description
                == "Snapshot name collision: ProfileTests.loaded() and loaded() both take the snapshot "
                + "/repo/__Snapshots__/ProfileTests/loaded.1.txt, so each would overwrite the other's golden "
                + "file. Give one of them another name with named:, or rename one of the tests.")
    }

    @Test func oneTestTakingOneFileTwiceWithDifferentTextIsACollision() throws {
        let run = SnapshotSession()
        let file = URL(fileURLWithPath: "/repo/__Snapshots__/ProfileTests/loaded.ann.txt")
        let owner = SnapshotOwner(key: "ProfileTests.loaded()|", description: "ProfileTests.loaded()")
        try run.claim(file, by: owner)
        try run.note("Ann", for: file, by: owner)
        try run.claim(file, by: owner)
        try run.note("Ann", for: file, by: owner)  // the same text again is harmless
        let error = #expect(throws: SnapshotNamingError.self) { try run.note("Bo", for: file, by: owner) }
        #expect(
            error?.description.hasPrefix("Snapshot name collision: ProfileTests.loaded() takes the snapshot") == true)
    }
}
