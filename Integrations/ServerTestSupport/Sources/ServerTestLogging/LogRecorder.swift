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
