#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Shows a render in a terminal while it resolves: on a terminal, each frame of
/// ``liveFrames(_:cache:options:isolation:)`` is drawn over the previous one in place (ANSI
/// cursor movement), with a progress line naming the queries still pending; when the output is
/// not a terminal (a pipe, a file, CI), only the final rendering is written.
///
/// ```swift
/// try await LiveTerminal(format: .plain).render(Dashboard())
/// ```
public struct LiveTerminal: Sendable {
    /// The format each frame is drawn in.
    public var format: RenderFormat
    private let isTerminal: Bool
    private let columns: Int?
    private let write: @Sendable (String) -> Void

    /// Draws to standard output, in place when it is a terminal.
    /// - Parameter format: The format each frame is drawn in (default `.plain`).
    public init(format: RenderFormat = .plain) {
        self.format = format
        isTerminal = isatty(STDOUT_FILENO) != 0
        columns = Self.terminalColumns()
        write = writeToStandardOutput
    }

    /// Draws through `write`, as a terminal `columns` wide (nil: lines never wrap) when
    /// `isTerminal`; for tests.
    init(format: RenderFormat, isTerminal: Bool, columns: Int?, write: @escaping @Sendable (String) -> Void) {
        self.format = format
        self.isTerminal = isTerminal
        self.columns = columns
        self.write = write
    }

    /// Resolves `component`, drawing it as it goes, and returns the final rendering. The root is
    /// made inside the render, as ``render(_:as:cache:options:isolation:)`` makes it.
    /// - Throws: What ``render(_:as:cache:options:isolation:)`` throws; the last frame drawn
    ///   stays on the terminal.
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
        var drawnRows = 0
        var final = ""
        for try await frame in liveFrames(try component(), cache: cache, options: options) {
            final = try frame.rendered(as: format)
            var block = final + "\n"
            let pending = frame.pendingQueries
            if !pending.isEmpty {
                // Keys are escaped as `.tree` escapes them: a key is data, not terminal control.
                let keys = pending.map { TreeRenderer.escaped($0) }.joined(separator: ", ")
                block += "\u{1B}[2m… waiting on \(keys)\u{1B}[0m\n"
            }
            // Back to the first row drawn last time, and clear from there down.
            let redraw = drawnRows > 0 ? "\u{1B}[\(drawnRows)F\u{1B}[J" : ""
            write(redraw + block)
            drawnRows = rows(of: block)
        }
        return final
    }

    /// How many terminal rows `block` (ending with a newline) takes, counting wrapped lines.
    func rows(of block: String) -> Int {
        var rows = 0
        for line in block.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            let visible = Self.visibleWidth(of: line)
            if let columns, columns > 0, visible > columns {
                rows += (visible + columns - 1) / columns
            } else {
                rows += 1
            }
        }
        return rows
    }

    /// The width of a line without its escape sequences, one column per character.
    private static func visibleWidth(of line: Substring) -> Int {
        var width = 0
        var inEscape = false
        for scalar in line.unicodeScalars {
            if inEscape {
                if (0x40...0x7E).contains(scalar.value) && scalar != "[" { inEscape = false }
            } else if scalar == "\u{1B}" {
                inEscape = true
            } else {
                width += 1
            }
        }
        return width
    }

    private static func terminalColumns() -> Int? {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
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
