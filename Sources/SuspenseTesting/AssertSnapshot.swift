import Foundation
public import SuspenseKit

/// Renders `component` and compares the text with a golden file beside the test, failing the
/// running test (Swift Testing or XCTest) at the call site with a line diff when they differ.
///
/// ```swift
/// @Test func loadedProfile() async {
///     await assertSnapshot(of: ProfilePage(), as: .tree, outcomes: ["user/1": .value(User(name: "Ann"))])
/// }
/// ```
///
/// The golden file is `__Snapshots__/<TestFile>/<testName>.<n>.<ext>` next to the test file,
/// where `<n>` counts the snapshots of one run of the test case from 1 (or is `name`). Under Swift
/// Testing, a test of a suite other than the one the file is named after is prefixed with its
/// suite (`OtherSuite.loaded.1.txt`), and a case of a parameterized test adds its arguments
/// (`greets(Ann).1.txt`). Two tests that would take the same file fail, naming both. A missing
/// file is recorded, and the test fails so that the new file gets read; see
/// ``SnapshotRecordMode``. A Swift Testing test that runs more than once in a process
/// (`--repetitions`) numbers each run from 1 under the ``SnapshotsTrait`` trait, `.snapshots`.
/// - Parameters:
///   - component: The root of the tree to render, made inside the render, so that it may
///     read data (see `render(_:as:cache:options:isolation:)`).
///   - format: How to render it: `.tree`, `.plain`, `.html`, `.html(pretty:)` or `.frames`.
///   - outcomes: Fixed outcomes for queries, by key; other queries run for real.
///   - clock: The render's clock (`RenderOptions.clock`): a ``TestClock`` that the test
///     advances while the snapshot renders (`async let`), so that timeouts, retries and fallback
///     timing show without sleeping. `ContinuousClock` by default.
///   - name: Names the golden file in place of its number.
///   - record: The record mode of this call; by default `SNAPSHOT_RECORD`, else `never` on CI
///     (when `CI` is set) and `missing` elsewhere.
///   - fileID: The caller's file ID, where a failure is reported.
///   - filePath: The caller's file path; the golden file lives beside it.
///   - testName: The test's name, which names the golden file.
///   - line: The caller's line, where a failure is reported.
///   - column: The caller's column, where a failure is reported.
///   - isolation: The caller's actor, on which components are evaluated; inferred.
public func assertSnapshot<C: Component>(
    of component: @autoclosure @escaping () throws -> C,
    as format: SnapshotFormat,
    outcomes: FixedOutcomes = [:],
    clock: (any Clock<Duration>)? = nil,
    named name: String? = nil,
    record: SnapshotRecordMode? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    testName: String = #function,
    line: UInt = #line,
    column: UInt = #column,
    isolation: isolated (any Actor)? = #isolation
) async {
    let test = SnapshotTestIdentity.current
    let message = await verifySnapshot(
        of: try component(),
        as: format,
        outcomes: outcomes,
        clock: clock,
        named: name,
        record: record,
        filePath: "\(filePath)",
        testName: testName,
        test: test,
        execution: await SnapshotExecution.resolve(swiftTesting: test != nil),
        environment: ProcessInfo.processInfo.environment
    )
    if let message {
        FailureReporter.fail(message, fileID: fileID, filePath: filePath, line: line, column: column)
    }
}

/// The work of ``assertSnapshot(of:as:outcomes:clock:named:record:fileID:filePath:testName:line:column:isolation:)``
/// without the reporting: the failure message, or `nil` when the snapshot matches.
func verifySnapshot<C: Component>(
    of component: @autoclosure @escaping () throws -> C,
    as format: SnapshotFormat,
    outcomes: FixedOutcomes,
    clock: (any Clock<Duration>)? = nil,
    named name: String?,
    record: SnapshotRecordMode?,
    filePath: String,
    testName: String,
    test: SnapshotTestIdentity? = nil,
    execution: SnapshotExecution? = nil,
    environment: [String: String],
    session: SnapshotSession = .shared,
    isolation: isolated (any Actor)? = #isolation
) async -> String? {
    // The file is chosen and claimed before rendering, so that a failed render keeps later
    // numbers stable, and a file another test took is never rendered into.
    let location = SnapshotLocation(testFilePath: filePath, testName: testName, test: test)
    let file: URL
    do {
        file = try location.nextFile(
            named: name, pathExtension: format.pathExtension, execution: execution, in: session)
        try session.claim(file, by: location.owner, in: execution)
    } catch {
        return error.description
    }
    let mode: SnapshotRecordMode
    do {
        mode = try SnapshotRecordMode.resolve(record, environment: environment)
    } catch {
        return error.description
    }
    let actual: String
    do {
        actual = try await format.snapshot(of: try component(), outcomes: outcomes, clock: clock)
    } catch {
        return "Could not render the snapshot for \(file.path): \(error)"
    }
    do {
        try session.note(actual, for: file, by: location.owner, in: execution)
    } catch {
        return error.description
    }
    return SnapshotVerifier.verify(actual, against: file, mode: mode)
}
