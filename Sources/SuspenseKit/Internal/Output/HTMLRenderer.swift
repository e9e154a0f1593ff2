/// Renders HTML: text and attribute values escaped, attributes in order, void elements without
/// closing tags, `<!DOCTYPE html>` first when the tree is a document (see Doctype). Iterative,
/// so that deep trees cannot overflow the stack.
///
/// Written for speed, since it runs once per node of every page: one loop over the entries of a
/// ``RenderTree``, bytes into one buffer; each distinct tag is checked and classified (void,
/// block) once per render.
enum HTMLRenderer {
    /// Two passes: the first checks every name and adds up the exact size of the output, the
    /// second writes it through a pointer into storage of that size, with no capacity checks
    /// and no growth.
    static func renderCompact(_ tree: RenderTree) throws -> ByteBuffer {
        var plan = try CompactPlan(tree)
        var buffer = ByteBuffer(capacity: plan.size)
        try buffer.append(atMost: plan.size) { start in
            start + (try plan.write(into: UnsafeMutableBufferPointer(start: start, count: plan.size)))
        }
        return buffer
    }

    /// `renderCompact(_:)` written straight into a string's storage: no buffer to copy.
    static func renderCompactString(_ tree: RenderTree) throws -> String {
        var plan = try CompactPlan(tree)
        return try String(unsafeUninitializedCapacity: plan.size) { output in
            try plan.write(into: output)
        }
    }

    /// `renderCompactString(_:)` between `prefix` and `suffix`, in the same one string: a
    /// stream's chunk around a region's content.
    static func renderCompactString(
        _ tree: RenderTree, after prefix: [UInt8], before suffix: [UInt8]
    ) throws -> String {
        var plan = try CompactPlan(tree)
        let size = prefix.count + plan.size + suffix.count
        return try String(unsafeUninitializedCapacity: size) { output in
            guard let base = output.baseAddress else { return 0 }
            prefix.withUnsafeBufferPointer {
                if let bytes = $0.baseAddress { base.initialize(from: bytes, count: $0.count) }
            }
            let middle = UnsafeMutableBufferPointer(start: base + prefix.count, count: plan.size)
            let written = prefix.count + (try plan.write(into: middle))
            suffix.withUnsafeBufferPointer {
                if let bytes = $0.baseAddress { (base + written).initialize(from: bytes, count: $0.count) }
            }
            return written + suffix.count
        }
    }

    /// What the first pass of compact rendering learns: the exact size, every name checked.
    struct CompactPlan {
        let tree: RenderTree
        var tags: TagTable
        /// The names' bytes, for copying tags without touching a String.
        let names: NameBytes
        /// Whether the output starts with `<!DOCTYPE html>` (see `RenderTree.documentElement`).
        let doctype: Bool
        var size = 0

        /// Checks and sizes in document order, so that the first error is the one the renderer
        /// has always thrown.
        init(_ tree: RenderTree) throws {
            self.tree = tree
            tags = TagTable(count: tree.names.names.count, namesAreChecked: tree.namesAreChecked)
            names = NameBytes(utf8: tree.names.names)
            let entries = tree.entries
            let nameStrings = tree.names.names
            doctype = tree.documentElement != nil
            var size = doctype ? Doctype.bytes.count : 0
            try tree.bytes.withUnsafeBufferPointer { text in
                for index in entries.indices {
                    let entry = entries[index]
                    switch entry.kind {
                    case .text:
                        let bytes = UnsafeBufferPointer(rebasing: text[Int(entry.a)..<Int(entry.a) + Int(entry.b)])
                        size += bytes.count + HTMLEscaping.extraBytes(in: bytes, quotes: false)
                    case .rawHTML:
                        size += Int(entry.b)
                    case .element:
                        // The tag's name is read only where it is checked or named in an error:
                        // copying it out of the table for every element retained its storage.
                        let info = try tags.info(for: entry.a, in: nameStrings)
                        let tagLength = names.count(of: entry.a)
                        size += tagLength + 2  // <tag>
                        if entry.b >= 0 {
                            let attributes = tree.attributeLists[Int(entry.b)]
                            if !tree.namesAreChecked {
                                try HTMLNames.checkAttributes(attributes, tag: nameStrings[Int(entry.a)])
                            }
                            for attribute in attributes {
                                var value = attribute.value
                                let valueLength = value.withUTF8 {
                                    $0.count + HTMLEscaping.extraBytes(in: $0, quotes: true)
                                }
                                size += 1 + attribute.name.utf8.count + 2 + valueLength + 1  //  name="value"
                            }
                        }
                        if info.isVoid {
                            let end = Int(entry.end)
                            guard end == index + 1 else {
                                throw voidElementError(nameStrings[Int(entry.a)], at: index, end: end, in: entries)
                            }
                        } else {
                            size += tagLength + 3  // </tag>
                        }
                    case .fragment, .component, .suspense, .errorBoundary, .declaration:
                        break
                    }
                }
            }
            self.size = size
        }

        /// Writes the output into `output`, which holds at least `size` bytes; returns `size`.
        mutating func write(into output: UnsafeMutableBufferPointer<UInt8>) throws -> Int {
            guard let start = output.baseAddress, size > 0 else { return 0 }
            precondition(output.count >= size, "HTML output storage too small")
            let end = start + output.count
            var position = start
            @inline(__always) func put(_ byte: UInt8) {
                position.initialize(to: byte)
                position += 1
            }
            @inline(__always) func put(_ bytes: UnsafeBufferPointer<UInt8>) {
                guard let base = bytes.baseAddress else { return }
                position.initialize(from: base, count: bytes.count)
                position += bytes.count
            }
            let tree = self.tree
            let entries = tree.entries
            let nameRanges = names.ranges
            if doctype { Doctype.bytes.withUnsafeBufferPointer { put($0) } }
            try tree.bytes.withUnsafeBufferPointer { text in
                try self.names.bytes.withUnsafeBufferPointer { names in
                    @inline(__always) func closeTag(_ name: Int32) {
                        put(UInt8(ascii: "<"))
                        put(UInt8(ascii: "/"))
                        put(UnsafeBufferPointer(rebasing: names[nameRanges[Int(name)]]))
                        put(UInt8(ascii: ">"))
                    }
                    var open: [(end: Int, tag: Int32)] = []
                    for index in entries.indices {
                        while let top = open.last, top.end <= index {
                            open.removeLast()
                            closeTag(top.tag)
                        }
                        let entry = entries[index]
                        switch entry.kind {
                        case .text:
                            let bytes = UnsafeBufferPointer(rebasing: text[Int(entry.a)..<Int(entry.a) + Int(entry.b)])
                            position = HTMLEscaping.write(bytes, to: position, end: end, quotes: false)
                        case .rawHTML:
                            put(UnsafeBufferPointer(rebasing: text[Int(entry.a)..<Int(entry.a) + Int(entry.b)]))
                        case .element:
                            put(UInt8(ascii: "<"))
                            put(UnsafeBufferPointer(rebasing: names[nameRanges[Int(entry.a)]]))
                            if entry.b >= 0 {
                                for attribute in tree.attributeLists[Int(entry.b)] {
                                    put(UInt8(ascii: " "))
                                    var name = attribute.name
                                    name.withUTF8 { put($0) }
                                    put(UInt8(ascii: "="))
                                    put(UInt8(ascii: "\""))
                                    var value = attribute.value
                                    value.withUTF8 {
                                        position = HTMLEscaping.write($0, to: position, end: end, quotes: true)
                                    }
                                    put(UInt8(ascii: "\""))
                                }
                            }
                            put(UInt8(ascii: ">"))
                            if try tags.info(for: entry.a, in: tree.names.names).isVoid { continue }
                            if Int(entry.end) == index + 1 {
                                closeTag(entry.a)
                            } else {
                                open.append((Int(entry.end), entry.a))
                            }
                        case .fragment, .component, .suspense, .errorBoundary, .declaration:
                            break
                        }
                    }
                    while let top = open.popLast() { closeTag(top.tag) }
                }
            }
            let written = position - start
            // The two passes must agree; were they ever to disagree, stop rather than go on.
            precondition(written == size, "HTML size \(size) was computed, \(written) written")
            return written
        }
    }

    /// The pretty-printed form, appending to a buffer reserved from an estimate. Block elements
    /// start on an indented line of their own, and the closing tag of one holding blocks too;
    /// nothing is added inside an element whose whitespace is content (`pre`, `textarea`,
    /// `script`, `style`), so that what it shows is what the compact form shows.
    static func renderPretty(_ tree: RenderTree) throws -> ByteBuffer {
        var writer = HTMLWriter(tree)
        var walk = PrettyWalk(
            buffer: ByteBuffer(capacity: estimatedSize(of: tree)),
            isBlock: tree.names.names.map { TagTraits(tag: $0).contains(.block) })
        if tree.documentElement != nil { walk.buffer.append(Doctype.text) }
        var open: [(index: Int, closing: PrettyWalk.Closing)] = []
        try writer.walk(from: 0, to: tree.entries.count, open: &open, &walk)
        writer.close(upTo: tree.entries.count, open: &open, &walk)
        return walk.finish()
    }

    /// What pretty-printing adds to the walk: indentation.
    private struct PrettyWalk: HTMLWalk, ~Copyable {
        /// An open element: its tag, its depth, whether its closing tag goes on a line of its
        /// own, whether its whitespace is content.
        struct Closing {
            let tag: Int32
            let depth: Int
            let blockChildren: Bool
            let keepsWhitespace: Bool
        }

        var buffer: ByteBuffer
        /// Whether each name of the tree is a block element's.
        let isBlock: [Bool]
        /// How many open elements keep their whitespace: inside one, nothing is added.
        var keeping = 0

        init(buffer: consuming ByteBuffer, isBlock: [Bool]) {
            self.buffer = buffer
            self.isBlock = isBlock
        }

        consuming func finish() -> ByteBuffer { buffer }

        mutating func append(_ byte: UInt8) { buffer.append(byte) }
        mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) { buffer.append(bytes) }
        mutating func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, quotes: Bool) {
            HTMLEscaping.append(bytes, to: &buffer, quotes: quotes)
        }

        private mutating func newline(_ depth: Int) {
            guard keeping == 0, !buffer.isEmpty else { return }
            buffer.append(UInt8(ascii: "\n"))
            buffer.append(UInt8(ascii: " "), repeated: 2 * max(depth, 0))
        }

        mutating func willOpen(element index: Int, info: TagTable.Info, depth: Int, writer: HTMLWriter) {
            if info.isBlock { newline(depth) }
        }

        mutating func opened(element index: Int, info: TagTable.Info, depth: Int, writer: HTMLWriter) -> Closing {
            let entry = writer.tree.entries[index]
            let keeps = info.keepsWhitespace
            let blockChildren =
                keeping == 0 && !keeps
                && containsBlock(writer.tree, isBlock: isBlock, from: index + 1, to: Int(entry.end))
            if keeps { keeping += 1 }
            return Closing(tag: entry.a, depth: depth, blockChildren: blockChildren, keepsWhitespace: keeps)
        }

        mutating func entered(_ index: Int, writer: HTMLWriter) -> Closing? { nil }

        mutating func close(_ closing: Closing, writer: HTMLWriter) {
            if closing.keepsWhitespace { keeping -= 1 }
            if closing.blockChildren { newline(closing.depth) }
            writer.writeEndTag(closing.tag, to: &self)
        }
    }

    /// More than the output needs unless much of the text is escaped, so that the buffer almost
    /// never grows: growing copies it, and holds old and new copies at once. Capacity never
    /// written is never touched, and costs no resident memory.
    static func estimatedSize(of tree: RenderTree) -> Int {
        tree.bytes.count * 3 / 2 + tree.entries.count * 12 + 64
    }

    /// Whether any entry in `start..<end`, looking through transparent nodes only, is a block
    /// element (for pretty-printing); `isBlock` tells it of each name of the tree.
    private static func containsBlock(_ tree: RenderTree, isBlock: [Bool], from start: Int, to end: Int) -> Bool {
        var index = start
        while index < end {
            let entry = tree.entries[index]
            switch entry.kind {
            case .element:
                if isBlock[Int(entry.a)] { return true }
                index = Int(entry.end)
            case .text, .rawHTML, .fragment, .component, .suspense, .errorBoundary, .declaration:
                index += 1
            }
        }
        return false
    }
}

/// The tags of one render, each checked and classified once, by its index in the tree's names.
struct TagTable {
    struct Info {
        let isVoid: Bool
        let isBlock: Bool
        let keepsWhitespace: Bool
    }

    private var infos: [Info?]
    private let namesAreChecked: Bool

    init(count: Int, namesAreChecked: Bool) {
        infos = Array(repeating: nil, count: count)
        self.namesAreChecked = namesAreChecked
    }

    /// The info of the tag at `index` of `names`.
    @inline(__always)
    mutating func info(for index: Int32, in names: [String]) throws -> Info {
        if let info = infos[Int(index)] { return info }
        return try classify(names[Int(index)], at: index)
    }

    private mutating func classify(_ tag: String, at index: Int32) throws -> Info {
        if !namesAreChecked { try HTMLNames.checkTag(tag) }
        let traits = TagTraits(tag: tag)
        let info = Info(
            isVoid: traits.contains(.void), isBlock: traits.contains(.block),
            keepsWhitespace: traits.contains(.keepsWhitespace))
        infos[Int(index)] = info
        return info
    }
}

/// The error for a void element at `index` whose subtree runs to `end`: it has children,
/// which HTML cannot carry. Only a tree built by hand gets here: the resolver fails at the element.
func voidElementError(
    _ tag: String,
    at index: Int,
    end: Int,
    in entries: [RenderTree.Entry]
) -> InvalidMarkupError {
    var children = 0
    var child = index + 1
    while child < end {
        children += 1
        child = Int(entries[child].end)
    }
    return .voidElement(tag, children: children)
}
