/// A tiny VT100: a screen of `rows` × `columns` cells and the scrollback above it, driven by the
/// handful of sequences the live terminal writes, so that a test asserts what a person would
/// see (and scroll back to), not the bytes.
///
/// Like xterm behind a tty: a newline also returns the carriage (the tty's `onlcr`); writing the
/// last column defers the wrap to the next printed character; a line feed on the bottom row
/// scrolls the top row into the scrollback. Understood: CR, LF, `ESC[nA` (up), `ESC[nF` (up, to
/// the first column), `ESC[J` / `ESC[2J` (erase below / the screen), `ESC[K` / `ESC[2K` (erase
/// to the end of / the whole line), `ESC[?25l` / `ESC[?25h` (cursor hidden / shown) and SGR
/// (`ESC[…m`, ignored). Anything else is kept in `unknown`, for the test to assert on.
struct VirtualTerminal {
    let columns: Int
    let rows: Int
    private(set) var screen: [[Character]]
    private(set) var scrollback: [String] = []
    private(set) var row = 0
    private(set) var column = 0
    private(set) var cursorVisible = true
    private(set) var unknown: [String] = []
    private var wrapPending = false

    init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
        screen = Array(repeating: Array(repeating: " ", count: columns), count: rows)
    }

    /// The screen's rows, without trailing blanks.
    var screenLines: [String] {
        screen.map { String($0).trimmingTrailingSpaces }
    }

    /// The scrollback then the screen, without the blank rows at the bottom of the screen: all a
    /// person can read by scrolling.
    var history: [String] {
        var lines = scrollback + screenLines
        while lines.last == "" { lines.removeLast() }
        return lines
    }

    mutating func feed(_ text: String) {
        var scalars = Array(text.unicodeScalars)[...]
        while let scalar = scalars.popFirst() {
            switch scalar {
            case "\u{1B}":
                guard scalars.first == "[" else {
                    unknown.append("ESC")
                    continue
                }
                scalars.removeFirst()
                var parameters = ""
                while let next = scalars.first, (0x30...0x3F).contains(next.value) {
                    parameters.unicodeScalars.append(next)
                    scalars.removeFirst()
                }
                guard let final = scalars.popFirst() else {
                    unknown.append("ESC[" + parameters)
                    return
                }
                control(parameters, final)
            case "\r":
                column = 0
                wrapPending = false
            case "\n":
                column = 0
                wrapPending = false
                lineFeed()
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    unknown.append("control \(scalar.value)")
                    continue
                }
                if wrapPending {
                    column = 0
                    wrapPending = false
                    lineFeed()
                }
                screen[row][column] = Character(scalar)
                if column == columns - 1 {
                    wrapPending = true
                } else {
                    column += 1
                }
            }
        }
    }

    private mutating func control(_ parameters: String, _ final: Unicode.Scalar) {
        let count = max(Int(parameters) ?? 1, 1)
        switch (parameters, final) {
        case (_, "A") where Int(parameters) != nil || parameters.isEmpty:
            row = max(row - count, 0)
            wrapPending = false
        case (_, "F") where Int(parameters) != nil || parameters.isEmpty:
            row = max(row - count, 0)
            column = 0
            wrapPending = false
        case ("", "J"), ("0", "J"):
            for index in column..<columns { screen[row][index] = " " }
            for below in (row + 1)..<rows { screen[below] = blankRow }
        case ("2", "J"):
            screen = Array(repeating: blankRow, count: rows)
        case ("", "K"), ("0", "K"):
            for index in column..<columns { screen[row][index] = " " }
        case ("2", "K"):
            screen[row] = blankRow
        case ("?25", "l"):
            cursorVisible = false
        case ("?25", "h"):
            cursorVisible = true
        case (_, "m"):
            break
        default:
            unknown.append("ESC[" + parameters + String(final))
        }
    }

    private var blankRow: [Character] {
        Array(repeating: " ", count: columns)
    }

    private mutating func lineFeed() {
        if row == rows - 1 {
            scrollback.append(String(screen.removeFirst()).trimmingTrailingSpaces)
            screen.append(blankRow)
        } else {
            row += 1
        }
    }
}

extension String {
    fileprivate var trimmingTrailingSpaces: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
