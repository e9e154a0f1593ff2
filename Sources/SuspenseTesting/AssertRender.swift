public import SuspenseKit

/// Renders `component` and compares the text with `expected`, failing the running test at the
/// call site with a line diff when they differ. The inline form of
/// ``assertSnapshot(of:as:outcomes:clock:named:record:fileID:filePath:testName:line:column:isolation:)``.
///
/// Trailing newlines are ignored on both sides, so a multi-line string literal fits as written.
/// - Parameters:
///   - component: The root of the tree to render, made inside the render, so that it may
///     read data (see `render(_:as:cache:options:isolation:)`).
///   - format: How to render it: `.tree`, `.plain`, `.html`, `.html(pretty:)` or `.frames`.
///   - outcomes: Fixed outcomes for queries, by key; other queries run for real.
///   - clock: The render's clock (`RenderOptions.clock`): a ``TestClock`` that the test
///     advances while the rendering runs (`async let`), so that timeouts, retries and fallback
///     timing show without sleeping. `ContinuousClock` by default.
///   - expected: The text the rendering must equal.
///   - fileID: The caller's file ID, where a failure is reported.
///   - filePath: The caller's file path, where a failure is reported.
///   - line: The caller's line, where a failure is reported.
///   - column: The caller's column, where a failure is reported.
///   - isolation: The caller's actor, on which components are evaluated; inferred.
public func assertRender<C: Component>(
    of component: @autoclosure @escaping () throws -> C,
    as format: SnapshotFormat,
    outcomes: FixedOutcomes = [:],
    clock: (any Clock<Duration>)? = nil,
    matches expected: String,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    isolation: isolated (any Actor)? = #isolation
) async {
    let message = await verifyRender(
        of: try component(), as: format, outcomes: outcomes, clock: clock, matches: expected)
    if let message {
        FailureReporter.fail(message, fileID: fileID, filePath: filePath, line: line, column: column)
    }
}

/// The work of ``assertRender(of:as:outcomes:clock:matches:fileID:filePath:line:column:isolation:)``
/// without the reporting: the failure message, or `nil` when the rendering matches.
func verifyRender<C: Component>(
    of component: @autoclosure @escaping () throws -> C,
    as format: SnapshotFormat,
    outcomes: FixedOutcomes,
    clock: (any Clock<Duration>)? = nil,
    matches expected: String,
    isolation: isolated (any Actor)? = #isolation
) async -> String? {
    let actual: String
    do {
        actual = try await format.snapshot(of: try component(), outcomes: outcomes, clock: clock)
    } catch {
        return "Could not render: \(error)"
    }
    let difference = SnapshotVerifier.mismatch(
        reference: SnapshotVerifier.normalized(expected),
        actual: SnapshotVerifier.normalized(actual)
    )
    return difference.map { "Rendering does not match the expected text\n" + $0 }
}
