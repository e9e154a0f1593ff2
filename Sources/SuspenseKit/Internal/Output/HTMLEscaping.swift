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

/// Checks element and attribute names before they are written as markup.
enum HTMLNames {
    static let voidElements: Set<String> = [
        "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr",
    ]

    /// Whether `tag` names a void element, in any letter case (HTML tag names are
    /// case-insensitive: `IMG` is as void as `img`).
    static func isVoid(_ tag: String) -> Bool {
        voidElements.contains(tag)
            || (tag.utf8.contains { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }
                && voidElements.contains(tag.lowercased()))
    }

    static func checkTag(_ tag: String) throws {
        guard let first = tag.utf8.first else {
            throw InvalidMarkupError(message: "invalid tag name \"\": a tag name cannot be empty")
        }
        let valid =
            isASCIILetter(first)
            && tag.utf8.allSatisfy { isASCIILetter($0) || isASCIIDigit($0) || "-_.:".utf8.contains($0) }
        guard valid else {
            throw InvalidMarkupError(
                message: "invalid tag name \(TreeRenderer.quoted(tag)): a tag name must start with an ASCII "
                    + "letter and contain only ASCII letters, digits, '-', '_', '.' or ':'"
            )
        }
    }

    static func checkAttribute(_ name: String, tag: String) throws {
        guard !name.isEmpty else {
            throw InvalidMarkupError(
                message: "invalid attribute name \"\" on <\(tag)>: an attribute name cannot be empty")
        }
        for scalar in name.unicodeScalars {
            let value = scalar.value
            // Besides what ends a name in HTML's tokenizer, any Unicode whitespace (no-break
            // space, line separator, ideographic space, …): parsers that split on it, such as
            // Python's html.parser, would read a second attribute out of the name.
            let forbidden =
                value <= 0x20 || (0x7F...0x9F).contains(value) || "\"'<>/=`".unicodeScalars.contains(scalar)
                || (0xFDD0...0xFDEF).contains(value) || value & 0xFFFE == 0xFFFE || scalar.properties.isWhitespace
            if forbidden {
                throw InvalidMarkupError(
                    message: "invalid attribute name \(TreeRenderer.quoted(name)) on <\(tag)>: attribute names "
                        + "cannot contain whitespace, control characters, quotes, '<', '>', '/', '=' or '`'"
                )
            }
        }
    }

    /// Checks every attribute name of an element, and that no name comes twice: HTML reads
    /// attribute names in any letter case as one (`class` and `CLASS`), and a browser keeps only
    /// the first, so the second would be lost without a word.
    static func checkAttributes(_ attributes: [Attribute], tag: String) throws {
        for attribute in attributes {
            try checkAttribute(attribute.name, tag: tag)
        }
        if attributes.count >= 2 { try checkNoDuplicate(in: attributes, tag: tag) }
    }

    /// Throws for the first attribute whose name, in any ASCII letter case, an earlier one had.
    static func checkNoDuplicate(in attributes: [Attribute], tag: String) throws {
        func duplicate(_ first: String, _ second: String) -> InvalidMarkupError {
            let again = first == second ? "twice" : "again as \(TreeRenderer.quoted(second))"
            return InvalidMarkupError(
                message: "duplicate attribute \(TreeRenderer.quoted(first)) on <\(tag)>: it is given \(again) "
                    + "(HTML ignores the letter case of attribute names), and a browser would keep only the first")
        }
        if attributes.count <= 8 {
            // A few names: comparing each pair costs less than hashing them.
            for later in 1..<attributes.count {
                for earlier in 0..<later where sameName(attributes[earlier].name, attributes[later].name) {
                    throw duplicate(attributes[earlier].name, attributes[later].name)
                }
            }
            return
        }
        var seen: [String: String] = [:]
        for attribute in attributes {
            let folded = TagTraits.asciiLowercased(attribute.name)
            if let first = seen[folded] { throw duplicate(first, attribute.name) }
            seen[folded] = attribute.name
        }
    }

    /// Whether two names are the same in any ASCII letter case.
    static func sameName(_ first: String, _ second: String) -> Bool {
        first.utf8.count == second.utf8.count
            && first.utf8.elementsEqual(second.utf8) { $0 == $1 || (isASCIILetter($0) && $0 | 0x20 == $1 | 0x20) }
    }

    @inline(__always) static func isASCIILetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }

    @inline(__always) static func isASCIIDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}

extension InvalidMarkupError {
    /// A void element with children, which HTML cannot carry: they would be lost.
    static func voidElement(_ tag: String, children: Int, suspended: Bool = false) -> InvalidMarkupError {
        let children = children == 1 ? "its 1 child" : "its \(children) children"
        let note = suspended ? " (content that suspended counts: a void element cannot wait for children)" : ""
        return InvalidMarkupError(
            message: "<\(tag)> is a void element and cannot have children; \(children) would be lost\(note)")
    }
}
