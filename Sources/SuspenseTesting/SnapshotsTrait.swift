#if canImport(Testing)
    public import Testing

    /// Numbers the unnamed snapshots of each run of a test case from 1, so that a test that
    /// Swift Testing runs again in the same process (`--repetitions`, `--repeat-until`, Xcode's
    /// "Run Repeatedly") compares with the golden files of its first run instead of recording
    /// new ones.
    ///
    /// ```swift
    /// @Suite(.snapshots) struct ProfileTests { … }
    /// ```
    ///
    /// Swift Testing lets no test tell one run of it from the next: `Test.current` and
    /// `Test.Case.current` are equal on every run, and runs may share a task. This trait, which
    /// Swift Testing applies around each run of each test case, is what tells them apart.
    /// Without it, unnamed snapshots are numbered across the whole process, which is right as
    /// long as each test runs once, as `swift test` runs them; in a run the command line asks to
    /// repeat, they fail with a message asking for the trait. XCTest needs no trait.
    public struct SnapshotsTrait: SuiteTrait, TestTrait, TestScoping {
        /// A suite's trait applies to every test in it, nested suites included.
        public var isRecursive: Bool { true }

        /// Runs `function`, one run of a test case, with a numbering of unnamed snapshots of its own.
        public func provideScope(
            for test: Test,
            testCase: Test.Case?,
            performing function: @Sendable () async throws -> Void
        ) async throws {
            try await SnapshotExecution.$current.withValue(SnapshotExecution()) {
                try await function()
            }
        }
    }

    extension Trait where Self == SnapshotsTrait {
        /// Numbers the unnamed snapshots of each run of a test case from 1; see ``SnapshotsTrait``.
        public static var snapshots: Self { SnapshotsTrait() }
    }
#endif
