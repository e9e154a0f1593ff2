import Testing

@testable import SuspenseTesting

@Suite struct SnapshotLocationTests {
    @Test func goldenFilesLiveBesideTheTestFile() {
        let location = SnapshotLocation(testFilePath: "/repo/Tests/AppTests/ProfileTests.swift", testName: "loaded()")
        let file = location.nextFile(named: "ann", pathExtension: "txt")
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

    @Test func unnamedSnapshotsAreNumberedPerTestFromOne() {
        let path = "/nowhere/\(#function)/NumberingTests.swift"
        let first = SnapshotLocation(testFilePath: path, testName: "one()")
        let other = SnapshotLocation(testFilePath: path, testName: "other()")
        #expect(first.nextFile(named: nil, pathExtension: "txt").lastPathComponent == "one.1.txt")
        #expect(first.nextFile(named: nil, pathExtension: "html").lastPathComponent == "one.2.html")
        #expect(other.nextFile(named: nil, pathExtension: "txt").lastPathComponent == "other.1.txt")
        #expect(first.nextFile(named: "named", pathExtension: "txt").lastPathComponent == "one.named.txt")
        #expect(first.nextFile(named: nil, pathExtension: "txt").lastPathComponent == "one.3.txt")
    }
}
