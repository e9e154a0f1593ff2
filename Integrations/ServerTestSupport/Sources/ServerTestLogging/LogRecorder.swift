public import Logging
import ServerTestSupport

/// What a server logged, for tests that check an error was reported.
public final class LogRecorder: Sendable {
    private let entries = Locked<[(level: Logger.Level, message: String)]>([])

    public init() {}

    public func record(_ level: Logger.Level, _ message: String) {
        entries.withLock { $0.append((level, message)) }
    }

    /// The messages logged at `level` or above.
    public func messages(atLeast level: Logger.Level) -> [String] {
        entries.withLock { $0.filter { $0.level >= level }.map(\.message) }
    }
}

/// Hands every message it is given to a `LogRecorder`.
public struct RecordingLogHandler: LogHandler {
    public let recorder: LogRecorder
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    public var logLevel: Logger.Level = .info

    public init(recorder: LogRecorder) { self.recorder = recorder }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        recorder.record(event.level, event.message.description)
    }
}
