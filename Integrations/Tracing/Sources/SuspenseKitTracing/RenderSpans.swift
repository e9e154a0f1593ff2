import SuspenseKit
import Tracing

/// The spans of one render, made from its report once it ended: the report's times are offsets
/// from the render's start, which is `endedAt` less the render's length.
struct RenderSpans<T: Tracer> {
    let tracer: T
    let report: RenderReport
    /// The render's start, in nanoseconds since the epoch.
    let start: UInt64

    init(tracer: T, report: RenderReport, endedAt: DefaultTracerClock.Timestamp) {
        self.tracer = tracer
        self.report = report
        start = endedAt.nanosecondsSinceEpoch - min(Self.nanoseconds(report.finishedAt), endedAt.nanosecondsSinceEpoch)
    }

    func record(in context: ServiceContext) {
        let render = tracer.startSpan("suspensekit.render", context: context, at: instant(.zero))
        render.attributes["suspensekit.deadline_passed"] = report.deadlinePassed
        // The shell's span is the root boundary's, when the shell waited on a query.
        if let shellAt = report.shellAt, !report.boundaries.contains(where: { $0.kind == .root }) {
            let shell = tracer.startSpan("suspensekit.shell", context: render.context, at: instant(.zero))
            shell.end(at: instant(shellAt))
        }
        for diagnostic in report.diagnostics {
            var attributes: SpanAttributes = [:]
            attributes["suspensekit.diagnostic.code"] = "\(diagnostic.code)"
            attributes["suspensekit.diagnostic.message"] = diagnostic.message
            render.addEvent(
                SpanEvent(name: "suspensekit.diagnostic", at: instant(diagnostic.time), attributes: attributes))
        }
        // Each query under the first boundary that waited on it, or under the render.
        var parents: [RenderReport.Query: ServiceContext] = [:]
        for boundary in report.boundaries {
            let span = boundarySpan(boundary, in: render.context)
            for query in boundary.waitedOn where parents[query] == nil { parents[query] = span.context }
            span.end(at: instant(boundary.revealedAt ?? report.finishedAt))
        }
        for query in report.queries {
            querySpan(query, in: parents[query] ?? render.context)
        }
        if let error = report.error {
            render.setStatus(SpanStatus(code: .error, message: error))
        }
        render.end(at: instant(report.finishedAt))
    }

    /// A boundary from its fallback (or the start) to its reveal, or to the render's end when it
    /// never revealed; the content outside every boundary is the shell.
    private func boundarySpan(_ boundary: RenderReport.Boundary, in context: ServiceContext) -> T.Span {
        let name = boundary.kind == .root ? "suspensekit.shell" : "suspensekit.boundary"
        let span = tracer.startSpan(name, context: context, at: instant(boundary.fallbackAt ?? .zero))
        var attributes: SpanAttributes = [:]
        attributes["suspensekit.boundary.id"] = "\(boundary.id)"
        attributes["suspensekit.boundary.kind"] = boundary.kind.rawValue
        attributes["suspensekit.boundary.path"] = boundary.path.joined(separator: " > ")
        attributes["suspensekit.boundary.revealed"] = boundary.revealedAt != nil
        if let revealedBy = boundary.revealedBy { attributes["suspensekit.boundary.revealed_by"] = revealedBy }
        if boundary.retries > 0 { attributes["suspensekit.boundary.retries"] = boundary.retries }
        if boundary.resuspensions > 0 { attributes["suspensekit.boundary.resuspensions"] = boundary.resuspensions }
        if boundary.timedOut { attributes["suspensekit.boundary.timed_out"] = true }
        span.attributes = attributes
        if let error = boundary.errors.last {
            span.setStatus(SpanStatus(code: .error, message: error))
        }
        return span
    }

    /// A query from the render's first read to its result, or to the render's end when the render
    /// stopped waiting.
    private func querySpan(_ query: RenderReport.Query, in context: ServiceContext) {
        let span = tracer.startSpan("suspensekit.query", context: context, at: instant(query.startedAt))
        var attributes: SpanAttributes = [:]
        attributes["suspensekit.query.key"] = query.key
        attributes["suspensekit.query.cache"] = query.outcome.rawValue
        attributes["suspensekit.query.cause"] = "\(query.cause)"
        if query.cancelled { attributes["suspensekit.query.cancelled"] = true }
        span.attributes = attributes
        if let error = query.error {
            span.setStatus(SpanStatus(code: .error, message: error))
        }
        span.end(at: instant(query.finishedAt ?? report.finishedAt))
    }

    private func instant(_ offset: Duration) -> DefaultTracerClock.Timestamp {
        DefaultTracerClock.Timestamp(nanosecondsSinceEpoch: start + Self.nanoseconds(offset))
    }

    private static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = max(duration, .zero).components
        return UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
    }
}
