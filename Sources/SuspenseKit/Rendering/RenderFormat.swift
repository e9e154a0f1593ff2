/// A text format a resolved tree can be rendered to.
public struct RenderFormat: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        case tree
        case plain
        case html(pretty: Bool)
    }

    let kind: Kind

    /// The resolved structure, one node per line with box-drawing indentation: user components
    /// by type name, elements as tags, text quoted, boundaries with their state. The golden
    /// format: controls in text, names, keys and errors are escaped (`\n`, `\u{1B}`).
    public static let tree = RenderFormat(kind: .tree)
    /// The visible text, for a terminal: block elements on their own lines, a blank line around
    /// those that hold blocks, list items marked `- `, ``RawHTML`` as its visible text, and every
    /// control a terminal would act on written as an escape such as `\u{1B}`.
    public static let plain = RenderFormat(kind: .plain)
    /// HTML with text and attribute values escaped, on one line.
    public static let html = RenderFormat(kind: .html(pretty: false))

    /// HTML, pretty-printed with block elements on their own indented lines when `pretty`;
    /// nothing is added inside `pre`, `textarea`, `script` or `style`.
    public static func html(pretty: Bool) -> RenderFormat {
        RenderFormat(kind: .html(pretty: pretty))
    }
}

extension Node {
    /// Renders this tree in `format`.
    ///
    /// Throws ``InvalidMarkupError`` when HTML is asked for and an element or attribute name
    /// cannot be written as HTML, an attribute name comes twice, or a void element has children
    /// (possible only in a tree built by hand: `render` and `resolve` fail at the element).
    public func rendered(as format: RenderFormat) throws -> String {
        try RenderTree(self).rendered(as: format)
    }
}

extension RenderTree {
    func rendered(as format: RenderFormat) throws -> String {
        if case .html(pretty: false) = format.kind {
            return try HTMLRenderer.renderCompactString(self)
        }
        return try renderedBytes(as: format).string()
    }

    /// The output in `format`, as bytes not yet made a string: the caller may let the tree go
    /// first, so that the tree and the string are never held at once.
    func renderedBytes(as format: RenderFormat) throws -> ByteBuffer {
        switch format.kind {
        case .tree: return TreeRenderer.render(self)
        case .plain: return PlainRenderer.render(self)
        case .html(pretty: true): return try HTMLRenderer.renderPretty(self)
        case .html(pretty: false): return try HTMLRenderer.renderCompact(self)
        }
    }
}

extension Node: CustomStringConvertible {
    /// The node's `.tree` rendering, so that `print(node)` shows the tree, not its storage.
    public var description: String {
        do {
            return try rendered(as: .tree)
        } catch {
            return "<a Node that cannot be rendered: \(error)>"
        }
    }
}

extension RenderFrame: CustomStringConvertible {
    /// The frame's cause and its tree in the `.tree` format, so that `print(frame)` reads.
    public var description: String {
        "── \(cause == .shell ? "initial" : "after \(cause)") ──\n\(node)"
    }
}
