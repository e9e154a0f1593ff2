import Foundation

/// Where a golden file lives: `__Snapshots__/<TestFileName>/<testName>.<n>.<ext>` beside the
/// test file, `<n>` counting the unnamed snapshots of one test from 1.
struct SnapshotLocation {
    /// The directory of the golden files of one test file.
    let directory: URL
    /// The test's name, made safe for a file name.
    let testName: String

    /// Counts the unnamed snapshots taken so far, per directory and test.
    private static let counters = Counters()

    init(testFilePath: String, testName: String) {
        let testFile = URL(fileURLWithPath: testFilePath)
        directory = testFile.deletingLastPathComponent()
            .appendingPathComponent("__Snapshots__", isDirectory: true)
            .appendingPathComponent(testFile.deletingPathExtension().lastPathComponent, isDirectory: true)
        self.testName = Self.fileName(forTest: testName)
    }

    /// The file of the next snapshot of this test: named `name`, or else numbered.
    func nextFile(named name: String?, pathExtension: String) -> URL {
        let identifier: String
        if let name {
            identifier = Self.sanitized(name)
        } else {
            let key = directory.path + "/" + testName
            identifier = String(Self.counters.next(for: key))
        }
        return directory.appendingPathComponent("\(testName).\(identifier).\(pathExtension)", isDirectory: false)
    }

    /// A test's name from `#function`, without its argument list: `loadedState()` → `loadedState`.
    static func fileName(forTest function: String) -> String {
        sanitized(String(function.prefix { $0 != "(" }))
    }

    /// `name` with every run of characters other than letters, digits, `_` and `-` turned into
    /// one `-`, and none at either end.
    static func sanitized(_ name: String) -> String {
        var result = ""
        var pendingDash = false
        for character in name {
            if character.isLetter || character.isNumber || character == "_" || character == "-" {
                if pendingDash, !result.isEmpty { result.append("-") }
                pendingDash = false
                result.append(character)
            } else {
                pendingDash = true
            }
        }
        return result.isEmpty ? "snapshot" : result
    }
}

/// Numbers the unnamed snapshots of each test. An `NSLock` rather than `Synchronization.Mutex`,
/// whose futex waits the thread sanitizer cannot see.
private final class Counters: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [String: Int] = [:]

    /// The next number for `key`, from 1.
    func next(for key: String) -> Int {
        lock.lock()
        defer { lock.unlock() }
        counts[key, default: 0] += 1
        return counts[key]!
    }
}
