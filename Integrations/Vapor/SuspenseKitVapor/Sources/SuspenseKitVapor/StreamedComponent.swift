public import SuspenseKit
public import Vapor

/// A response that streams a component as HTML: chunked, `text/html; charset=utf-8`, its status
/// line sent once the page's shell is ready, then each boundary as it resolves.
///
/// ```swift
/// app.get { _ in
///     await StreamedComponent(Dashboard(), contentSecurityPolicy: .nonce)
/// }
/// ```
///
/// Created with `await`: the initializer waits for the shell, so that an error escaping every
/// `ErrorBoundary` in the shell becomes the response `onShellError` makes (or, if it throws, the
/// one the application's middleware makes) instead of a broken page. An error after the shell
/// ends the body after the chunk that closes the page, and is logged with the request's logger
/// (or given to `onLateError`). A client that disconnects cancels the render and every query it
/// still runs at the first write that fails (an empty chunk is written every second while the
/// page waits, to find a closed connection); Vapor gives no earlier sign, so the shell itself is
/// always rendered. A connection kept alive serves its next request as usual. SuspenseKit's
/// `StreamedPage` does all of this; this type adapts it to Vapor.
public struct StreamedComponent: AsyncResponseEncodable, Sendable {
    /// Makes the response for an error in the shell, with the request at hand (its logger, its
    /// parameters). An error it throws goes to the application's middleware, as a route's does.
    public typealias ShellErrorHandler = @Sendable (any Error, Request) async throws -> Response
    /// Called with an error no boundary caught after the shell, once the page is closed.
    public typealias LateErrorHandler = @Sendable (any Error, Request) -> Void

    private let page: StreamedPage
    private let status: HTTPResponseStatus
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
    ///   - onLateError: Called with an error after the shell, with the request; by default it is
    ///     logged with the request's logger.
    ///   - isolation: The caller's actor, on which components are evaluated; inferred.
    ///
    /// An error in the shell is logged and the client gets a 500 with a small page that does not
    /// show the error; ``init(_:cache:options:stream:status:headers:contentSecurityPolicy:onLateError:onShellError:isolation:)``
    /// makes the application's page instead.
    public init<C: Component>(
        _ component: @autoclosure @escaping () throws -> C,
        cache: QueryCache = QueryCache(),
        options: RenderOptions = RenderOptions(),
        stream: StreamOptions = StreamOptions(),
        status: HTTPResponseStatus = .ok,
        headers: HTTPHeaders = [:],
        contentSecurityPolicy: ServingOptions.ContentSecurityPolicy? = nil,
        onLateError: LateErrorHandler? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) async {
        self.status = status
        self.onShellError = nil
        self.onLateError = onLateError
        page = await StreamedPage(
            try component(), cache: cache, options: options, stream: stream,
            serving: Self.serving(status: status, headers: headers, contentSecurityPolicy: contentSecurityPolicy))
    }

    /// Renders `component` until its shell is ready, like
    /// ``init(_:cache:options:stream:status:headers:contentSecurityPolicy:onLateError:isolation:)``,
    /// with the application's response for an error in the shell.
    ///
    /// ```swift
    /// app.get("products", ":id") { request in
    ///     await StreamedComponent(ProductPage(id: request.parameters.get("id"))) { error, request in
    ///         request.logger.error("product page failed: \(error)")
    ///         throw Abort(.serviceUnavailable)  // to the application's ErrorMiddleware
    ///     }
    /// }
    /// ```
    /// - Parameter onShellError: Makes the response for an error in the shell, given the request;
    ///   an error it throws goes to the application's middleware.
    public init<C: Component>(
        _ component: @autoclosure @escaping () throws -> C,
        cache: QueryCache = QueryCache(),
        options: RenderOptions = RenderOptions(),
        stream: StreamOptions = StreamOptions(),
        status: HTTPResponseStatus = .ok,
        headers: HTTPHeaders = [:],
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
    public func encodeResponse(for request: Request) async throws -> Response {
        if let error = page.shellError, let onShellError {
            return try await onShellError(error, request)
        }
        let hooks = hooks
        switch page.response(context: request, hooks: hooks) {
        case .errorPage(let errorPage):
            return Response(
                status: HTTPResponseStatus(statusCode: errorPage.head.status),
                headers: Self.headers(errorPage.head.headers),
                body: .init(string: errorPage.body)
            )
        case .stream(let head):
            let page = page
            // Managed: Vapor ends the body when the closure returns, and ends it with an error
            // (closing the connection) when it throws: the client left, or the server stops.
            let body = Response.Body(managedAsyncStream: { writer in
                // The core's probe is an empty string: an empty buffer, which Vapor's writer
                // completes in order with the chunks but puts nothing on the wire, and which
                // fails once the connection is closed.
                try await page.writeBody(context: request, hooks: hooks) { chunk in
                    try await writer.writeBuffer(ByteBuffer(string: chunk))
                }
            })
            return Response(
                status: head.status == Int(status.code) ? status : HTTPResponseStatus(statusCode: head.status),
                headers: Self.headers(head.headers),
                body: body
            )
        }
    }

    /// The log is the request's logger; a late error goes to `onLateError` when given.
    private var hooks: ServingHooks<Request> {
        ServingHooks(
            log: { entry, request in
                switch entry.level {
                case .warning: request.logger.warning("\(entry)")
                case .error: request.logger.error("\(entry)")
                }
            },
            onLateError: onLateError
        )
    }

    private static func serving(
        status: HTTPResponseStatus,
        headers: HTTPHeaders,
        contentSecurityPolicy: ServingOptions.ContentSecurityPolicy?
    ) -> ServingOptions {
        ServingOptions(
            status: Int(status.code),
            headers: PageHeaders(headers.map { PageHeaders.Field(name: $0.name, value: $0.value) }),
            contentSecurityPolicy: contentSecurityPolicy
        )
    }

    private static func headers(_ headers: PageHeaders) -> HTTPHeaders {
        HTTPHeaders(headers.map { ($0.name, $0.value) })
    }
}
