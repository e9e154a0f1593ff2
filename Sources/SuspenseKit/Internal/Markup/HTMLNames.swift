// What HTML allows in names, shared by the resolver (which checks each element as it resolves
// it, so a bad name is an error at the element, in every format) and the renderers (which check
// a tree built by hand): neither depends on the other for it.

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
