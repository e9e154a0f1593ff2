import SuspenseTesting
import Testing

@testable import SuspenseKit

/// Loads `key` after `delay` on the test clock; fails with "`key` failed" when `fails`.
struct Timed: Component {
    let value: String
    init(_ key: String, after delay: Duration, clock: TestClock, fails: Bool = false) throws {
        value = try resolveValue(key: key) {
            try await clock.sleep(for: delay)
            if fails { throw TestFailure("\(key) failed") }
            return "\(key) loaded"
        }
    }
    var body: some Component { Element("p") { Text(value) } }
}

/// Reads `first`, then, only once it has its value, `second`: a waterfall.
struct Sequential: Component {
    let text: String
    init(_ first: String, then second: String, after delay: Duration, clock: TestClock) throws {
        let one = try resolveValue(key: first) {
            try await clock.sleep(for: delay)
            return first
        }
        let two = try resolveValue(key: second) {
            try await clock.sleep(for: delay)
            return second
        }
        text = "\(one) and \(two)"
    }
    var body: some Component { Element("p") { Text(text) } }
}

/// Reads both keys at once with `resolveValues`: no waterfall.
struct Parallel: Component {
    let text: String
    init(_ first: String, _ second: String, after delay: Duration, clock: TestClock) throws {
        let (one, two) = try resolveValues(
            (
                first,
                {
                    try await clock.sleep(for: delay); return first
                }
            ),
            (
                second,
                {
                    try await clock.sleep(for: delay); return second
                }
            ))
        text = "\(one) and \(two)"
    }
    var body: some Component { Element("p") { Text(text) } }
}

/// Collects what a render's hooks deliver, from any thread.
final class ReportBox: Sendable {
    private let reports = Locked<[RenderReport]>([])
    private let noticed = Locked<[Diagnostic]>([])

    var report: RenderReport? { reports.withLock { $0.last } }
    var reportCount: Int { reports.withLock { $0.count } }
    var diagnostics: [Diagnostic] { noticed.withLock { $0 } }

    /// `options` delivering the report and the diagnostics here.
    func options(_ options: RenderOptions = RenderOptions()) -> RenderOptions {
        options
            .onReport { report in self.reports.withLock { $0.append(report) } }
            .onDiagnostic { diagnostic in self.noticed.withLock { $0.append(diagnostic) } }
    }

    func boundary(_ id: String) -> RenderReport.Boundary? {
        report?.boundaries.first { $0.id.description == id }
    }

    func query(_ key: String) -> RenderReport.Query? {
        report?.queries.first { $0.key == key }
    }
}
