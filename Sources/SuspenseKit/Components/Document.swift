/// A whole HTML page: `<!DOCTYPE html><html lang="…"><head>…</head><body>…</body></html>`.
///
/// ```swift
/// Document(lang: "en") {
///     Element("title") { Text("Dashboard") }
/// } body: {
///     Suspense { try Stats() } fallback: { Text("Loading…") }
/// }
/// ```
///
/// The doctype is not a node of the tree: every HTML output writes it first when the first
/// markup of the tree is an `html` element, so `Element("html")` at the root gets it too, and no
/// boundary id moves because of it. A stream holds `</body></html>` back to its very end.
public struct Document<HeadContent: Component, BodyContent: Component>: Component {
    /// The page's language (`lang` on `<html>`), or nil for none.
    public let lang: String?
    let head: () throws -> HeadContent
    let content: () throws -> BodyContent

    /// Creates a page.
    /// - Parameters:
    ///   - lang: The page's language, such as `"en"`; nil (the default) writes no `lang`.
    ///   - head: What goes in `<head>`: `title`, `meta`, `style`…
    ///   - body: What goes in `<body>`.
    public init(
        lang: String? = nil,
        @ComponentBuilder head: @escaping () throws -> HeadContent,
        @ComponentBuilder body: @escaping () throws -> BodyContent
    ) {
        self.lang = lang
        self.head = head
        self.content = body
    }

    /// `<html>` with its `lang`, then `<head>` and `<body>` with their content.
    public var body: some Component {
        Element("html", attributes: lang.map { [Attribute("lang", $0)] } ?? []) {
            // The closures are the elements' own content, as if written in place: no level of
            // position is added, so ids are those of the same page written with elements.
            Element("head", content: head)
            Element("body", content: content)
        }
    }
}
