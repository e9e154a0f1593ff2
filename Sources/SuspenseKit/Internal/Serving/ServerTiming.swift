/// `Server-Timing` values made from a render's report, durations in milliseconds to a tenth.
/// Each value stays short whatever the page: a metric's name is a token of at most
/// `nameLimit` characters, and a value lists at most `queryLimit` queries or `revealLimit`
/// reveals, the slowest.
enum ServerTiming {
    static let queryLimit = 5
    static let revealLimit = 12
    static let nameLimit = 40

    /// The head's value, from the report at the shell: `shell;dur=12.3`, then the queries the
    /// shell waited on, slowest first (`q-user-1;dur=10`).
    static func shell(_ report: RenderReport) -> String {
        var metrics = [metric("shell", report.shellAt ?? report.finishedAt)]
        let waited = report.boundaries.first { $0.kind == .root }?.waitedOn ?? []
        let timed = waited.compactMap { query in query.finishedAt.map { (query.key, $0 - query.startedAt) } }
        for (key, duration) in slowest(timed, limit: queryLimit) {
            metrics.append(metric("q-" + key, duration))
        }
        return metrics.joined(separator: ", ")
    }

    /// The trailer's value, from the report at the end: `total;dur=…`, then when each boundary
    /// that showed its fallback revealed (`reveal-0.1;dur=…`, from the render's start), the
    /// latest ones, in the order they revealed.
    static func stream(_ report: RenderReport) -> String {
        var metrics = [metric("total", report.finishedAt)]
        let revealed = report.boundaries.compactMap { boundary -> (String, Duration)? in
            guard boundary.kind == .suspense, boundary.fallbackAt != nil, let at = boundary.revealedAt else {
                return nil
            }
            return ("\(boundary.id)", at)
        }
        let kept = slowest(revealed, limit: revealLimit).sorted { $0.1 < $1.1 }
        for (id, at) in kept { metrics.append(metric("reveal-" + id, at)) }
        return metrics.joined(separator: ", ")
    }

    /// The `limit` entries of longest duration, longest first; among equal ones, the first given.
    private static func slowest(_ entries: [(String, Duration)], limit: Int) -> [(String, Duration)] {
        let ordered = entries.enumerated().sorted { a, b in
            a.element.1 != b.element.1 ? a.element.1 > b.element.1 : a.offset < b.offset
        }
        return ordered.prefix(limit).map(\.element)
    }

    /// `name;dur=<ms>`, the name made a token.
    static func metric(_ name: String, _ duration: Duration) -> String {
        "\(token(name));dur=\(milliseconds(duration))"
    }

    /// `name` as an HTTP token: ASCII letters, digits and `-_.` kept, anything else a `-`, at most
    /// `nameLimit` characters.
    static func token(_ name: String) -> String {
        var bytes: [UInt8] = []
        for byte in name.utf8 {
            guard bytes.count < nameLimit else { break }
            let kept =
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
            bytes.append(kept ? byte : UInt8(ascii: "-"))
        }
        return bytes.isEmpty ? "-" : String(decoding: bytes, as: UTF8.self)
    }

    /// Milliseconds to a tenth, rounded: `12.3`, `250`.
    static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = max(duration, .zero).components
        // Tenths of a millisecond, rounded: 10^14 attoseconds each.
        let tenths = seconds * 10_000 + (attoseconds + 50_000_000_000_000) / 100_000_000_000_000
        let whole = tenths / 10
        let fraction = tenths % 10
        return fraction == 0 ? "\(whole)" : "\(whole).\(fraction)"
    }
}

/// A served page's reports, at the shell and at the end, kept for its `Server-Timing` fields:
/// set on the render's task, read by the page once the shell is ready and once its body ended.
final class PageTiming: Sendable {
    private let reports = Locked<(shell: RenderReport?, final: RenderReport?)>((nil, nil))

    /// `options` with hooks that keep the reports here, beside any `onReport` already set.
    func observing(_ options: RenderOptions) -> RenderOptions {
        var options = options
        let onReport = options.onReport
        options.onReport = { report in
            self.reports.withLock { $0.final = report }
            onReport?(report)
        }
        options.onShellReport = { report in self.reports.withLock { $0.shell = report } }
        return options
    }

    /// The head's `Server-Timing` value, once the shell is ready.
    var shell: String? { reports.withLock { $0.shell }.map(ServerTiming.shell) }

    /// The trailer's `Server-Timing` value, once the render ended.
    var stream: String? { reports.withLock { $0.final }.map(ServerTiming.stream) }
}
