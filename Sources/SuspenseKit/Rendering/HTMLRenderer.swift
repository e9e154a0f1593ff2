/// Renders HTML: text and attribute values escaped, attributes in order, void elements without
/// closing tags. Iterative, so that deep trees cannot overflow the stack.
enum HTMLRenderer {
    static func render(_ root: Node, pretty: Bool) throws -> String {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(4096)
        enum Step {
            case enter(Node, depth: Int)
            case close(tag: String, depth: Int, blockChildren: Bool)
        }
        var stack: [Step] = [.enter(root, depth: 0)]
        var indentation: [UInt8] = []
        func newline(_ depth: Int) {
            guard pretty, !buffer.isEmpty else { return }
            buffer.append(UInt8(ascii: "\n"))
            // Copied from a buffer of spaces: appending a `repeatElement` byte by byte made
            // deeply indented output (quadratic in depth by nature) slower still.
            let width = 2 * max(depth, 0)
            while indentation.count < width { indentation.append(contentsOf: indentation.isEmpty ? [32] : indentation) }
            buffer.append(contentsOf: indentation[..<width])
        }
        while let step = stack.popLast() {
            switch step {
            case .close(let tag, let depth, let blockChildren):
                if blockChildren { newline(depth) }
                append("</", to: &buffer)
                append(tag, to: &buffer)
                buffer.append(UInt8(ascii: ">"))
            case .enter(let node, let depth):
                switch node.kind {
                case .text(let text):
                    HTMLEscaping.appendText(text, to: &buffer)
                case .rawHTML(let html):
                    append(html, to: &buffer)
                case .element(let tag, let attributes):
                    try HTMLNames.checkTag(tag)
                    let isBlock = PlainRenderer.blockTags.contains(tag)
                    if isBlock { newline(depth) }
                    buffer.append(UInt8(ascii: "<"))
                    append(tag, to: &buffer)
                    for attribute in attributes {
                        try HTMLNames.checkAttribute(attribute.name, tag: tag)
                        buffer.append(UInt8(ascii: " "))
                        append(attribute.name, to: &buffer)
                        append("=\"", to: &buffer)
                        HTMLEscaping.appendAttribute(attribute.value, to: &buffer)
                        buffer.append(UInt8(ascii: "\""))
                    }
                    buffer.append(UInt8(ascii: ">"))
                    if HTMLNames.isVoid(tag) {
                        guard node.children.isEmpty else {
                            throw InvalidMarkupError(
                                message: "<\(tag)> is a void element and cannot have children; "
                                    + "its \(node.children.count) children would be lost"
                            )
                        }
                        continue
                    }
                    let blockChildren = pretty && node.children.contains(where: containsBlock)
                    stack.append(.close(tag: tag, depth: depth, blockChildren: blockChildren))
                    for child in node.children.reversed() { stack.append(.enter(child, depth: depth + 1)) }
                case .fragment, .component, .suspense, .errorBoundary:
                    for child in node.children.reversed() { stack.append(.enter(child, depth: depth)) }
                }
            }
        }
        return String(decoding: buffer, as: UTF8.self)
    }

    /// Whether a node is, or transparently holds, a block element (for pretty-printing).
    /// Iterative: a long chain of components under one element must not overflow the stack.
    private static func containsBlock(_ node: Node) -> Bool {
        var stack = [node]
        while let node = stack.popLast() {
            switch node.kind {
            case .element(let tag, _):
                if PlainRenderer.blockTags.contains(tag) { return true }
            case .text, .rawHTML:
                continue
            case .fragment, .component, .suspense, .errorBoundary:
                stack.append(contentsOf: node.children.reversed())
            }
        }
        return false
    }

    @inline(__always)
    private static func append(_ string: String, to buffer: inout [UInt8]) {
        buffer.append(contentsOf: string.utf8)
    }
}
