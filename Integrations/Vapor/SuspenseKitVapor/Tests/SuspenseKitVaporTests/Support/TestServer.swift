import Logging
import ServerTestLogging
import ServerTestSupport
import Vapor

/// Runs an application with the routes `routes` adds on a real server on 127.0.0.1, on a port
/// the system picks, for as long as `body` runs, then stops it. What the server logs goes to `log`.
///
/// ```swift
/// try await withServer { app in
///     app.get { _ in await StreamedComponent(Page()) }
/// } test: { port in
///     let client = try RawHTTPClient(port: port, path: "/")
/// }
/// ```
func withServer<R: Sendable>(
    log: LogRecorder = LogRecorder(),
    _ routes: (Application) throws -> Void,
    test body: @Sendable (Int) async throws -> R
) async throws -> R {
    let app = try await Application.make(
        .testing, logger: Logger(label: "test-server") { _ in RecordingLogHandler(recorder: log) })
    let result: Result<R, any Error>
    do {
        try routes(app)
        try await app.server.start(address: .hostname("127.0.0.1", port: 0))
        guard let port = app.http.server.shared.localAddress?.port, port > 0 else {
            throw TestFailure("the server did not start")
        }
        result = .success(try await body(port))
    } catch {
        result = .failure(error)
    }
    // Stopped whatever happened to `body`.
    await app.server.shutdown()
    try await app.asyncShutdown()
    return try result.get()
}
