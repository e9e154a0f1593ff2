/// Renders HTML: text and attribute values escaped, attributes in order, void elements without
/// closing tags. Iterative, so that deep trees cannot overflow the stack.
///
/// Written for speed, since it runs once per node of every page: bytes go into one `[UInt8]`
/// buffer that becomes the `String` at the end; children are walked by index, never copied onto
/// a stack of steps; each distinct tag is checked and classified (void, block) once per render.
enum HTMLRenderer {
    static func render(_ root: Node, pretty: Bool) throws -> String {
        var writer = HTMLWriter(pretty: pretty)
        try writer.write(root)
        return String(decoding: writer.buffer, as: UTF8.self)
    }
}

struct HTMLWriter {
    let pretty: Bool
    var buffer: [UInt8] = []
    var tags = TagTable()

    /// Children being walked: the element to close after them, if any.
    private struct Frame {
        let children: [Node]
        var index = 0
        /// The depth of the children, for pretty-printing.
        let depth: Int
        let closeTag: String?
        let closeDepth: Int
        let blockChildren: Bool
    }

    init(pretty: Bool) {
        self.pretty = pretty
        buffer.reserveCapacity(4096)
    }

    mutating func write(_ root: Node) throws {
        var stack: [Frame] = []
        try enter(root, depth: 0, stack: &stack)
        while !stack.isEmpty {
            let top = stack.count - 1
            let index = stack[top].index
            if index == stack[top].children.count {
                let frame = stack.removeLast()
                if let tag = frame.closeTag {
                    if frame.blockChildren { newline(frame.closeDepth) }
                    appendClosingTag(tag)
                }
                continue
            }
            stack[top].index = index + 1
            let child = stack[top].children[index]
            try enter(child, depth: stack[top].depth, stack: &stack)
        }
    }

    private mutating func enter(_ node: Node, depth: Int, stack: inout [Frame]) throws {
        switch node.kind {
        case .text(let text):
            HTMLEscaping.appendText(text, to: &buffer)
        case .rawHTML(let html):
            buffer.append(contentsOf: html.utf8)
        case .element(let tag, let attributes):
            let info = try tags.info(for: tag)
            if pretty && info.isBlock { newline(depth) }
            buffer.append(UInt8(ascii: "<"))
            buffer.append(contentsOf: tag.utf8)
            for attribute in attributes {
                try HTMLNames.checkAttribute(attribute.name, tag: tag)
                buffer.append(UInt8(ascii: " "))
                buffer.append(contentsOf: attribute.name.utf8)
                buffer.append(UInt8(ascii: "="))
                buffer.append(UInt8(ascii: "\""))
                HTMLEscaping.appendAttribute(attribute.value, to: &buffer)
                buffer.append(UInt8(ascii: "\""))
            }
            buffer.append(UInt8(ascii: ">"))
            let children = node.children
            if info.isVoid {
                guard children.isEmpty else {
                    throw InvalidMarkupError(
                        message: "<\(tag)> is a void element and cannot have children; "
                            + "its \(children.count) children would be lost"
                    )
                }
                return
            }
            if children.isEmpty {
                appendClosingTag(tag)
                return
            }
            let blockChildren = pretty && children.contains(where: HTMLWriter.containsBlock)
            stack.append(
                Frame(children: children, depth: depth + 1, closeTag: tag, closeDepth: depth, blockChildren: blockChildren)
            )
        case .fragment, .component, .suspense, .errorBoundary:
            let children = node.children
            if children.isEmpty { return }
            stack.append(Frame(children: children, depth: depth, closeTag: nil, closeDepth: depth, blockChildren: false))
        }
    }

    @inline(__always)
    private mutating func appendClosingTag(_ tag: String) {
        buffer.append(UInt8(ascii: "<"))
        buffer.append(UInt8(ascii: "/"))
        buffer.append(contentsOf: tag.utf8)
        buffer.append(UInt8(ascii: ">"))
    }

    private mutating func newline(_ depth: Int) {
        guard pretty, !buffer.isEmpty else { return }
        buffer.append(UInt8(ascii: "\n"))
        buffer.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * max(depth, 0)))
    }

    /// Whether a node is, or transparently holds, a block element (for pretty-printing).
    private static func containsBlock(_ node: Node) -> Bool {
        switch node.kind {
        case .element(let tag, _): return PlainRenderer.blockTags.contains(tag)
        case .text, .rawHTML: return false
        case .fragment, .component, .suspense, .errorBoundary: return node.children.contains(where: containsBlock)
        }
    }
}

/// The tags seen in one render, each checked and classified once: a page uses a handful of
/// distinct tags thousands of times, and comparing a short string beats hashing it.
struct TagTable {
    struct Info {
        let isVoid: Bool
        let isBlock: Bool
    }

    private var tags: [String] = []
    private var infos: [Info] = []

    @inline(__always)
    mutating func info(for tag: String) throws -> Info {
        for index in tags.indices where tags[index] == tag {
            return infos[index]
        }
        return try add(tag)
    }

    private mutating func add(_ tag: String) throws -> Info {
        try HTMLNames.checkTag(tag)
        let info = Info(isVoid: HTMLNames.voidElements.contains(tag), isBlock: PlainRenderer.blockTags.contains(tag))
        // A page with very many distinct tags (custom elements) falls back to checking each time.
        if tags.count < 32 {
            tags.append(tag)
            infos.append(info)
        }
        return info
    }
}
