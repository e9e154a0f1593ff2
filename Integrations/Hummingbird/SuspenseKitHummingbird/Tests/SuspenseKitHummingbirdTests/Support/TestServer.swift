import Hummingbird
import Logging

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

/// The first element of `sequence`, or a failure after `limit`.
func first<S: AsyncSequence & Sendable>(
    of sequence: S, within limit: Duration, _ what: String
) async throws -> S.Element? where S.Element: Sendable {
    try await withThrowingTaskGroup(of: S.Element?.self) { group in
        group.addTask {
            var iterator = sequence.makeAsyncIterator()
            return try await iterator.next()
        }
        group.addTask {
            try await Task.sleep(for: limit)
            throw TestFailure("deadline exceeded waiting for \(what)")
        }
        defer { group.cancelAll() }
        return try await group.next() ?? nil
    }
}

/// Polls `condition` until it holds; fails instead of hanging after `seconds`.
func waitUntil(_ what: String, seconds: Double = 30, _ condition: @Sendable () -> Bool) async throws {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while !condition() {
        if ContinuousClock.now > deadline { throw TestFailure("deadline exceeded waiting for \(what)") }
        try await Task.sleep(for: .milliseconds(2))
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// What a server logged, for tests that check an error was reported.
final class LogRecorder: Sendable {
    private let entries = Locked<[(level: Logger.Level, message: String)]>([])

    func record(_ level: Logger.Level, _ message: String) {
        entries.withLock { $0.append((level, message)) }
    }

    /// The messages logged at `level` or above.
    func messages(atLeast level: Logger.Level) -> [String] {
        entries.withLock { $0.filter { $0.level >= level }.map(\.message) }
    }
}

struct RecordingLogHandler: LogHandler {
    let recorder: LogRecorder
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?
    var logLevel: Logger.Level = .info

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        recorder.record(event.level, event.message.description)
    }
}
