import Testing

@testable import SuspenseTesting

@Suite struct LineDiffTests {
    @Test func equalTextsHaveNoHunks() {
        #expect(LineDiff(from: "a\nb\n", to: "a\nb\n").unified() == "")
        #expect(SnapshotVerifier.mismatch(reference: "a\nb\n", actual: "a\nb\n") == nil)
    }

    @Test func changedLineShowsRemovedThenAdded() {
        let diff = LineDiff(from: "a\nb\nc\n", to: "a\nB\nc\n").unified()
        #expect(diff == "@@ -1,3 +1,3 @@\n a\n-b\n+B\n c")
    }

    @Test func contextIsThreeLinesAroundAChange() {
        let old = (1...10).map { "line \($0)" }.joined(separator: "\n")
        let new = old.replacingOccurrences(of: "line 6", with: "line six")
        #expect(
            LineDiff(from: old, to: new).unified() == """
                @@ -3,7 +3,7 @@
                 line 3
                 line 4
                 line 5
                -line 6
                +line six
                 line 7
                 line 8
                 line 9
                """)
    }

    @Test func distantChangesMakeSeparateHunks() {
        let old = (1...20).map { "\($0)" }
        var new = old
        new[1] = "two"
        new[18] = "nineteen"
        let diff = LineDiff(from: old.joined(separator: "\n"), to: new.joined(separator: "\n")).unified()
        #expect(
            diff == """
                @@ -1,5 +1,5 @@
                 1
                -2
                +two
                 3
                 4
                 5
                @@ -16,5 +16,5 @@
                 16
                 17
                 18
                -19
                +nineteen
                 20
                """)
    }

    @Test func nearbyChangesShareOneHunk() {
        let old = (1...9).map { "\($0)" }
        var new = old
        new[1] = "two"
        new[7] = "eight"
        let diff = LineDiff(from: old.joined(separator: "\n"), to: new.joined(separator: "\n")).unified()
        #expect(diff.components(separatedBy: "@@ ").count == 2)
        #expect(diff.hasPrefix("@@ -1,9 +1,9 @@"))
    }

    @Test func insertionsAndDeletionsCountOnlyTheirSide() {
        #expect(LineDiff(from: "a\nb\n", to: "a\nb\nc\n").unified() == "@@ -1,2 +1,3 @@\n a\n b\n+c")
        #expect(LineDiff(from: "x\na\n", to: "a\n").unified() == "@@ -1,2 +1,1 @@\n-x\n a")
        #expect(LineDiff(from: "", to: "new\n").unified() == "@@ -0,0 +1,1 @@\n+new")
    }

    @Test func shortestEditKeepsTheLongestCommonLines() {
        let diff = LineDiff(from: "a\nb\nc\na\nb\nb\na\n", to: "c\nb\na\nb\na\nc\n")
        let edits = diff.lines.filter { $0.change != .same }.count
        // Myers' example: the shortest edit script has five edits.
        #expect(edits == 5)
        #expect(diff.lines.filter { $0.change != .added }.map(\.text) == ["a", "b", "c", "a", "b", "b", "a"])
        #expect(diff.lines.filter { $0.change != .removed }.map(\.text) == ["c", "b", "a", "b", "a", "c"])
    }

    @Test func differenceOnlyInTheFinalNewlineIsExplained() {
        let message = SnapshotVerifier.mismatch(reference: "a\n", actual: "a")
        #expect(message?.contains("final newline") == true)
    }

    @Test func aDifferenceOnlyInLineEndingsSaysSo() throws {
        let message = try #require(SnapshotVerifier.mismatch(reference: "a\r\nb\r\n", actual: "a\nb\n"))
        #expect(message.hasPrefix("The texts differ only in line endings: the golden file has CRLF"))
        #expect(!message.contains("@@"))
        // Different in content too: the note, then the diff of the texts with LF.
        let both = try #require(SnapshotVerifier.mismatch(reference: "a\r\nb\r\n", actual: "a\nc\n"))
        #expect(both.hasPrefix("Note: the golden file has CRLF (Windows) line endings"))
        #expect(both.contains("-b\n+c"))
    }

    @Test func aHunkOfFramesNamesItsFrame() throws {
        func frames(_ changed: String) -> String {
            let first = ["── frame 1: initial ──"] + (1...8).map { "line \($0)" }
            let second = ["── frame 2: after user/1 ──"] + (1...8).map { $0 == 6 ? changed : "line \($0)" }
            return (first + second).joined(separator: "\n") + "\n"
        }
        let message = try #require(SnapshotVerifier.mismatch(reference: frames("old"), actual: frames("new")))
        #expect(message.contains("@@ -13,6 +13,6 @@ ── frame 2: after user/1 ──"))
    }

    @Test func aChangeInsideALongLineShowsItsColumnAndAnExcerpt() throws {
        let prefix = String(repeating: "<li>item</li>", count: 20)
        let reference = "<ul>" + prefix + "<li>Ann</li>" + prefix + "</ul>\n"
        let actual = "<ul>" + prefix + "<li>Bob</li>" + prefix + "</ul>\n"
        let message = try #require(SnapshotVerifier.mismatch(reference: reference, actual: actual))
        let column = 4 + prefix.count + 4 + 1
        #expect(message.contains("Line 1 first differs at column \(column):"))
        #expect(message.contains("  expected: …<li>item</li><li>item</li><li>Ann</li><li>item</li><li>item<…"))
        #expect(message.contains("  actual:   …<li>item</li><li>item</li><li>Bob</li><li>item</li><li>item<…"))
        // Short lines need no note.
        #expect(SnapshotVerifier.mismatch(reference: "a\n", actual: "b\n")?.contains("first differs") == false)
    }

    @Test func largeCompleteRewriteFallsBackToRemovedThenAdded() {
        let old = (0..<3_000).map { "old \($0)" }.joined(separator: "\n")
        let new = (0..<3_000).map { "new \($0)" }.joined(separator: "\n")
        let lines = LineDiff(from: "same\n" + old + "\nend", to: "same\n" + new + "\nend").lines
        #expect(lines.count == 6_002)
        #expect(lines.first?.change == .same && lines.last?.change == .same)
        #expect(lines[1..<3_001].allSatisfy { $0.change == .removed })
        #expect(lines[3_001..<6_001].allSatisfy { $0.change == .added && $0.oldIndex == 3_001 })
    }

    @Test func boundedSearchStillFindsSmallEdits() {
        let old = (0..<5_000).map { "line \($0)" }
        var new = old
        new[10] = "changed"
        new.remove(at: 4_000)
        let lines = LineDiff.edits(from: old.map { Substring($0) }, to: new.map { Substring($0) })
        #expect(lines.filter { $0.change == .removed }.map(\.text) == ["line 10", "line 4000"])
        #expect(lines.filter { $0.change == .added }.map(\.text) == ["changed"])
    }
}
