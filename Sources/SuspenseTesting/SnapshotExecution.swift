import Foundation

#if canImport(XCTest)
    import XCTest
#endif

/// One run of a test case: what its unnamed snapshots are numbered from 1 in, and what the check
/// for one file taken twice with different text is kept to. A test case run again in the same
/// process (Swift Testing's `--repetitions`, Xcode's "Run Repeatedly") is a new execution, so it
/// compares with the golden files of its first run instead of recording `.2`, `.3`, ….
///
/// Compared by identity: the session holds the execution it last saw for each test case, so none
/// can be freed and another made at its address while it is compared with.
final class SnapshotExecution: Sendable {
    /// The execution that ``SnapshotsTrait`` bound around the running Swift Testing test case.
    /// Tasks the test starts (`async let`, task groups, `Task {}`) inherit it, so their snapshots
    /// count with the test's own.
    @TaskLocal static var current: SnapshotExecution?

    /// The execution a snapshot belongs to: the one ``SnapshotsTrait`` bound, else under XCTest
    /// the test case XCTest started last, else `nil`: the whole process is one execution, which
    /// is right as long as each test case runs once.
    /// - Parameter swiftTesting: Whether a Swift Testing test takes the snapshot.
    static func resolve(swiftTesting: Bool) async -> SnapshotExecution? {
        if let current { return current }
        guard !swiftTesting else { return nil }
        #if canImport(XCTest)
            return await XCTestExecutions.shared.current()
        #else
            return nil
        #endif
    }

    /// Whether `arguments` (the process's command line) ask Swift Testing to run every test more
    /// than once: `--repetitions` with more than 1, or `--repeat-until`.
    static func requestRepetitions(_ arguments: [String]) -> Bool {
        if arguments.contains("--repeat-until") { return true }
        guard let index = arguments.firstIndex(of: "--repetitions"), index + 1 < arguments.count else {
            return false
        }
        return (Int(arguments[index + 1]) ?? 1) > 1
    }
}

#if canImport(XCTest)
    /// Starts a new execution each time XCTest starts a test case, as an observer XCTest tells.
    /// XCTest runs one test case at a time in a process, so the one it started last is the one
    /// running. It registers itself on the main thread, where XCTest requires it, the first time
    /// an XCTest snapshot asks for it; the test case running then keeps the first execution.
    final class XCTestExecutions: NSObject, XCTestObservation, @unchecked Sendable {
        static let shared = XCTestExecutions()

        private let lock = NSLock()
        private var execution = SnapshotExecution()
        private var isRegistered = false

        /// The execution of the running test case.
        func current() async -> SnapshotExecution {
            if !locked({ isRegistered }) { await register() }
            return locked { execution }
        }

        @MainActor private func register() {
            let isNew = locked {
                defer { isRegistered = true }
                return !isRegistered
            }
            if isNew { XCTestObservationCenter.shared.addTestObserver(self) }
        }

        func testCaseWillStart(_ testCase: XCTestCase) {
            locked { execution = SnapshotExecution() }
        }

        private func locked<Result>(_ body: () -> Result) -> Result {
            lock.lock()
            defer { lock.unlock() }
            return body()
        }
    }
#endif
