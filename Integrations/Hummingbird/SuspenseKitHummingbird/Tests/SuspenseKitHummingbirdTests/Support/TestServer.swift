import Hummingbird
import Logging
import ServerTestLogging
import ServerTestSupport

/// Runs `router` on a real server on 127.0.0.1, on a port the system picks, for as long as
/// `body` runs, then stops it. What the server logs goes to `log`.
func withServer<R: Sendable>(
    _ router: Router<BasicRequestContext>,
    log: LogRecorder = LogRecorder(),
    _ body: @escaping @Sendable (Int) async throws -> R
) async throws -> R {
    let (ports, portSink) = AsyncStream<Int>.makeStream()
    let app = Application(
        router: router,
        configuration: .init(address: .hostname("127.0.0.1", port: 0)),
        onServerRunning: { channel in
            portSink.yield(channel.localAddress?.port ?? 0)
            portSink.finish()
        },
        logger: Logger(label: "test-server") { _ in RecordingLogHandler(recorder: log) }
    )
    return try await withThrowingTaskGroup(of: R?.self) { group in
        group.addTask {
            try await app.run()
            return nil
        }
        // Cancelling the group stops the server, whatever happens to `body`.
        defer { group.cancelAll() }
        let port = try await first(of: ports, within: .seconds(30), "the server to start")
        guard let port, port > 0 else { throw TestFailure("the server did not start") }
        group.addTask { try await body(port) }
        while let result = try await group.next() {
            if let result { return result }
        }
        throw TestFailure("the server stopped")
    }
}
