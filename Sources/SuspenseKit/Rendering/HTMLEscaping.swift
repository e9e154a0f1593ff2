/// Appends text to a UTF-8 buffer with the characters that HTML would read as markup replaced by
/// character references. NUL, which HTML parsers drop or replace, becomes U+FFFD.
@usableFromInline
enum HTMLEscaping {
    /// Escapes `&`, `<`, `>` (text content).
    @inlinable
    static func appendText(_ string: String, to buffer: inout [UInt8]) {
        append(string, to: &buffer, quotes: false)
    }

    /// Escapes `&`, `<`, `>`, `"` and `'` (attribute values).
    @inlinable
    static func appendAttribute(_ string: String, to buffer: inout [UInt8]) {
        append(string, to: &buffer, quotes: true)
    }

    @inlinable
    static func append(_ string: String, to buffer: inout [UInt8], quotes: Bool) {
        var string = string
        string.withUTF8 { bytes in
            var runStart = 0
            for index in 0..<bytes.count {
                let byte = bytes[index]
                let replacement: StaticString
                switch byte {
                case UInt8(ascii: "&"): replacement = "&amp;"
                case UInt8(ascii: "<"): replacement = "&lt;"
                case UInt8(ascii: ">"): replacement = "&gt;"
                case UInt8(ascii: "\"") where quotes: replacement = "&quot;"
                case UInt8(ascii: "'") where quotes: replacement = "&#39;"
                case 0: replacement = "\u{FFFD}"
                default: continue
                }
                if runStart < index {
                    buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                }
                replacement.withUTF8Buffer { buffer.append(contentsOf: $0) }
                runStart = index + 1
            }
            if runStart < bytes.count {
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
            }
        }
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
            throw InvalidMarkupError(message: "invalid attribute name \"\" on <\(tag)>: an attribute name cannot be empty")
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

    @inline(__always) static func isASCIILetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }

    @inline(__always) static func isASCIIDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
