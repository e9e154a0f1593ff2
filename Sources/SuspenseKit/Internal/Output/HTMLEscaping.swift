/// Appends text to a UTF-8 buffer with the characters that HTML would read as markup replaced by
/// character references. NUL, which HTML parsers drop or replace, becomes U+FFFD.
enum HTMLEscaping {
    /// Escapes `&`, `<`, `>`, `"` and `'` (attribute values).
    static func appendAttribute(_ string: String, to buffer: inout [UInt8]) {
        append(string, to: &buffer, quotes: true)
    }

    /// Two passes over the string's bytes: the first counts what escaping adds (most text needs
    /// none and is appended in one copy); the second writes into space grown once, instead of
    /// appending run by run.
    static func append(_ string: String, to buffer: inout [UInt8], quotes: Bool) {
        var string = string
        string.withUTF8 { append($0, to: &buffer, quotes: quotes) }
    }

    static func append(_ bytes: UnsafeBufferPointer<UInt8>, to buffer: inout [UInt8], quotes: Bool) {
        let extra = extraBytes(in: bytes, quotes: quotes)
        if extra == 0 {
            buffer.append(contentsOf: bytes)
            return
        }
        let start = buffer.count
        let length = bytes.count + extra
        buffer.append(contentsOf: repeatElement(0, count: length))
        buffer.withUnsafeMutableBufferPointer { output in
            let base = output.baseAddress! + start
            _ = write(bytes, to: base, end: base + length, quotes: quotes)
        }
    }

    /// `append(_:to:quotes:)` into a ``ByteBuffer``.
    static func append(_ bytes: UnsafeBufferPointer<UInt8>, to buffer: inout ByteBuffer, quotes: Bool) {
        let extra = extraBytes(in: bytes, quotes: quotes)
        if extra == 0 {
            buffer.append(bytes)
        } else {
            let length = bytes.count + extra
            buffer.append(atMost: length) { write(bytes, to: $0, end: $0 + length, quotes: quotes) }
        }
    }

    /// How many bytes escaping `bytes` adds.
    static func extraBytes(in bytes: UnsafeBufferPointer<UInt8>, quotes: Bool) -> Int {
        // One table read and one addition per byte, no branch: text with a `<` every few bytes
        // mispredicted a branch at each of them.
        let table = quotes ? attributeTable : textTable
        var total = 0
        for byte in bytes {
            total &+= Int(truncatingIfNeeded: table[Int(byte)] &>> 56)
        }
        return total &- bytes.count
    }

    /// Writes `bytes` escaped at `output`, with room up to `end` (at least `bytes.count` plus
    /// `extraBytes(in:quotes:)` bytes); returns the position after them. Bytes between that
    /// position and `end` may be overwritten.
    static func write(
        _ bytes: UnsafeBufferPointer<UInt8>,
        to output: UnsafeMutablePointer<UInt8>,
        end: UnsafeMutablePointer<UInt8>,
        quotes: Bool
    ) -> UnsafeMutablePointer<UInt8> {
        let table = quotes ? attributeTable : textTable
        var position = output
        var index = 0
        let count = bytes.count
        guard let base = bytes.baseAddress else { return position }
        // While eight bytes fit: store each byte's whole table word (its replacement, or the byte
        // itself) and move on by its length. What the store wrote past that length is written
        // over next; no branch per byte.
        while index < count, end - position >= 8 {
            let word = table[Int(base[index])]
            UnsafeMutableRawPointer(position).storeBytes(of: word.littleEndian, as: UInt64.self)
            position += Int(truncatingIfNeeded: word &>> 56)
            index &+= 1
        }
        // The last few, byte by byte, so that nothing is written past `end`.
        while index < count {
            var word = table[Int(base[index])]
            let length = Int(truncatingIfNeeded: word &>> 56)
            for offset in 0..<length {
                position[offset] = UInt8(truncatingIfNeeded: word)
                word &>>= 8
            }
            position += length
            index &+= 1
        }
        return position
    }

    /// For each byte, what text content is written as: the replacement's bytes, first byte
    /// lowest, and its length in the top byte. Made once, never freed, never written again.
    nonisolated(unsafe) static let textTable = makeTable(quotes: false)
    /// The same for attribute values, where `"` and `'` are escaped too.
    nonisolated(unsafe) static let attributeTable = makeTable(quotes: true)

    private static func makeTable(quotes: Bool) -> UnsafePointer<UInt64> {
        let table = UnsafeMutablePointer<UInt64>.allocate(capacity: 256)
        for byte in 0...255 {
            let replacement: String
            switch UInt8(byte) {
            case UInt8(ascii: "&"): replacement = "&amp;"
            case UInt8(ascii: "<"): replacement = "&lt;"
            case UInt8(ascii: ">"): replacement = "&gt;"
            case UInt8(ascii: "\"") where quotes: replacement = "&quot;"
            case UInt8(ascii: "'") where quotes: replacement = "&#39;"
            case 0: replacement = "\u{FFFD}"
            default:
                table[byte] = UInt64(byte) | (1 << 56)
                continue
            }
            var word = UInt64(replacement.utf8.count) << 56
            for (offset, unit) in replacement.utf8.enumerated() {
                word |= UInt64(unit) << (8 * offset)
            }
            table[byte] = word
        }
        return UnsafePointer(table)
    }
}
