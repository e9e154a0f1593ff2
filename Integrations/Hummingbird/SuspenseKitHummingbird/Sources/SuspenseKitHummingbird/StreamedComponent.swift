public import Hummingbird
public import SuspenseKit

/// A response that streams a component as HTML: chunked, `text/html; charset=utf-8`, its status
/// line sent once the page's shell is ready, then each boundary as it resolves.
///
/// ```swift
/// router.get("/") { _, _ in
///     await StreamedComponent(Dashboard(), contentSecurityPolicy: .nonce)
/// }
/// ```
///
/// Created with `await`: the initializer waits for the shell, so that an error escaping every
/// `ErrorBoundary` in the shell becomes the response `onShellError` makes instead of a broken
/// page. An error after the shell ends the body after the chunk that closes the page, and is
/// logged with the request context's logger (or given to `onLateError`). A client that
/// disconnects cancels the render and every query it still runs at the first write that fails
/// (an empty chunk is written every second while the page waits, to find a closed connection);
/// Hummingbird gives no earlier sign, so the shell itself is always rendered. A connection kept
/// alive serves its next request as usual. The head carries `Server-Timing` for the shell (its
/// time and the slowest queries it waited on), and the body ends with a `Server-Timing` trailer
/// for the whole render (its time and each boundary's reveal). SuspenseKit's `StreamedPage` does
/// all of this; this type adapts it to Hummingbird.
public struct StreamedComponent: ResponseGenerator, Sendable {
    /// The application's hooks, given the request and its context.
    public typealias ShellErrorHandler = @Sendable (any Error, Request, any RequestContext) -> Response
    /// Called with an error no boundary caught after the shell, once the page is closed.
    public typealias LateErrorHandler = @Sendable (any Error, Request, any RequestContext) -> Void

    private let page: StreamedPage
    private let status: HTTPResponse.Status
    private let onShellError: ShellErrorHandler?
    private let onLateError: LateErrorHandler?

    /// Renders `component` until its shell is ready. The page is made inside the render, so a
    /// page whose initializer reads data suspends like any component.
    /// - Parameters:
    ///   - component: The page.
    ///   - cache: Where query results are kept; a new one by default.
    ///   - options: Settings of the render, such as a deadline or its clock.
    ///   - stream: Settings of the stream: its order, how it swaps, the late-error HTML.
    ///   - status: The status of a page whose shell rendered (default 200).
    ///   - headers: More headers for that page; `Content-Type` is set for you.
    ///   - contentSecurityPolicy: `.nonce` for a `Content-Security-Policy` with a fresh nonce per
    ///     response, on every script of the stream; nil (default) for none.
    ///   - onShellError: Makes the response for an error in the shell. By default the error is
    ///     logged and the client gets a 500 with a small page that does not show the error.
    ///   - onLateError: Called with an error after the shell, with the request; by default it is
    ///     logged.
    ///   - isolation: The caller's actor, on which components are evaluated; inferred.
    public init<C: Component>(
        _ component: @autoclosure @escaping () throws -> C,
        cache: QueryCache = QueryCache(),
        options: RenderOptions = RenderOptions(),
        stream: StreamOptions = StreamOptions(),
        status: HTTPResponse.Status = .ok,
        headers: HTTPFields = [:],
        contentSecurityPolicy: ServingOptions.ContentSecurityPolicy? = nil,
        onShellError: (@Sendable (any Error) -> Response)? = nil,
        onLateError: LateErrorHandler? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) async {
        self.status = status
        if let onShellError {
            self.onShellError = { error, _, _ in onShellError(error) }
        } else {
            self.onShellError = nil
        }
        self.onLateError = onLateError
        page = await StreamedPage(
            try component(), cache: cache, options: options, stream: stream,
            serving: Self.serving(status: status, headers: headers, contentSecurityPolicy: contentSecurityPolicy))
    }

    /// Renders `component` until its shell is ready, like
    /// ``init(_:cache:options:stream:status:headers:contentSecurityPolicy:onShellError:onLateError:isolation:)``,
    /// with an `onShellError` that gets the request and its context (its logger, its user).
    ///
    /// ```swift
    /// await StreamedComponent(ProductPage(id: id)) { error, request, context in
    ///     context.logger.error("product page failed for \(request.uri): \(error)")
    ///     return Response(status: .serviceUnavailable)
    /// }
    /// ```
    public init<C: Component>(
        _ component: @autoclosure @escaping () throws -> C,
        cache: QueryCache = QueryCache(),
        options: RenderOptions = RenderOptions(),
        stream: StreamOptions = StreamOptions(),
        status: HTTPResponse.Status = .ok,
        headers: HTTPFields = [:],
        contentSecurityPolicy: ServingOptions.ContentSecurityPolicy? = nil,
        onLateError: LateErrorHandler? = nil,
        onShellError: @escaping ShellErrorHandler,
        isolation: isolated (any Actor)? = #isolation
    ) async {
        self.status = status
        self.onShellError = onShellError
        self.onLateError = onLateError
        page = await StreamedPage(
            try component(), cache: cache, options: options, stream: stream,
            serving: Self.serving(status: status, headers: headers, contentSecurityPolicy: contentSecurityPolicy))
    }

    /// This response's Content Security Policy nonce, when `contentSecurityPolicy` asked for one:
    /// a script of the page's own may carry it.
    public var nonce: String? { page.nonce }

    /// The response: the stream, or the response for an error in the shell.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        if let error = page.shellError, let onShellError {
            return onShellError(error, request, context)
        }
        let served = Served(request: request, context: context)
        let hooks = hooks
        // HTTP/1.1's chunked body and HTTP/2 both carry trailers: the head announces them.
        switch page.response(context: served, hooks: hooks, trailers: true) {
        case .errorPage(let errorPage):
            return Response(
                status: HTTPResponse.Status(code: errorPage.head.status),
                headers: Self.fields(errorPage.head.headers),
                body: ResponseBody(byteBuffer: ByteBuffer(string: errorPage.body))
            )
        case .stream(let head):
            let page = page
            return Response(
                status: head.status == status.code ? status : HTTPResponse.Status(code: head.status),
                headers: Self.fields(head.headers),
                body: ResponseBody { writer in
                    let shared = SharedWriter(writer)
                    try await page.writeBody(context: served, hooks: hooks) { chunk in
                        try await shared.writer.write(ByteBuffer(string: chunk))
                    }
                    writer = shared.writer
                    let trailers = page.trailers
                    try await writer.finish(trailers.fields.isEmpty ? nil : Self.fields(trailers))
                }
            )
        }
    }

    /// What the core's hooks get: the request and its context.
    private struct Served: Sendable {
        let request: Request
        let context: any RequestContext
    }

    /// The log is the request context's logger; a late error goes to `onLateError` when given.
    private var hooks: ServingHooks<Served> {
        var lateError: (@Sendable (any Error, Served) -> Void)?
        if let onLateError {
            lateError = { error, served in onLateError(error, served.request, served.context) }
        }
        return ServingHooks(
            log: { entry, served in
                switch entry.level {
                case .warning: served.context.logger.warning("\(entry)")
                case .error: served.context.logger.error("\(entry)")
                }
            },
            onLateError: lateError
        )
    }

    /// The body writer, shared with the core's chunk and probe tasks, which call it one at a
    /// time (never concurrently), which is why it can be `@unchecked Sendable`.
    private final class SharedWriter: @unchecked Sendable {
        var writer: any ResponseBodyWriter
        init(_ writer: any ResponseBodyWriter) { self.writer = writer }
    }

    private static func serving(
        status: HTTPResponse.Status,
        headers: HTTPFields,
        contentSecurityPolicy: ServingOptions.ContentSecurityPolicy?
    ) -> ServingOptions {
        ServingOptions(
            status: status.code,
            headers: PageHeaders(headers.map { PageHeaders.Field(name: $0.name.rawName, value: $0.value) }),
            contentSecurityPolicy: contentSecurityPolicy
        )
    }

    private static func fields(_ headers: PageHeaders) -> HTTPFields {
        var fields = HTTPFields()
        for field in headers {
            guard let name = HTTPFields.Element.Name(field.name) else { continue }
            fields.append(HTTPFields.Element(name: name, value: field.value))
        }
        return fields
    }
}
