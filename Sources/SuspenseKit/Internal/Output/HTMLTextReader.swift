/// Reads the markup of a ``RawHTML`` into the elements and text a browser would make of it, for
/// `.plain`, which then shows it by the same rules as the rest of the tree.
///
/// Forgiving as browsers are, and never failing: tags and their attributes (quoted values may
/// hold `>`) become elements, text has its character references decoded (see HTMLEntities);
/// comments, doctypes and processing instructions leave nothing; the contents of `script` and
/// `style` are skipped to their end tag, and those of `textarea` and `title` read as text.
/// A start tag of `li`, `dd` or `dt` closes the one still open in the same list, a block start
/// tag closes an open `p`, and an end tag closes the elements opened after its own. Not a full
/// HTML parser: enough to show the visible text of trusted markup in a terminal.
enum HTMLTextReader {
    static func read(_ html: String) -> RenderTree {
        var reader = Reader()
        var html = html
        html.withUTF8 { reader.read($0) }
        return reader.finish()
    }

    private struct Reader {
        var tree = RenderTree()
        /// Text not yet made an entry, references decoded.
        var text: [UInt8] = []
        /// Open elements: their entry, their lowercased name.
        var open: [(entry: Int, name: String)] = []
        /// How many elements of each name are open, so that a tag that closes one looks through
        /// the open elements only when there is one: deep markup stays linear.
        var openCount: [String: Int] = [:]

        mutating func read(_ bytes: UnsafeBufferPointer<UInt8>) {
            let count = bytes.count
            var index = 0
            while index < count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "&") {
                    index = HTMLEntities.decode(bytes, at: index, into: &text)
                    continue
                }
                guard byte == UInt8(ascii: "<"), index + 1 < count else {
                    text.append(byte)
                    index += 1
                    continue
                }
                let next = bytes[index + 1]
                if HTMLNames.isASCIILetter(next) {
                    index = startTag(bytes, at: index)
                } else if next == UInt8(ascii: "/") {
                    if index + 2 >= count {
                        text.append(contentsOf: "</".utf8)
                        index = count
                    } else if HTMLNames.isASCIILetter(bytes[index + 2]) {
                        index = endTag(bytes, at: index)
                    } else {
                        index = Self.after(UInt8(ascii: ">"), in: bytes, from: index + 2)
                    }
                } else if next == UInt8(ascii: "!") {
                    index = Self.afterDeclaration(bytes, at: index)
                } else if next == UInt8(ascii: "?") {
                    index = Self.after(UInt8(ascii: ">"), in: bytes, from: index + 2)
                } else {
                    text.append(byte)
                    index += 1
                }
            }
        }

        mutating func finish() -> RenderTree {
            flushText()
            while !open.isEmpty { close() }
            return tree
        }

        // MARK: Tags

        /// A start tag at `index`; returns the index after it (and after the content of an
        /// element whose content is text).
        private mutating func startTag(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
            let (name, nameEnd) = Self.name(bytes, from: index + 1)
            guard let tagEnd = Self.tagEnd(bytes, from: nameEnd) else {
                return bytes.count  // a tag cut off by the end of the markup shows nothing
            }
            flushText()
            closeImplied(by: name)
            switch name {
            case "script", "style", "textarea", "title":
                // Their content is text up to their end tag: markup in it is not markup.
                let (contentEnd, after) = Self.endTag(of: name, in: bytes, from: tagEnd)
                let entry = openElement(name)
                if name == "textarea" || name == "title" {
                    var start = tagEnd
                    if name == "textarea" { start = Self.afterLeadingNewline(bytes, from: start, to: contentEnd) }
                    var position = start
                    while position < contentEnd {
                        if bytes[position] == UInt8(ascii: "&") {
                            position = HTMLEntities.decode(
                                UnsafeBufferPointer(rebasing: bytes[..<contentEnd]), at: position, into: &text)
                        } else {
                            text.append(bytes[position])
                            position += 1
                        }
                    }
                    flushText()
                }
                close(entry)
                return after
            default:
                if HTMLNames.isVoid(name) {
                    close(openElement(name))
                    return tagEnd
                }
                _ = openElement(name)
                // A newline right after `<pre>` is not content: browsers drop it.
                if name == "pre" || name == "listing" {
                    return Self.afterLeadingNewline(bytes, from: tagEnd, to: bytes.count)
                }
                return tagEnd
            }
        }

        private mutating func endTag(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
            let (name, nameEnd) = Self.name(bytes, from: index + 2)
            guard let tagEnd = Self.tagEnd(bytes, from: nameEnd) else { return bytes.count }
            flushText()
            if openCount[name, default: 0] > 0, let position = open.lastIndex(where: { $0.name == name }) {
                while open.count > position { close() }
            } else if name == "br" || name == "p" {
                // Browsers read `</br>` as `<br>`, and `</p>` with no open `p` as an empty one.
                close(openElement(name))
            }
            return tagEnd
        }

        /// What a start tag closes: an open `li` in the same list, an open `dd` or `dt` in the
        /// same `dl`, an open `p` before a block, an open heading before a heading.
        private mutating func closeImplied(by name: String) {
            let traits = TagTraits(tag: name)
            if name == "li" {
                closeOpen(["li"], stoppingAt: Self.listBoundaries)
            } else if name == "dd" || name == "dt" {
                closeOpen(["dd", "dt"], stoppingAt: Self.listBoundaries)
            }
            if traits.contains(.block) {
                closeOpen(["p"], stoppingAt: Self.scopeBoundaries)
            }
            if Self.headings.contains(name), let last = open.last, Self.headings.contains(last.name) {
                close()
            }
        }

        /// Closes the innermost open element named in `names`, and those inside it, unless an
        /// element in `boundaries` comes first.
        private mutating func closeOpen(_ names: Set<String>, stoppingAt boundaries: Set<String>) {
            guard names.contains(where: { openCount[$0, default: 0] > 0 }) else { return }
            for position in open.indices.reversed() {
                let name = open[position].name
                if names.contains(name) {
                    while open.count > position { close() }
                    return
                }
                if boundaries.contains(name) { return }
            }
        }

        private static let listBoundaries: Set<String> = ["ul", "ol", "menu", "dl", "table", "td", "th"]
        private static let scopeBoundaries: Set<String> = ["button", "table", "td", "th", "caption", "template"]
        private static let headings: Set<String> = ["h1", "h2", "h3", "h4", "h5", "h6"]

        // MARK: Entries

        private mutating func openElement(_ name: String) -> Int {
            let entry = tree.entries.count
            tree.entries.append(RenderTree.Entry(a: tree.names.index(of: name), b: -1, end: 0, kind: .element))
            open.append((entry, name))
            openCount[name, default: 0] += 1
            return entry
        }

        /// Closes the innermost open element.
        private mutating func close() {
            let (entry, name) = open.removeLast()
            openCount[name]! -= 1
            tree.entries[entry].end = Int32(truncatingIfNeeded: tree.entries.count)
        }

        /// Closes `entry`, the innermost open element.
        private mutating func close(_ entry: Int) {
            precondition(open.last?.entry == entry, "only the innermost element closes")
            close()
        }

        private mutating func flushText() {
            guard !text.isEmpty else { return }
            let offset = tree.bytes.count
            tree.bytes.append(contentsOf: text)
            let entry = Int32(truncatingIfNeeded: tree.entries.count)
            tree.entries.append(
                RenderTree.Entry(
                    a: Int32(truncatingIfNeeded: offset), b: Int32(truncatingIfNeeded: text.count), end: entry + 1,
                    kind: .text))
            text.removeAll(keepingCapacity: true)
        }

        // MARK: Scanning

        /// The lowercased tag name starting at `start`, and where it ends.
        private static func name(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (String, Int) {
            var end = start
            while end < bytes.count, !isSpace(bytes[end]), bytes[end] != UInt8(ascii: "/"),
                bytes[end] != UInt8(ascii: ">")
            {
                end += 1
            }
            let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
            return (TagTraits.asciiLowercased(name), end)
        }

        /// The index after the `>` that ends the tag whose attributes start at `start`, skipping
        /// quoted attribute values; nil when the markup ends first.
        private static func tagEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
            var index = start
            var afterEquals = false
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: ">"):
                    return index + 1
                case UInt8(ascii: "="):
                    afterEquals = true
                case UInt8(ascii: "\"") where afterEquals, UInt8(ascii: "'") where afterEquals:
                    var close = index + 1
                    while close < bytes.count, bytes[close] != byte { close += 1 }
                    index = close
                    afterEquals = false
                case _ where isSpace(byte):
                    break
                default:
                    afterEquals = false
                }
                index += 1
            }
            return nil
        }

        /// Where the content of a `name` element starting at `start` ends, and the index after
        /// its end tag (the end of the markup when it has none).
        private static func endTag(
            of name: String,
            in bytes: UnsafeBufferPointer<UInt8>,
            from start: Int
        ) -> (contentEnd: Int, after: Int) {
            let name = Array(name.utf8)
            var index = start
            while index + 1 + name.count < bytes.count {
                if bytes[index] == UInt8(ascii: "<"), bytes[index + 1] == UInt8(ascii: "/") {
                    let nameEnd = index + 2 + name.count
                    var matches = true
                    for offset in 0..<name.count where bytes[index + 2 + offset] | 0x20 != name[offset] {
                        matches = false
                        break
                    }
                    if matches,
                        nameEnd == bytes.count || isSpace(bytes[nameEnd]) || bytes[nameEnd] == UInt8(ascii: "/")
                            || bytes[nameEnd] == UInt8(ascii: ">")
                    {
                        return (index, tagEnd(bytes, from: nameEnd) ?? bytes.count)
                    }
                }
                index += 1
            }
            return (bytes.count, bytes.count)
        }

        /// The index after a comment, doctype or other `<!…>` declaration at `index`.
        private static func afterDeclaration(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
            let count = bytes.count
            guard index + 3 < count, bytes[index + 2] == UInt8(ascii: "-"), bytes[index + 3] == UInt8(ascii: "-") else {
                return after(UInt8(ascii: ">"), in: bytes, from: index + 2)
            }
            // A comment: `<!-->` and `<!--->` end at once; otherwise at the first `-->`.
            var position = index + 4
            if position < count, bytes[position] == UInt8(ascii: ">") { return position + 1 }
            if position + 1 < count, bytes[position] == UInt8(ascii: "-"), bytes[position + 1] == UInt8(ascii: ">") {
                return position + 2
            }
            while position + 2 < count {
                if bytes[position] == UInt8(ascii: "-"), bytes[position + 1] == UInt8(ascii: "-"),
                    bytes[position + 2] == UInt8(ascii: ">")
                {
                    return position + 3
                }
                position += 1
            }
            return count
        }

        /// The index after the first `byte` from `start`, or the end.
        private static func after(_ byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
            var index = start
            while index < bytes.count {
                if bytes[index] == byte { return index + 1 }
                index += 1
            }
            return bytes.count
        }

        private static func afterLeadingNewline(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int)
            -> Int
        {
            if start < end, bytes[start] == 0x0A { return start + 1 }
            if start + 1 < end, bytes[start] == 0x0D, bytes[start + 1] == 0x0A { return start + 2 }
            return start
        }

        private static func isSpace(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
        }
    }
}
