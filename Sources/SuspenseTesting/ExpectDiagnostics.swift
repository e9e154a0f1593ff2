import Foundation
public import SuspenseKit

/// Renders `component` and fails the running test at the call site when the render noticed any
/// `Diagnostic`: a test that forbids waterfalls, swallowed suspensions and the rest.
///
/// ```swift
/// @Test func theProfileLoadsInParallel() async {
///     await expectNoDiagnostics(in: try Profile(id: 1), outcomes: ["user/1": .value(ann), "posts/1": .value([])])
/// }
/// ```
/// - Parameters:
///   - component: The root of the tree to render, made inside the render.
///   - format: How to render it (default `.tree`); `.stream` for diagnostics only a stream has,
///     such as `suspendedOutsideBoundary`.
///   - outcomes: Fixed outcomes for queries, by key; other queries run for real.
///   - clock: The render's clock (`RenderOptions.clock`); `ContinuousClock` by default.
///   - fileID: The caller's file ID, where a failure is reported.
///   - filePath: The caller's file path, where a failure is reported.
///   - line: The caller's line, where a failure is reported.
///   - column: The caller's column, where a failure is reported.
///   - isolation: The caller's actor, on which components are evaluated; inferred.
public func expectNoDiagnostics<C: Component>(
    in component: @autoclosure @escaping () throws -> C,
    as format: SnapshotFormat = .tree,
    outcomes: FixedOutcomes = [:],
    clock: (any Clock<Duration>)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    isolation: isolated (any Actor)? = #isolation
) async {
    let (diagnostics, error) = await diagnose(try component(), as: format, outcomes: outcomes, clock: clock)
    if let message = noDiagnosticsFailure(diagnostics, error: error) {
        FailureReporter.fail(message, fileID: fileID, filePath: filePath, line: line, column: column)
    }
}

/// Renders `component` and fails the running test at the call site unless the render noticed a
/// `Diagnostic` with `code`; returns the first such diagnostic, for the test to check its
/// message, component or keys. A render that throws still counts (an error after the shell is
/// `uncaughtAfterShell`).
///
/// ```swift
/// await expectDiagnostic(.sequentialQueries, in: try Profile(id: 1), outcomes: outcomes)
/// ```
/// - Parameters:
///   - code: The kind of diagnostic the render must notice.
///   - component: The root of the tree to render, made inside the render.
///   - format: How to render it (default `.tree`); `.stream` for diagnostics only a stream has.
///   - outcomes: Fixed outcomes for queries, by key; other queries run for real.
///   - clock: The render's clock (`RenderOptions.clock`); `ContinuousClock` by default.
///   - fileID: The caller's file ID, where a failure is reported.
///   - filePath: The caller's file path, where a failure is reported.
///   - line: The caller's line, where a failure is reported.
///   - column: The caller's column, where a failure is reported.
///   - isolation: The caller's actor, on which components are evaluated; inferred.
/// - Returns: The first diagnostic with `code`, or nil (the test has failed).
@discardableResult
public func expectDiagnostic<C: Component>(
    _ code: Diagnostic.Code,
    in component: @autoclosure @escaping () throws -> C,
    as format: SnapshotFormat = .tree,
    outcomes: FixedOutcomes = [:],
    clock: (any Clock<Duration>)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    isolation: isolated (any Actor)? = #isolation
) async -> Diagnostic? {
    let (diagnostics, _) = await diagnose(try component(), as: format, outcomes: outcomes, clock: clock)
    if let found = diagnostics.first(where: { $0.code == code }) { return found }
    FailureReporter.fail(
        missingDiagnosticFailure(code, found: diagnostics), fileID: fileID, filePath: filePath, line: line,
        column: column)
    return nil
}

/// The failure message of `expectNoDiagnostics`, or nil when it passes.
func noDiagnosticsFailure(_ diagnostics: [Diagnostic], error: (any Error)?) -> String? {
    if let error { return "Could not render: \(error)" }
    guard !diagnostics.isEmpty else { return nil }
    return "Expected no diagnostics, the render noticed \(diagnostics.count):\n"
        + diagnostics.map { "- \($0)" }.joined(separator: "\n")
}

/// The failure message of `expectDiagnostic` when no diagnostic has `code`.
func missingDiagnosticFailure(_ code: Diagnostic.Code, found diagnostics: [Diagnostic]) -> String {
    if diagnostics.isEmpty { return "Expected a \(code) diagnostic, the render noticed none" }
    return "Expected a \(code) diagnostic, the render noticed only:\n"
        + diagnostics.map { "- \($0)" }.joined(separator: "\n")
}

/// Renders `component` as `format` with `outcomes` stubbed, collecting its diagnostics; the
/// error it threw, if any.
func diagnose<C: Component>(
    _ component: @autoclosure @escaping () throws -> C,
    as format: SnapshotFormat,
    outcomes: FixedOutcomes,
    clock: (any Clock<Duration>)?,
    isolation: isolated (any Actor)? = #isolation
) async -> ([Diagnostic], (any Error)?) {
    let log = DiagnosticLog()
    do {
        _ = try await format.snapshot(
            of: try component(), outcomes: outcomes, clock: clock,
            configure: { $0.onDiagnostic { diagnostic in log.append(diagnostic) } })
        return (log.all, nil)
    } catch {
        return (log.all, error)
    }
}

/// The diagnostics of one render, appended from the render's task, read after it.
private final class DiagnosticLog: @unchecked Sendable {
    // `NSLock` rather than `Synchronization.Mutex`, whose futex waits the thread sanitizer cannot see.
    private let lock = NSLock()
    private var diagnostics: [Diagnostic] = []

    func append(_ diagnostic: Diagnostic) {
        lock.withLock { diagnostics.append(diagnostic) }
    }

    var all: [Diagnostic] { lock.withLock { diagnostics } }
}
