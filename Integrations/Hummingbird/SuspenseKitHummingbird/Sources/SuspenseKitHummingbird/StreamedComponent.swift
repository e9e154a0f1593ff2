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
/// Created with `await`: the initializer waits for the shell, so an error that escapes every
/// `ErrorBoundary` in the shell becomes the response `onShellError` makes (by default a 500
/// with a small error page) instead of a broken page. An error after the shell ends the body
/// after the chunk that closes the page.
public struct StreamedComponent: ResponseGenerator, Sendable {
    private enum Outcome: Sendable {
        case stream(HTMLStream)
        case failed(Response)
    }

    private let outcome: Outcome
    private let status: HTTPResponse.Status
    private let headers: HTTPFields

    /// Renders `component` until its shell is ready.
    /// - Parameters:
    ///   - component: The page.
    ///   - cache: Where query results are kept; a new one by default.
    ///   - options: The stream's order, CSP nonce and render options.
    ///   - status: The status of a page whose shell rendered (default 200).
    ///   - headers: More headers for that page; `Content-Type` is set for you.
    ///   - onShellError: Makes the response for an error in the shell (default: a 500 page).
    public init<C: Component>(
        _ component: C,
        cache: QueryCache = QueryCache(),
        options: StreamOptions = StreamOptions(),
        status: HTTPResponse.Status = .ok,
        headers: HTTPFields = [:],
        onShellError: @Sendable (any Error) -> Response = StreamedComponent.errorPage
    ) async {
        self.status = status
        self.headers = headers
        do {
            outcome = .stream(try await renderStream(component, cache: cache, options: options))
        } catch {
            outcome = .failed(onShellError(error))
        }
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        switch outcome {
        case .failed(let response):
            return response
        case .stream(let stream):
            var headers = self.headers
            headers[.contentType] = "text/html; charset=utf-8"
            let logger = context.logger
            return Response(
                status: status,
                headers: headers,
                body: ResponseBody { writer in
                    do {
                        for try await chunk in stream {
                            try await writer.write(ByteBuffer(string: chunk))
                        }
                    } catch {
                        // The last chunk closed the page; the status was sent long ago.
                        logger.error("streamed page failed after its shell: \(error)")
                    }
                    try await writer.finish(nil)
                }
            )
        }
    }

    /// The default response for an error in the shell: 500, with the error escaped in a page.
    @Sendable public static func errorPage(_ error: any Error) -> Response {
        let text = "\(error)"
            .replacingOccurrences(of: "&", with: "&amp;")
            .replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
        let page =
            "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Error</title></head>"
            + "<body><h1>Something went wrong</h1><pre>\(text)</pre></body></html>"
        return Response(
            status: .internalServerError,
            headers: [.contentType: "text/html; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: page))
        )
    }
}
