/// What a server adapter gives a ``StreamedPage`` when it serves it: where to log, and the
/// application's hooks for errors. Each gets `Context`, a value the adapter chooses (its request,
/// its logger), so that a hook can see what the request was.
public struct ServingHooks<Context: Sendable>: Sendable {
    /// Where the page reports what went wrong (a late error, a policy that blocks the stream).
    public var log: @Sendable (ServingLogEntry, Context) -> Void
    /// Makes the page for an error in the shell; nil logs the error and sends
    /// ``ErrorPage/serverError``.
    public var onShellError: (@Sendable (any Error, Context) -> ErrorPage)?
    /// Called with an error that no boundary caught after the shell, once the page is closed;
    /// nil logs it.
    public var onLateError: (@Sendable (any Error, Context) -> Void)?

    /// Creates hooks.
    /// - Parameters:
    ///   - log: Where to log; the adapter's logger.
    ///   - onShellError: The application's page for an error in the shell; by default the error
    ///     is logged and the client gets a 500 page that does not show it.
    ///   - onLateError: Called with an uncaught error after the shell; by default it is logged.
    public init(
        log: @escaping @Sendable (ServingLogEntry, Context) -> Void,
        onShellError: (@Sendable (any Error, Context) -> ErrorPage)? = nil,
        onLateError: (@Sendable (any Error, Context) -> Void)? = nil
    ) {
        self.log = log
        self.onShellError = onShellError
        self.onLateError = onLateError
    }
}

/// Something a served page reports, for the server's log.
public struct ServingLogEntry: Sendable, CustomStringConvertible {
    /// How serious it is.
    public enum Level: Sendable, Hashable {
        /// A setting that cannot work as meant, such as a policy that blocks the stream's scripts.
        case warning
        /// A page that failed: its shell, or after the shell.
        case error
    }

    /// How serious it is.
    public var level: Level
    /// What happened and, for a warning, how to fix it.
    public var message: String
    /// The error, when one caused it.
    public var error: (any Error)?

    /// Creates an entry.
    public init(level: Level, message: String, error: (any Error)? = nil) {
        self.level = level
        self.message = message
        self.error = error
    }

    /// The message, and the error after it.
    public var description: String {
        error.map { "\(message): \($0)" } ?? message
    }
}
