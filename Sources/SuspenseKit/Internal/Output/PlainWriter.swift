/// The output of `.plain` and where its line stands: breaks asked for but not yet written, list
/// markers and indentation, a space held back between words of HTML text. A struct with mutating
/// methods, not closures over local variables, so that the compiler checks exclusive access
/// statically.
///
/// Breaks, markers and spaces are written only before the next visible character, so that the
/// output never starts or ends with a break and never holds two blank lines in a row, and a list
/// item with nothing in it shows nothing. Every control (see ``TerminalText``) is written as its
/// escape; text keeps its newlines and tabs, and a carriage return only before a newline.
struct PlainWriter: ~Copyable {
    var output: ByteBuffer
    /// How many line ends the output ends with: 0 while the line holds something.
    private var lineEnds = 0
    /// The break to make before the next visible character: 0 none, 1 a new line, 2 a blank line.
    private var pendingBreak = 0
    /// Whether HTML text held back a space, written before the next visible character unless
    /// that starts a line.
    private var pendingSpace = false
    /// How many list items opened whose marker waits for their first visible character, and the
    /// indentation of the first of them.
    private var pendingMarkers = 0
    private var markerIndentation = 0
    /// The indentation of lines inside open list items: two spaces per item.
    private(set) var indentation = 0

    init(capacity: Int) {
        output = ByteBuffer(capacity: capacity)
    }

    /// Asks for a new line (`level` 1) or a blank line (`level` 2) before what comes next.
    mutating func requestBreak(_ level: Int) {
        if level > pendingBreak { pendingBreak = level }
    }

    /// A line break (`br`): ends the line, and takes the place of a new line asked for.
    mutating func lineBreak() {
        output.append(UInt8(ascii: "\n"))
        lineEnds += 1
        pendingSpace = false
        if pendingBreak == 1 { pendingBreak = 0 }
    }

    /// A list item opens: its marker waits for its first visible character.
    mutating func openListItem() {
        if pendingMarkers == 0 { markerIndentation = indentation }
        pendingMarkers += 1
        indentation += 2
    }

    mutating func closeListItem() {
        indentation -= 2
        if pendingMarkers > 0 { pendingMarkers -= 1 }
    }

    /// Text shown as written, controls escaped.
    mutating func writeText(_ bytes: UnsafeBufferPointer<UInt8>) {
        // Most text holds no byte to look at: one scan, one copy.
        if TerminalText.firstSpecialByte(in: bytes, from: 0, quotes: false) == bytes.count {
            append(bytes, 0..<bytes.count)
        } else {
            write(bytes, collapsingWhitespace: false)
        }
    }

    /// Text of HTML markup, whose runs of ASCII whitespace show as one space, and none at the
    /// start or end of a line, as a browser shows them.
    mutating func writeHTMLText(_ bytes: UnsafeBufferPointer<UInt8>) {
        write(bytes, collapsingWhitespace: true)
    }

    private mutating func write(_ bytes: UnsafeBufferPointer<UInt8>, collapsingWhitespace: Bool) {
        // Runs of ordinary bytes are copied at once; only what may be a control, or whitespace
        // in HTML text, is looked at on its own.
        var runStart = 0
        var index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            if collapsingWhitespace, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D {
                append(bytes, runStart..<index)
                pendingSpace = true
                index += 1
                runStart = index
                continue
            }
            guard TerminalText.mayStartControl(byte) else {
                index += 1
                continue
            }
            if byte == UInt8(ascii: "\t") {
                index += 1
                continue
            }
            if byte == UInt8(ascii: "\n")
                || (byte == UInt8(ascii: "\r") && index + 1 < count && bytes[index + 1] == 0x0A)
            {
                append(bytes, runStart..<index)
                newline(crlf: byte == UInt8(ascii: "\r"))
                index += byte == UInt8(ascii: "\r") ? 2 : 1
                runStart = index
                continue
            }
            let length = TerminalText.controlLength(in: bytes, at: index)
            if length == 0 {
                index += 1
                continue
            }
            append(bytes, runStart..<index)
            beginContent()
            TerminalText.appendEscape(TerminalText.controlValue(in: bytes, at: index, length: length), to: &output)
            lineEnds = 0
            index += length
            runStart = index
        }
        append(bytes, runStart..<count)
    }

    private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
        guard !range.isEmpty else { return }
        beginContent()
        output.append(UnsafeBufferPointer(rebasing: bytes[range]))
        lineEnds = 0
    }

    /// A line end written by text: the breaks asked for come first.
    private mutating func newline(crlf: Bool) {
        writePendingBreak()
        if crlf {
            output.append(UInt8(ascii: "\r"), UInt8(ascii: "\n"))
        } else {
            output.append(UInt8(ascii: "\n"))
        }
        lineEnds += 1
        pendingSpace = false
    }

    private mutating func writePendingBreak() {
        if pendingBreak > 0, !output.isEmpty {
            while lineEnds < pendingBreak {
                output.append(UInt8(ascii: "\n"))
                lineEnds += 1
            }
            pendingSpace = false
        }
        pendingBreak = 0
    }

    /// Before a visible character: the breaks asked for, then the list markers or indentation of
    /// a new line, or the space HTML text held back.
    @inline(__always)
    private mutating func beginContent() {
        if pendingBreak > 0 { writePendingBreak() }
        if output.isEmpty || lineEnds > 0 {
            pendingSpace = false
            if pendingMarkers > 0 {
                output.append(UInt8(ascii: " "), repeated: markerIndentation)
                for _ in 0..<pendingMarkers {
                    output.append(UInt8(ascii: "-"), UInt8(ascii: " "))
                }
                pendingMarkers = 0
            } else {
                output.append(UInt8(ascii: " "), repeated: indentation)
            }
        } else if pendingSpace {
            output.append(UInt8(ascii: " "))
            pendingSpace = false
        }
    }
}
