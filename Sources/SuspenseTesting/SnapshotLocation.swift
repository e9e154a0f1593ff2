import Foundation

/// Where a golden file lives: `__Snapshots__/<TestFile>/<testName>.<n>.<ext>` beside the test
/// file, `<n>` counting the unnamed snapshots of one run of a test case from 1 (one
/// ``SnapshotExecution``).
///
/// Under Swift Testing the name says which test took the snapshot, so that no two tests share a
/// file: a suite other than the one the file is named after comes first
/// (`OtherSuite.loaded.1.txt`), and a case of a parameterized test adds its arguments in
/// parentheses (`greets(Ann).1.txt` for the argument `"Ann"`). A test in the suite named after
/// its file, with no arguments, keeps swift-snapshot-testing's name.
struct SnapshotLocation {
    /// The directory of the golden files of one test file.
    let directory: URL
    /// How every golden file of this test case begins: `[<Suite>.]<testName>[(<arguments>)]`.
    let baseName: String
    /// Who takes the snapshots: what numbering and the collision check are kept for.
    let owner: SnapshotOwner
    /// The test, when Swift Testing runs it.
    let test: SnapshotTestIdentity?

    init(testFilePath: String, testName: String, test: SnapshotTestIdentity? = nil) {
        let testFile = URL(fileURLWithPath: testFilePath)
        let fileStem = testFile.deletingPathExtension().lastPathComponent
        directory = testFile.deletingLastPathComponent()
            .appendingPathComponent("__Snapshots__", isDirectory: true)
            .appendingPathComponent(fileStem, isDirectory: true)
        var baseName = Self.fileName(forTest: testName)
        if let test {
            baseName = Self.suitePrefix(test.suites, fileStem: fileStem) + baseName
            if let arguments = test.arguments { baseName += "(" + Self.argumentsSegment(arguments) + ")" }
            owner = SnapshotOwner(key: test.key, description: test.description)
        } else {
            owner = SnapshotOwner(key: testFilePath + "|" + testName, description: testName)
        }
        self.baseName = baseName
        self.test = test
    }

    /// The file of the next snapshot of this test case's `execution` in `session`: named `name`,
    /// or else numbered. Throws for an unnamed snapshot of a parameterized test whose arguments
    /// could not be read, which would otherwise be numbered in the order the cases happen to run,
    /// and for one of a Swift Testing test that the session repeats with no execution to number it in.
    func nextFile(
        named name: String?,
        pathExtension: String,
        execution: SnapshotExecution? = nil,
        in session: SnapshotSession = .shared
    ) throws(SnapshotNamingError) -> URL {
        let identifier: String
        if let name {
            identifier = Self.sanitized(name)
        } else {
            if let test, test.isParameterized, test.arguments == nil {
                throw .unnamedInParameterizedTest(test: test.description)
            }
            if let test, execution == nil, session.repeatsTests {
                throw .repeatedWithoutTrait(test: test.description)
            }
            let key = directory.path + "/" + baseName + "|" + owner.key
            identifier = String(session.nextNumber(for: key, in: execution))
        }
        return directory.appendingPathComponent("\(baseName).\(identifier).\(pathExtension)", isDirectory: false)
    }

    /// The suites inside the one the test file is named after, each followed by a dot: none for
    /// a test of that suite (or of no suite), `Other.` for a test of `Other`, `Outer.Inner.` for
    /// a nested suite in a file named after neither.
    static func suitePrefix(_ suites: [String], fileStem: String) -> String {
        let inner = suites.lastIndex(of: fileStem).map { suites[($0 + 1)...] } ?? suites[...]
        return inner.map { sanitized($0) + "." }.joined()
    }

    /// The arguments of a test case as part of a file name: each made safe like a name and
    /// joined by commas; a long list keeps its first 80 characters and a hash of the whole,
    /// so that the name stays within what file systems allow.
    static func argumentsSegment(_ arguments: [String]) -> String {
        let segment = arguments.map { sanitized($0, empty: "_") }.joined(separator: ",")
        guard segment.count > 100 else { return segment }
        // FNV-1a over the full descriptions: the same on every run, unlike `hashValue`.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in arguments.joined(separator: "\u{1F}").utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return segment.prefix(80) + "~" + String(hash, radix: 16)
    }

    /// A test's name from `#function`, without its argument list: `loadedState()` → `loadedState`.
    static func fileName(forTest function: String) -> String {
        sanitized(String(function.prefix { $0 != "(" }))
    }

    /// `name` with every run of characters other than letters, digits, `_` and `-` turned into
    /// one `-`, and none at either end; `empty` when nothing is left.
    static func sanitized(_ name: String, empty: String = "snapshot") -> String {
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
        return result.isEmpty ? empty : result
    }
}

/// The test (or test case) that takes snapshots: `key` tells it from every other in one run,
/// `description` names it in messages.
struct SnapshotOwner: Hashable, Sendable {
    let key: String
    let description: String
}

/// Why a snapshot cannot be given a file, or would overwrite another.
enum SnapshotNamingError: Error, CustomStringConvertible {
    /// Two tests (or two cases of one test) would write one golden file.
    case collision(path: String, first: String, second: String)
    /// One test took the same snapshot twice with different text.
    case differentTextTwice(path: String, owner: String)
    /// An unnamed snapshot of a parameterized test whose arguments could not be read.
    case unnamedInParameterizedTest(test: String)
    /// An unnamed snapshot of a Swift Testing test run more than once, without ``SnapshotsTrait``.
    case repeatedWithoutTrait(test: String)

    var description: String {
        switch self {
        case .collision(let path, let first, let second):
            return "Snapshot name collision: \(first) and \(second) both take the snapshot \(path), "
                + "so each would overwrite the other's golden file. Give one of them another name "
                + "with named:, or rename one of the tests."
        case .differentTextTwice(let path, let owner):
            return "Snapshot name collision: \(owner) takes the snapshot \(path) twice, with different "
                + "text, so the second would overwrite the first. Give each its own name with named:."
        case .unnamedInParameterizedTest(let test):
            return "\(test) is parameterized, and this version of Swift Testing does not let its "
                + "arguments be read, so unnamed snapshots would be numbered in the order its cases run. "
                + "Name each snapshot after the arguments, such as named: \"\\(argument)\"."
        case .repeatedWithoutTrait(let test):
            return "\(test) runs more than once in this process (--repetitions or --repeat-until), and "
                + "without the .snapshots trait each run would number its unnamed snapshots on from the "
                + "last, recording new golden files. Add the trait to the suite, @Suite(.snapshots), or "
                + "to the test, or name each snapshot with named:."
        }
    }
}

/// The snapshots taken in one run of the tests: the numbering of each test case's unnamed
/// snapshots, and which test took each golden file, so that a second test taking the same file
/// fails instead of overwriting it. Numbering and the text check start again with each
/// ``SnapshotExecution`` of a test case; which test took a file holds for the whole run. An
/// `NSLock` rather than `Synchronization.Mutex`, whose futex waits the thread sanitizer cannot see.
final class SnapshotSession: @unchecked Sendable {
    /// The run of the test process.
    static let shared = SnapshotSession(repeatsTests: SnapshotExecution.requestRepetitions(CommandLine.arguments))

    /// Whether the command line asks Swift Testing to run each test more than once.
    let repeatsTests: Bool

    /// How many unnamed snapshots an execution of a test case has taken.
    private struct Count {
        let execution: SnapshotExecution?
        var value: Int
    }

    private struct Claim {
        let owner: SnapshotOwner
        /// The execution that took the file last; the text is that execution's.
        var execution: SnapshotExecution?
        var textHash: Int?
    }

    private let lock = NSLock()
    private var counts: [String: Count] = [:]
    private var claims: [String: Claim] = [:]

    init(repeatsTests: Bool = false) {
        self.repeatsTests = repeatsTests
    }

    /// The next number for `key` in `execution`, from 1; another execution of the same key
    /// starts again from 1.
    func nextNumber(for key: String, in execution: SnapshotExecution? = nil) -> Int {
        locked {
            var count = counts[key] ?? Count(execution: execution, value: 0)
            if count.execution !== execution { count = Count(execution: execution, value: 0) }
            count.value += 1
            counts[key] = count
            return count.value
        }
    }

    /// Takes `file` for `owner` in `execution`: throws when another test case took it in this
    /// run. Another execution of the same test case takes it afresh.
    func claim(_ file: URL, by owner: SnapshotOwner, in execution: SnapshotExecution? = nil)
        throws(SnapshotNamingError)
    {
        let first: SnapshotOwner? = locked {
            if let claim = claims[file.path] {
                guard claim.owner == owner else { return claim.owner }
                if claim.execution === execution { return nil }
            }
            claims[file.path] = Claim(owner: owner, execution: execution)
            return nil
        }
        if let first {
            throw .collision(path: file.path, first: first.description, second: owner.description)
        }
    }

    /// Notes the text `owner` rendered for `file` in `execution`: throws when it rendered other
    /// text for the same file earlier in the same execution.
    func note(_ text: String, for file: URL, by owner: SnapshotOwner, in execution: SnapshotExecution? = nil)
        throws(SnapshotNamingError)
    {
        let hash = text.hashValue
        let conflicting: Bool = locked {
            guard var claim = claims[file.path], claim.owner == owner, claim.execution === execution else {
                return false
            }
            if let earlier = claim.textHash { return earlier != hash }
            claim.textHash = hash
            claims[file.path] = claim
            return false
        }
        if conflicting { throw .differentTextTwice(path: file.path, owner: owner.description) }
    }

    private func locked<Result>(_ body: () -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }
}
