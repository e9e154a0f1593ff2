#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Shows a render in a terminal while it resolves: on a terminal, each frame of
/// ``liveFrames(_:cache:options:isolation:)`` is drawn over the previous one in place (ANSI
/// cursor movement), with a status line naming the queries still pending, the attempt of those
/// being tried again and the boundaries that timed out; when the output is not a terminal (a
/// pipe, a file, CI), only the final rendering is written.
///
/// ```swift
/// try await LiveTerminal(format: .plain).render(Dashboard())
/// ```
///
/// A frame taller than the terminal is drawn as far as it fits while the render runs (the status
/// line counts the lines below), and the final rendering is written whole once at the end, so
/// that the scrollback holds it once and nothing else. Ctrl-C while it draws clears the status
/// line and shows the cursor before the process ends, unless the program handles SIGINT itself.
public struct LiveTerminal: Sendable {
    /// The format each frame is drawn in.
    public var format: RenderFormat
    private let isTerminal: Bool
    private let size: @Sendable () -> TerminalSize
    private let handlesInterrupt: Bool
    private let write: @Sendable (String) -> Void

    /// Draws to standard output, in place when it is a terminal.
    /// - Parameter format: The format each frame is drawn in (default `.plain`).
    public init(format: RenderFormat = .plain) {
        self.format = format
        isTerminal = isatty(STDOUT_FILENO) != 0
        size = { Self.terminalSize() }
        handlesInterrupt = true
        write = writeToStandardOutput
    }

    /// Draws through `write`, as a terminal `columns` wide (nil: lines never wrap) and `rows`
    /// high (nil: frames are never cut) when `isTerminal`; for tests.
    init(
        format: RenderFormat, isTerminal: Bool, columns: Int?, rows: Int? = nil,
        write: @escaping @Sendable (String) -> Void
    ) {
        self.format = format
        self.isTerminal = isTerminal
        size = { TerminalSize(columns: columns, rows: rows) }
        handlesInterrupt = false
        self.write = write
    }

    /// Resolves `component`, drawing it as it goes, and returns the final rendering. The root is
    /// made inside the render, as ``render(_:as:cache:options:isolation:)`` makes it.
    /// - Throws: What ``render(_:as:cache:options:isolation:)`` throws; the last frame drawn
    ///   stays on the terminal, whole, without its status line.
    @discardableResult
    public func render<C: Component>(
        _ component: @autoclosure @escaping () throws -> C,
        cache: QueryCache = ._perRender(),
        options: RenderOptions = RenderOptions(),
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> String {
        guard isTerminal else {
            let text = try await SuspenseKit.render(try component(), as: format, cache: cache, options: options)
            write(text + "\n")
            return text
        }
        let drawing = LiveDrawing(size: size, write: write)
        let listener = RetryListener { key, attempt, maxAttempts in
            drawing.willRetry(key, attempt: attempt, of: maxAttempts)
        }
        if handlesInterrupt { TerminalInterrupt.install() }
        defer {
            drawing.finish()
            if handlesInterrupt { TerminalInterrupt.uninstall() }
        }
        // Bound around the render, whose task (and the retry runs it makes) inherit it.
        return try await RetryListener.$current.withValue(listener) {
            var final = ""
            for try await frame in liveFrames(try component(), cache: cache, options: options, isolation: isolation) {
                final = try frame.rendered(as: format)
                drawing.draw(final, pending: frame.pendingQueries, cause: frame.cause)
            }
            return final
        }
    }

    private static func terminalSize() -> TerminalSize {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0 else { return TerminalSize() }
        return TerminalSize(
            columns: size.ws_col > 0 ? Int(size.ws_col) : nil, rows: size.ws_row > 0 ? Int(size.ws_row) : nil)
    }
}

/// Writes all of `text` to standard output, unbuffered (as `print` would interleave otherwise).
private func writeToStandardOutput(_ text: String) {
    var text = text
    text.withUTF8 { bytes in
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            let written = write(STDOUT_FILENO, base + offset, bytes.count - offset)
            if written <= 0 { return }
            offset += written
        }
    }
}
