/// When ``assertSnapshot(of:as:outcomes:named:record:fileID:filePath:testName:line:column:isolation:)``
/// writes golden files.
///
/// Chosen per call with `record:`, or for a whole run with the environment variable
/// `SNAPSHOT_RECORD` (`all`, `missing`, `never` or `failed`), or else `SNAPSHOT_TESTING_RECORD`
/// (swift-snapshot-testing's, with the same values). Without any, the mode is `missing`, or
/// `never` when the variable `CI` is set.
public enum SnapshotRecordMode: String, Sendable, CaseIterable {
    /// Writes every snapshot, and fails so that the new files get read.
    case all
    /// Writes a snapshot that has no golden file yet, and fails so that it gets read.
    case missing
    /// Writes nothing: a missing golden file is a failure. The default on CI.
    case never
    /// Rewrites the golden files that do not match (and writes missing ones), failing for each.
    case failed

    /// The mode of one call: `explicit` if given, else `SNAPSHOT_RECORD`, else `never` when `CI`
    /// is set and `missing` otherwise. Throws for a `SNAPSHOT_RECORD` it does not know.
    static func resolve(
        _ explicit: SnapshotRecordMode?,
        environment: [String: String]
    ) throws(InvalidRecordMode) -> SnapshotRecordMode {
        if let explicit { return explicit }
        for variable in ["SNAPSHOT_RECORD", "SNAPSHOT_TESTING_RECORD"] {
            if let value = environment[variable], !value.isEmpty {
                guard let mode = SnapshotRecordMode(rawValue: value.lowercased()) else {
                    throw InvalidRecordMode(variable: variable, value: value)
                }
                return mode
            }
        }
        return environment["CI"].map { !$0.isEmpty } == true ? .never : .missing
    }
}

/// `SNAPSHOT_RECORD` (or `SNAPSHOT_TESTING_RECORD`) holds a value that is not a record mode.
struct InvalidRecordMode: Error, CustomStringConvertible {
    var variable = "SNAPSHOT_RECORD"
    let value: String

    var description: String {
        "\(variable)=\(value) is not a record mode; use one of "
            + SnapshotRecordMode.allCases.map(\.rawValue).joined(separator: ", ")
    }
}
