/// The size of a terminal in character cells; nil where it is not known (a line never wraps,
/// or a frame is never cut).
struct TerminalSize: Sendable, Equatable {
    var columns: Int?
    var rows: Int?
}

/// What ``LiveTerminal`` keeps on the screen: the last frame, cut to the terminal's height, and a
/// status line below it, redrawn in place for each frame and each retry.
///
/// The block drawn never takes more rows than the terminal has, so that moving up to its first
/// row always reaches it: a block taller than the screen would scroll its top into the
/// scrollback, beyond the reach of the cursor, and each redraw would leave a copy there. What
/// does not fit is counted in the status line; at the end the last frame is written whole,
/// once, and scrolls like any output. The cursor always ends on the status row (empty when
/// there is nothing to say), so that clearing that one row is all an interrupt has to do
/// (``TerminalInterrupt``). Used from the render's task and from query tasks (retries): the
/// state and the writes are under one lock, so that blocks never interleave.
final class LiveDrawing: Sendable {
    /// Hides the cursor while frames are drawn over each other.
    static let hideCursor = "\u{1B}[?25l"
    /// Shows the cursor again.
    static let showCursor = "\u{1B}[?25h"

    private struct State {
        /// The last frame, rendered.
        var text: String?
        var pending: [String] = []
        /// The attempt each pending query is on, when it has been tried again.
        var attempts: [String: (attempt: Int, of: Int)] = [:]
        var timedOut: [BoundaryID] = []
        /// The rows of the block on the screen, its status row included; 0 before the first.
        var drawnRows = 0
        /// Whether the block on the screen left part of its frame out.
        var cut = false
        var finished = false
    }

    private let write: @Sendable (String) -> Void
    private let size: @Sendable () -> TerminalSize
    private let state = Locked(State())

    init(size: @escaping @Sendable () -> TerminalSize, write: @escaping @Sendable (String) -> Void) {
        self.size = size
        self.write = write
    }

    /// Draws a frame, rendered as `text`, over the block on the screen.
    func draw(_ text: String, pending: [String], cause: RenderFrame.Cause) {
        state.withLock { state in
            guard !state.finished else { return }
            state.text = text
            state.pending = pending
            state.attempts = state.attempts.filter { pending.contains($0.key) }
            if case .timeout(let id) = cause, !state.timedOut.contains(id) { state.timedOut.append(id) }
            redraw(&state)
        }
    }

    /// Notes that the query `key` is about to be tried again, and shows it when the frame on the
    /// screen waits on it.
    func willRetry(_ key: String, attempt: Int, of maxAttempts: Int) {
        state.withLock { state in
            guard !state.finished else { return }
            state.attempts[key] = (attempt, maxAttempts)
            if state.drawnRows > 0, state.pending.contains(key) { redraw(&state) }
        }
    }

    /// Leaves the last frame whole on the screen, without a status line, and the cursor shown
    /// below it. Nothing is drawn after.
    func finish() {
        state.withLock { state in
            guard !state.finished else { return }
            state.finished = true
            guard state.drawnRows > 0, let text = state.text else { return }
            if state.cut {
                write(Self.moveToFirstRow(state.drawnRows) + "\u{1B}[J" + text + "\n" + Self.showCursor)
            } else {
                write(TerminalInterrupt.cleanup)
            }
        }
    }

    private func redraw(_ state: inout State) {
        guard let text = state.text else { return }
        let size = size()
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var shown: [Substring] = []
        var used = 0
        var hidden = 0
        let budget = size.rows.map { max($0 - 1, 0) } ?? Int.max
        for (index, line) in lines.enumerated() {
            let rows = Self.rows(of: line, columns: size.columns)
            if rows <= budget - used {
                shown.append(line)
                used += rows
                continue
            }
            // The first line that does not fit: as much of it as fills the rows left.
            let room = budget - used
            if room > 0, let columns = size.columns, columns > 0 {
                shown.append(line.prefix(room * columns))
                used += room
            }
            hidden = lines.count - index
            break
        }
        let status = Self.clipped(statusLine(state, hidden: hidden), to: size.columns)
        let start = state.drawnRows > 0 ? Self.moveToFirstRow(state.drawnRows) + "\u{1B}[J" : Self.hideCursor
        var block = start
        for line in shown { block += line + "\n" }
        if !status.isEmpty { block += "\u{1B}[2m" + status + "\u{1B}[0m" }
        write(block)
        state.drawnRows = used + 1
        state.cut = hidden > 0
    }

    /// What the status line says: the queries the frame waits on (with the attempt of those
    /// tried again), the boundaries that timed out, and how many lines did not fit.
    private func statusLine(_ state: State, hidden: Int) -> String {
        var parts: [String] = []
        if !state.pending.isEmpty {
            // Keys are escaped as `.tree` escapes them: a key is data, not terminal control.
            let keys = state.pending.map { key in
                var shown = TreeRenderer.escaped(key)
                if let attempt = state.attempts[key] { shown += " (attempt \(attempt.attempt) of \(attempt.of))" }
                return shown
            }
            parts.append("waiting on " + keys.joined(separator: ", "))
        }
        if !state.timedOut.isEmpty {
            parts.append("timed out: " + state.timedOut.map { "Suspense #\($0)" }.joined(separator: ", "))
        }
        if hidden > 0 {
            parts.append("\(hidden) more line\(hidden == 1 ? "" : "s") below")
        }
        return parts.isEmpty ? "" : "… " + parts.joined(separator: " · ")
    }

    /// Back to the start of the first row of a block of `rows` rows whose last row the cursor is
    /// on.
    static func moveToFirstRow(_ rows: Int) -> String {
        rows > 1 ? "\u{1B}[\(rows - 1)F" : "\r"
    }

    /// `status` cut to fit one row short of the last column, so that it never wraps (some
    /// terminals scroll when the last column is written).
    private static func clipped(_ status: String, to columns: Int?) -> String {
        guard let columns, status.count > columns - 1 else { return status }
        return String(status.prefix(max(columns - 1, 0)))
    }

    /// How many terminal rows `line` takes, wrapped at `columns` (nil: never wrapped). One column
    /// per character: frames have no escape sequences (`.plain` and `.tree` escape controls).
    static func rows(of line: Substring, columns: Int?) -> Int {
        let width = line.count
        guard let columns, columns > 0, width > columns else { return 1 }
        return (width + columns - 1) / columns
    }
}
