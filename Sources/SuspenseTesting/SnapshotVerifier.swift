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
        let diff = LineDiff(from: reference, to: actual)
        guard !diff.isEmpty else {
            return "The texts have the same lines but differ in line endings or the final newline."
        }
        return "(- expected, + actual)\n" + diff.unified()
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
