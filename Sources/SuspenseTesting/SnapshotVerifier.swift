import Foundation

/// Compares a snapshot with its golden file and records it as the record mode says. Every
/// function returns the failure message, or `nil` when the test passes.
enum SnapshotVerifier {
    /// Compares `actual` with the golden file at `file`, writing it when `mode` asks for it.
    static func verify(_ actual: String, against file: URL, mode: SnapshotRecordMode) -> String? {
        let actual = normalized(actual)
        let path = file.path
        guard FileManager.default.fileExists(atPath: path) else {
            if mode == .never {
                return "No golden file at \(path) (record mode never). "
                    + "Run the test with SNAPSHOT_RECORD=missing, or pass record: .missing, to write it."
            }
            if let error = write(actual, to: file) { return error }
            return "No golden file was found, so the snapshot was recorded at \(path) "
                + "(record mode \(mode.rawValue)). Read it, then run the test again."
        }
        if mode == .all {
            if let error = write(actual, to: file) { return error }
            return "Recorded the snapshot at \(path) (record mode all). "
                + "Read it, then run the test again without recording."
        }
        let reference: String
        do {
            reference = try String(contentsOf: file, encoding: .utf8)
        } catch {
            return "Could not read the golden file at \(path): \(error)"
        }
        guard let difference = mismatch(reference: reference, actual: actual) else { return nil }
        var message = "Snapshot does not match the golden file at \(path)\n" + difference
        if mode == .failed {
            if let error = write(actual, to: file) { return message + "\n" + error }
            message += "\nRe-recorded the golden file (record mode failed). Read it, then run the test again."
        }
        return message
    }

    /// The line diff from `reference` to `actual` (`-` reference, `+` actual), or `nil` when
    /// they are equal.
    static func mismatch(reference: String, actual: String) -> String? {
        guard reference != actual else { return nil }
        let referenceHasCRLF = reference.utf8.contains(13)
        let actualHasCRLF = actual.utf8.contains(13)
        if referenceHasCRLF != actualHasCRLF {
            let lf = { (text: String) in text.replacingOccurrences(of: "\r\n", with: "\n") }
            let file =
                referenceHasCRLF
                ? "the golden file has CRLF (Windows) line endings" : "the snapshot has CRLF line endings"
            if lf(reference) == lf(actual) {
                return "The texts differ only in line endings: \(file) and the other has LF. "
                    + "Convert the golden file to LF (a .gitattributes `* text eol=lf` keeps it so), or re-record it."
            }
            return "Note: \(file) and the other has LF; ignoring that, they differ:\n"
                + (mismatch(reference: lf(reference), actual: lf(actual)) ?? "")
        }
        let diff = LineDiff(from: reference, to: actual)
        guard !diff.isEmpty else {
            return "The texts have the same lines but differ in the final newline."
        }
        var message = "(- expected, + actual)\n" + diff.unified()
        for note in longLineNotes(diff) { message += "\n" + note }
        return message
    }

    /// For each long line replaced by one other line, where the two first differ: the column and
    /// a short excerpt of each, since a diff of two 10,000-character lines of compact HTML shows
    /// nothing a reader can find.
    static func longLineNotes(_ diff: LineDiff, longerThan threshold: Int = 120, radius: Int = 30) -> [String] {
        var notes: [String] = []
        let lines = diff.lines
        var index = 0
        while index + 1 < lines.count {
            let removed = lines[index]
            let added = lines[index + 1]
            let alone =
                (index == 0 || lines[index - 1].change != .removed)
                && (index + 2 == lines.count || lines[index + 2].change != .added)
            guard removed.change == .removed, added.change == .added, alone,
                max(removed.text.count, added.text.count) > threshold
            else {
                index += 1
                continue
            }
            let old = Array(removed.text)
            let new = Array(added.text)
            var column = 0
            while column < min(old.count, new.count), old[column] == new[column] { column += 1 }
            func excerpt(_ characters: [Character]) -> String {
                let start = max(0, column - radius)
                let end = min(characters.count, column + radius)
                return (start > 0 ? "…" : "") + String(characters[start..<end]) + (end < characters.count ? "…" : "")
            }
            notes.append(
                "Line \(removed.oldIndex + 1) first differs at column \(column + 1):\n"
                    + "  expected: \(excerpt(old))\n  actual:   \(excerpt(new))")
            index += 2
        }
        return notes
    }

    /// The text as stored: trailing newlines trimmed, then exactly one.
    static func normalized(_ text: String) -> String {
        var text = Substring(text)
        while text.last == "\n" { text.removeLast() }
        return text + "\n"
    }

    /// Writes a golden file, creating its directory; returns the failure message if it cannot.
    private static func write(_ text: String, to file: URL) -> String? {
        do {
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(),
                withIntermediateDirectories: true
            )
            try Data(text.utf8).write(to: file, options: .atomic)
            return nil
        } catch {
            return "Could not write the golden file at \(file.path): \(error)"
        }
    }
}
