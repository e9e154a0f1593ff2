/// A page served as a stream, independent of any server framework: an adapter for Hummingbird,
/// Vapor or another server makes one per request, sends its head, then has it write the body.
///
/// ```swift
/// let page = await StreamedPage(Page(), serving: ServingOptions(contentSecurityPolicy: .nonce))
/// switch page.response(context: request, hooks: hooks) {
/// case .stream(let head):
///     // send head.status and head.headers, then:
///     try await page.writeBody(context: request, hooks: hooks) { chunk in try await body.write(chunk) }
/// case .errorPage(let errorPage):
///     // send errorPage.head and errorPage.body
/// }
/// ```
///
/// Created with `await`: the initializer renders until the shell is ready (see
/// ``renderStream(_:cache:options:stream:isolation:)``), so that an error escaping every
/// ``ErrorBoundary`` in the shell can still become the application's error page with its own
/// status. The head is decided then: the status and headers of ``ServingOptions``,
/// `text/html; charset=utf-8`, the Content Security Policy with this response's nonce, and
/// `Server-Timing` from the render's ``RenderReport`` (`shell;dur=<ms>`, then the slowest
/// queries the shell waited on), and what the shell's tree declared (``ResponseHead``: a
/// status, headers, a redirect), which goes over the options. A page whose shell declares a
/// redirect stops rendering there: its head has the redirect's status and `Location`, and its
/// body is a short link to the location. What the tree declares after the shell goes to
/// `hooks.log`. ``writeBody(context:hooks:to:)`` then writes the chunks,
/// closes the page after a late error, and stops the render and its queries at the first write
/// that fails (the client left), which an empty write finds while the page waits.
public struct StreamedPage: Sendable {
    /// The content type of every streamed page.
    static let contentType = "text/html; charset=utf-8"

    private enum Outcome: Sendable {
        case stream(HTMLStream, head: PageHead, warnings: [ServingLogEntry])
        case shellFailed(any Error)
    }

    private let outcome: Outcome
    private let probeInterval: Duration?
    private let clock: RenderClock
    /// The render's reports, for `Server-Timing`; nil when the options send none.
    private let timing: PageTiming?
    /// Whether the body ends with a `Server-Timing` trailer.
    private let timingTrailer: Bool
    /// The declarations revealed after the shell, for the log.
    private let late = LateDeclarations()

    /// This response's Content Security Policy nonce, made when ``ServingOptions`` asks for a
    /// policy: every script of the stream carries it, and so may the page's own.
    public let nonce: String?

    /// Renders `component` until its shell is ready. The page is made inside the render, so a
    /// page whose initializer reads data suspends like any component.
    /// - Parameters:
    ///   - component: The page.
    ///   - cache: Where query results are kept; one for this render by default.
    ///   - options: Settings of the render, such as a deadline or its clock.
    ///   - stream: Settings of the stream: its order, how it swaps, the late-error HTML. Its
    ///     nonce is replaced by this response's when `serving` asks for a policy.
    ///   - serving: The status and headers, the Content Security Policy, the probe's interval.
    ///   - isolation: The caller's actor, on which components are evaluated; inferred.
    public init<C: Component>(
        _ component: @autoclosure @escaping () throws -> C,
        cache: QueryCache = ._perRender(),
        options: RenderOptions = RenderOptions(),
        stream: StreamOptions = StreamOptions(),
        serving: ServingOptions = ServingOptions(),
        isolation: isolated (any Actor)? = #isolation
    ) async {
        let clock = RenderClock(serving.clock)
        let timing = serving.serverTiming ? PageTiming() : nil
        let options = timing?.observing(options) ?? options
        var stream = stream
        let nonce = serving.contentSecurityPolicy.map { _ in ResponseNonce.make() }
        if let nonce { stream.nonce = nonce }
        let late = late
        let onDeclaredAfterShell = stream.onDeclaredAfterShell
        stream.onDeclaredAfterShell = { declaration in
            onDeclaredAfterShell?(declaration)
            late.report(declaration)
        }
        do {
            let chunks = try await renderStream(try component(), cache: cache, options: options, stream: stream)
            let declared = chunks.responseHead
            // A redirect sends no page: the render stops now, with its queries.
            if declared.location != nil { chunks.core.stop() }
            let (head, warnings) = Self.head(
                serving: serving, stream: stream, serverTiming: timing?.shell, declared: declared)
            outcome = .stream(chunks, head: head, warnings: warnings)
        } catch {
            outcome = .shellFailed(error)
        }
        self.nonce = nonce
        self.clock = clock
        self.timing = timing
        timingTrailer = serving.serverTimingTrailer
        // No probe rather than one without pause.
        probeInterval = serving.probeInterval.flatMap { $0 > .zero ? $0 : nil }
    }

    /// The error that escaped every ``ErrorBoundary`` in the shell, or nil when the page streams.
    public var shellError: (any Error)? {
        guard case .shellFailed(let error) = outcome else { return nil }
        return error
    }

    /// What to send: the head of the stream, or the page for an error in the shell (made by
    /// `hooks.onShellError`, or else logged and ``ErrorPage/serverError``). Reports through
    /// `hooks.log` a setting that cannot work, such as a `Content-Security-Policy` header that
    /// blocks the stream's scripts.
    ///
    /// An adapter whose transport can send trailing header fields after the body (HTTP/1.1
    /// chunked, HTTP/2) passes `trailers: true`: the head then announces the `Server-Timing`
    /// trailer (`Trailer: Server-Timing`) of ``trailers``, unless
    /// ``ServingOptions/serverTimingTrailer`` is off.
    public func response<Context>(
        context: Context,
        hooks: ServingHooks<Context>,
        trailers: Bool = false
    ) -> PageResponse {
        switch outcome {
        case .stream(let stream, var head, let warnings):
            for warning in warnings { hooks.log(warning, context) }
            if trailers, sendsTrailer, stream.responseHead.location == nil {
                head.headers.add(name: "Trailer", value: "Server-Timing")
            }
            return .stream(head)
        case .shellFailed(let error):
            if let onShellError = hooks.onShellError { return .errorPage(onShellError(error, context)) }
            hooks.log(
                ServingLogEntry(level: .error, message: "the page's shell could not be rendered", error: error), context
            )
            return .errorPage(.serverError)
        }
    }

    /// Writes the body, chunk by chunk as the render makes them, through `writer`; call it once,
    /// after sending the head of ``PageResponse/stream(_:)`` (it writes nothing for an error page).
    ///
    /// Returns once the page is complete: then end the body. An error no boundary caught after
    /// the shell also returns, after the chunk that closes the page, and goes to
    /// `hooks.onLateError` (or the log). Throws what `writer` throws (the client left) or
    /// `CancellationError` when the calling task is cancelled; either way the render stops and
    /// cancels its queries, and the body, cut short, should not be ended as complete.
    ///
    /// Every ``ServingOptions/probeInterval``, `writer` gets an empty string, which it should
    /// write as an empty write: it puts nothing on the wire but fails once the connection is
    /// closed. `writer` is called by one task at a time, never concurrently.
    ///
    /// Once it returned, ``trailers`` holds the fields to end the body with.
    public func writeBody<Context>(
        context: Context,
        hooks: ServingHooks<Context>,
        to writer: @escaping @Sendable (String) async throws -> Void
    ) async throws {
        guard case .stream(let stream, _, _) = outcome else { return }
        if let location = stream.responseHead.location {
            try await writer(Self.redirectBody(to: location))
            return
        }
        late.attach { declaration in hooks.log(LateDeclarations.entry(declaration), context) }
        let body = BodyTurns(writer)
        let onLateError: @Sendable (any Error) -> Void = { error in
            if let onLateError = hooks.onLateError { return onLateError(error, context) }
            hooks.log(
                ServingLogEntry(level: .error, message: "the streamed page failed after its shell", error: error),
                context)
        }
        let clock = clock
        let probeInterval = probeInterval
        try await withThrowingTaskGroup(of: Void.self) { group in
            // The chunks in a task of their own: a failing probe cancels it, which drops its
            // iterator and so cancels the render.
            group.addTask { try await Self.writeChunks(of: stream, to: body, onLateError: onLateError) }
            if let probeInterval {
                group.addTask {
                    while true {
                        try await clock.sleep(for: probeInterval)
                        try await body.probe()
                    }
                }
            }
            // The first to end is the chunks' task, or a probe that failed.
            try await group.next()
            group.cancelAll()
        }
        // A stream cut short by cancellation ends without a last chunk: no complete page to end.
        try Task.checkCancellation()
    }

    /// The trailing header fields to end the body with, once ``writeBody(context:hooks:to:)``
    /// returned: `Server-Timing` with the whole render's time and when each boundary that showed
    /// its fallback revealed, the latest twelve (`total;dur=180, reveal-0.1;dur=95`), from the
    /// render's ``RenderReport``. Empty before, for a redirect or an error page, and when
    /// ``ServingOptions/serverTiming`` or ``ServingOptions/serverTimingTrailer`` is off. Send
    /// them where the transport can (see ``response(context:hooks:trailers:)``).
    public var trailers: PageHeaders {
        // The render delivers its report before its stream ends.
        guard sendsTrailer, case .stream(let stream, _, _) = outcome, stream.responseHead.location == nil,
            let timing = timing?.stream
        else { return [:] }
        return ["Server-Timing": timing]
    }

    /// Whether the body ends with a `Server-Timing` trailer.
    private var sendsTrailer: Bool { timing != nil && timingTrailer }

    /// Reads the stream and writes its chunks; returns at its end, or after reporting its error.
    private static func writeChunks(
        of stream: HTMLStream,
        to body: BodyTurns,
        onLateError: (any Error) -> Void
    ) async throws {
        var chunks = stream.makeAsyncIterator()
        while true {
            let chunk: String?
            do {
                chunk = try await chunks.next()
            } catch {
                try Task.checkCancellation()
                onLateError(error)
                return
            }
            guard let chunk else { return }
            try await body.write(chunk)
        }
    }
}

/// What a ``StreamedPage`` sends, decided once its shell was ready.
public enum PageResponse: Sendable {
    /// The stream: send this head, then ``StreamedPage/writeBody(context:hooks:to:)``.
    case stream(PageHead)
    /// The page for an error in the shell, whole.
    case errorPage(ErrorPage)
}
