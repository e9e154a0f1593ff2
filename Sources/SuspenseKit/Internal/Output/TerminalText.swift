/// The characters that `.plain` and `.tree` never pass to a terminal as they are, and the visible
/// escape written instead.
///
/// A terminal acts on some characters instead of showing them: ESC starts sequences that move the
/// cursor, recolour, retitle the window or write to the clipboard; BEL rings; a lone carriage
/// return goes back to the start of the line, so that what follows overwrites what came before;
/// some terminals read the C1 controls (U+0080–U+009F) as ESC sequences (U+009B is CSI); and the
/// bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069) reorder the rest
/// of the line, so that it reads otherwise than it is ("Trojan Source"). Text in both formats comes
/// from data, so each of these is written as `\u{1B}`: the escape of a Swift string literal,
/// uppercase hexadecimal without leading zeros, which reads the same in a terminal, a golden file
/// and a test's expected string. Newline and tab are up to each format.
enum TerminalText {
    /// Whether the scalar `value` is written as an escape (newline and tab included: each format
    /// decides about them before asking).
    @inline(__always)
    static func isControl(_ value: UInt32) -> Bool {
        value < 0x20 || (0x7F...0x9F).contains(value) || (0x202A...0x202E).contains(value)
            || (0x2066...0x2069).contains(value)
    }

    /// Whether `byte` may start a control: every byte below 0x20, DEL, and every byte of
    /// non-ASCII text (among them the lead bytes of the C1 and bidirectional controls). Two
    /// comparisons, so that a scan of ASCII text is cheap; only what it finds needs a closer look
    /// with ``controlLength(in:at:)``.
    @inline(__always)
    static func mayStartControl(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte >= 0x7F
    }

    /// The index of the first byte at or after `start` that may start a control (see
    /// ``mayStartControl(_:)``), or, when `quotes`, is also `"` or `\\`; `bytes.count` when none
    /// does. Eight bytes at a time while none of them does: most text has nothing to escape.
    @inline(__always)
    static func firstSpecialByte(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, quotes: Bool) -> Int {
        guard let base = bytes.baseAddress else { return start }
        let count = bytes.count
        var index = start
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        // Whether some byte of `word` is zero (each test below is exact for the word as a whole).
        @inline(__always) func hasZero(_ word: UInt64) -> Bool {
            (word &- ones) & ~word & high != 0
        }
        while index &+ 8 <= count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            // A byte of 0x80 or more, a byte below 0x20, DEL.
            if word & high != 0 || (word &- ones &* 0x20) & ~word & high != 0 || hasZero(word ^ (ones &* 0x7F)) {
                break
            }
            if quotes, hasZero(word ^ (ones &* 0x22)) || hasZero(word ^ (ones &* 0x5C)) { break }
            index &+= 8
        }
        while index < count {
            let byte = base[index]
            if mayStartControl(byte) || (quotes && (byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\"))) {
                break
            }
            index &+= 1
        }
        return index
    }

    /// The length in bytes of the control that starts at `index` of valid UTF-8 (1 for C0 and DEL,
    /// 2 for C1, 3 for a bidirectional control), or 0 when none starts there.
    @inline(__always)
    static func controlLength(in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
        let byte = bytes[index]
        if byte < 0x20 || byte == 0x7F { return 1 }
        if byte == 0xC2 {
            return index + 1 < bytes.count && bytes[index + 1] <= 0x9F ? 2 : 0
        }
        if byte == 0xE2, index + 2 < bytes.count {
            let second = bytes[index + 1]
            let third = bytes[index + 2]
            // U+202A–U+202E are E2 80 AA–AE; U+2066–U+2069 are E2 81 A6–A9.
            if (second == 0x80 && (0xAA...0xAE).contains(third)) || (second == 0x81 && (0xA6...0xA9).contains(third)) {
                return 3
            }
        }
        return 0
    }

    /// The scalar value of the control of `length` bytes at `index` (see ``controlLength(in:at:)``).
    @inline(__always)
    static func controlValue(in bytes: UnsafeBufferPointer<UInt8>, at index: Int, length: Int) -> UInt32 {
        switch length {
        case 1: return UInt32(bytes[index])
        case 2: return UInt32(bytes[index + 1])  // C2 80–9F is U+0080–U+009F
        default:
            return (UInt32(bytes[index] & 0x0F) << 12) | (UInt32(bytes[index + 1] & 0x3F) << 6)
                | UInt32(bytes[index + 2] & 0x3F)
        }
    }

    /// Appends the escape of `value`, as in `\u{1B}`.
    static func appendEscape(_ value: UInt32, to output: inout ByteBuffer) {
        output.append("\\u{")
        output.append(String(value, radix: 16, uppercase: true))
        output.append(UInt8(ascii: "}"))
    }

    /// Appends the escape of `value` to a string, as in `\u{1B}`.
    static func appendEscape(_ value: UInt32, to output: inout String) {
        output += "\\u{" + String(value, radix: 16, uppercase: true) + "}"
    }
}
