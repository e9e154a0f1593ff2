/// The short table of a ``RenderReport`` for a terminal: a headline, one row per boundary, one
/// per query, then the diagnostics. Columns are padded to their widest cell.
struct ReportTable {
    let text: String

    init(_ report: RenderReport) {
        var lines: [String] = []
        var headline = report.shellAt.map { "shell \(Self.time($0))" } ?? "no shell"
        headline += " · finished \(Self.time(report.finishedAt))"
        if report.deadlinePassed { headline += " · deadline passed" }
        if let error = report.error { headline += " · failed: \(error)" }
        lines.append(headline)
        if !report.boundaries.isEmpty {
            var rows = [["boundary", "fallback", "revealed", "revealed by", "waited on"]]
            for boundary in report.boundaries {
                var notes = boundary.waitedOn.map { "\($0.key) \(Self.span($0))" }
                if boundary.retries > 0 { notes.append("\(boundary.retries) retries") }
                if boundary.timedOut { notes.append("timed out") }
                notes += boundary.errors.map { "caught: \($0)" }
                rows.append([
                    boundary.kind == .errorBoundary ? "\(boundary.id) (error)" : boundary.id.description,
                    boundary.fallbackAt.map(Self.time) ?? "-",
                    boundary.revealedAt.map(Self.time) ?? "-",
                    boundary.revealedBy ?? "-",
                    notes.isEmpty ? "-" : notes.joined(separator: ", "),
                ])
            }
            lines += Self.columns(rows)
        }
        if !report.queries.isEmpty {
            var rows = [["query", "cache", "started", "finished", "cause"]]
            for query in report.queries {
                let finished =
                    query.cancelled
                    ? "cancelled"
                    : query.finishedAt.map { Self.time($0) + (query.error == nil ? "" : " failed") } ?? "-"
                rows.append([query.key, query.outcome.rawValue, Self.time(query.startedAt), finished, "\(query.cause)"])
            }
            lines += Self.columns(rows)
        }
        if !report.diagnostics.isEmpty {
            lines.append("diagnostics:")
            lines += report.diagnostics.map { "  \($0)" }
        }
        text = lines.joined(separator: "\n")
    }

    /// A query's outcome and times: `miss 0–50 ms`, `miss 0 ms, cancelled`, `joined from 0 ms`.
    private static func span(_ query: RenderReport.Query) -> String {
        if query.cancelled { return "\(query.outcome) \(time(query.startedAt)), cancelled" }
        guard let finished = query.finishedAt else { return "\(query.outcome) from \(time(query.startedAt))" }
        return "\(query.outcome) \(number(query.startedAt))–\(time(finished))" + (query.error == nil ? "" : " failed")
    }

    /// Rows padded to the widest cell of each column, two spaces apart; the last column unpadded.
    private static func columns(_ rows: [[String]]) -> [String] {
        guard let count = rows.first?.count else { return [] }
        var widths = Array(repeating: 0, count: count)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        return rows.map { row in
            var line = ""
            for (index, cell) in row.enumerated() {
                line += cell
                if index < count - 1 { line += String(repeating: " ", count: widths[index] - cell.count + 2) }
            }
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    static func time(_ duration: Duration) -> String {
        number(duration) + " ms"
    }

    /// Milliseconds with at most one decimal: `50`, `12.5`.
    private static func number(_ duration: Duration) -> String {
        let tenths = Int((duration.milliseconds * 10).rounded())
        return tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(abs(tenths % 10))"
    }
}
