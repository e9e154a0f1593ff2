public import Hummingbird
public import SuspenseKit

/// A response that streams a component as HTML: chunked, `text/html; charset=utf-8`, its status
/// line sent once the page's shell is ready, then each boundary as it resolves.
///
/// ```swift
/// router.get("/") { _, _ in
///     await StreamedComponent(Dashboard())
/// }
/// ```
///
/// Created with `await`: the initializer waits for the shell, so that an error escaping every
/// `ErrorBoundary` in the shell becomes the response `onShellError` makes instead of a broken
/// page. An error after the shell ends the body after the chunk that closes the page, and is
/// logged with the request context's logger. A client that disconnects cancels the render and
/// every query it still runs.
public struct StreamedComponent: ResponseGenerator, Sendable {
    private enum Outcome: Sendable {
        case stream(HTMLStream)
        case shellFailed(any Error, custom: Response?)
    }

    private let outcome: Outcome
    private let status: HTTPResponse.Status
    private let headers: HTTPFields

    /// Renders `component` until its shell is ready. The page is made inside the render, so a
    /// page whose initializer reads data suspends like any component.
    /// - Parameters:
    ///   - component: The page.
    ///   - cache: Where query results are kept; a new one by default.
    ///   - options: Settings of the render, such as a deadline or its clock.
    ///   - stream: Settings of the stream: its order and a CSP nonce.
    ///   - status: The status of a page whose shell rendered (default 200).
    ///   - headers: More headers for that page; `Content-Type` is set for you.
    ///   - onShellError: Makes the response for an error in the shell. By default the error is
    ///     logged and the client gets a 500 with a small page that does not show the error.
    ///   - isolation: The caller's actor, on which components are evaluated; inferred.
    public init<C: Component>(
        _ component: @autoclosure @escaping () throws -> C,
        cache: QueryCache = QueryCache(),
        options: RenderOptions = RenderOptions(),
        stream: StreamOptions = StreamOptions(),
        status: HTTPResponse.Status = .ok,
        headers: HTTPFields = [:],
        onShellError: (@Sendable (any Error) -> Response)? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) async {
        self.status = status
        self.headers = headers
        do {
            outcome = .stream(try await renderStream(try component(), cache: cache, options: options, stream: stream))
        } catch {
            outcome = .shellFailed(error, custom: onShellError?(error))
        }
    }

    /// The response: the stream, or the response for an error in the shell.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        let logger = context.logger
        switch outcome {
        case .shellFailed(_, custom: let custom?):
            return custom
        case .shellFailed(let error, custom: nil):
            logger.error("the page's shell could not be rendered: \(error)")
            return Self.errorPage
        case .stream(let stream):
            var headers = self.headers
            headers[.contentType] = "text/html; charset=utf-8"
            let watchesDisconnect = Self.canCancelOnInboundClose(request.body)
            return Response(
                status: status,
                headers: headers,
                body: ResponseBody { writer in
                    let reportLateError: @Sendable (any Error) -> Void = { error in
                        logger.error("streamed page failed after its shell: \(error)")
                    }
                    guard watchesDisconnect else {
                        return try await Self.write(stream, to: &writer, onLateError: reportLateError)
                    }
                    // Ends the render as soon as the client goes, not at the next chunk written
                    // (which may be long in coming while a slow query runs).
                    try await request.body.consumeWithCancellationOnInboundClose { _ in
                        try await Self.write(stream, to: &writer, onLateError: reportLateError)
                    }
                }
            )
        }
    }

    /// Writes each chunk as it comes. An error from the stream (one no boundary caught, after the
    /// shell) ends the body normally: the chunk before it closed the page. An error writing
    /// (the client left) is thrown, and stopping the iteration cancels the render.
    private static func write(
        _ stream: HTMLStream,
        to writer: inout any ResponseBodyWriter,
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
                break
            }
            guard let chunk else { break }
            try await writer.write(ByteBuffer(string: chunk))
        }
        // A stream cut short by cancellation ends without a last chunk: no complete page to mark.
        try Task.checkCancellation()
        try await writer.finish(nil)
    }

    /// Whether `consumeWithCancellationOnInboundClose` can watch this request's connection.
    /// Hummingbird stops the process (a precondition) for a body not read from a connection, as
    /// in a `Request` made by hand with `RequestBody(buffer:)`; such a request streams without
    /// the watch, and its render ends at the first write that fails instead. The body's backing
    /// is internal to Hummingbird, so it is read by reflection, and anything unexpected counts as
    /// not watchable.
    static func canCancelOnInboundClose(_ body: RequestBody) -> Bool {
        guard
            let backing = Mirror(reflecting: body).children.first(where: { $0.label == "_backing" })?.value,
            let state = Mirror(reflecting: backing).children.first
        else { return false }
        switch state.label {
        case "nioAsyncChannelRequestBody":
            return true
        case "byteBuffer", "anyAsyncSequence":
            // (contents, the connection's body it replaced, if any)
            let payload = Mirror(reflecting: state.value).children
            guard payload.count == 2, let original = payload.dropFirst().first?.value else { return false }
            let optional = Mirror(reflecting: original)
            return optional.displayStyle == .optional && !optional.children.isEmpty
        default:
            return false
        }
    }

    /// The default response for an error in the shell: 500 and a small page. The error itself
    /// goes to the log, not to the client, which need not learn the server's internals.
    static var errorPage: Response {
        let page =
            "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Server error</title></head>"
            + "<body><h1>Server error</h1><p>This page could not be rendered. Please try again later.</p>"
            + "</body></html>"
        return Response(
            status: .internalServerError,
            headers: [.contentType: "text/html; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: page))
        )
    }
}
