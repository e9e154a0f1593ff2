public import SuspenseKit
public import Tracing

extension RenderOptions {
    /// These options, with each render traced through `tracer`: a span for the render, one for
    /// its shell, one for each boundary from its fallback to its reveal, and one for each query
    /// the render read, all under the span `context` is in (the request's, when the server
    /// traces requests).
    ///
    /// ```swift
    /// router.get("/") { _, _ in
    ///     await StreamedComponent(Dashboard(), options: RenderOptions().tracing(InstrumentationSystem.tracer))
    /// }
    /// ```
    ///
    /// The spans are made from the render's ``RenderReport`` as the render ends (so a render that
    /// is traced also builds its report), with the times the report gives: a query's span is
    /// under the boundary that waited on it, and the diagnostics are events of the render's span.
    /// Their names are few (`suspensekit.render`, `.shell`, `.boundary`, `.query`); the
    /// boundary's id and the query's key are attributes. An `onReport` hook set before still
    /// gets the report; one set after replaces this.
    ///
    /// - Parameters:
    ///   - tracer: Where the spans go, such as `InstrumentationSystem.tracer`.
    ///   - context: The context the render's span is a child of; the task's current one, or a
    ///     new trace, by default.
    public func tracing(
        _ tracer: some Tracer,
        context: ServiceContext = .current ?? .topLevel
    ) -> RenderOptions {
        let onReport = self.onReport
        return self.onReport { report in
            RenderSpans(tracer: tracer, report: report, endedAt: DefaultTracerClock.now).record(in: context)
            onReport?(report)
        }
    }
}
