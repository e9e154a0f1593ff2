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
/// every query it still runs at the first write that fails (an empty chunk is written every
/// second while none is due, to find a closed connection); Hummingbird gives no earlier sign, so
/// the shell itself is always rendered. A connection kept alive serves its next request as usual.
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
            return Response(
                status: status,
                headers: headers,
                body: ResponseBody { writer in
                    try await Self.write(stream, to: &writer) { error in
                        logger.error("streamed page failed after its shell: \(error)")
                    }
                }
            )
        }
    }

    /// Writes each chunk as it comes, in a task of its own, while this one probes the connection
    /// once a second (`ProbeClock`) by writing an empty chunk between them. An error from the
    /// stream (one no boundary caught, after the shell) ends the body normally: the chunk before
    /// it closed the page. An error writing or probing (the client left) is thrown, and the
    /// render is cancelled with its queries; so it is when the writing task is cancelled.
    ///
    /// The client's leaving is seen only here, on the outbound side: Hummingbird tells a handler
    /// nothing when a connection closes, and watching the inbound side for it would read, and
    /// lose, the next request of a kept-alive connection.
    private static func write(
        _ stream: HTMLStream,
        to writer: inout any ResponseBodyWriter,
        onLateError: @escaping @Sendable (any Error) -> Void
    ) async throws {
        let body = SharedBodyWriter(writer)
        let signal = ResponseSignal()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                defer { signal.finish() }
                try await writeChunks(of: stream, to: body, onLateError: onLateError)
            }
            let probing = ProbeClock.shared.register(signal)
            defer { ProbeClock.shared.unregister(probing) }
            // A probe that fails leaves the group, which cancels the chunks' task: it drops its
            // iterator, which cancels the render.
            while case .tick = await signal.wait() {
                try await body.probe()
            }
            try await group.next()
        }
        writer = body.released
        // A stream cut short by cancellation ends without a last chunk: no complete page to mark.
        try Task.checkCancellation()
        try await writer.finish(nil)
    }

    /// Reads the stream and writes its chunks; returns at its end, or after logging its error.
    private static func writeChunks(
        of stream: HTMLStream,
        to body: SharedBodyWriter,
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
            try await body.write(ByteBuffer(string: chunk))
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
