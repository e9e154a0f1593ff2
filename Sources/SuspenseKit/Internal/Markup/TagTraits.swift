/// What a tag name means to the renderers, in any letter case (HTML tag names are
/// case-insensitive: `DIV` is a block like `div`, `BR` a line break like `br`). Each renderer
/// looks the traits up once per distinct name of a render, never per element.
struct TagTraits: OptionSet {
    let rawValue: UInt16

    /// No closing tag and no children: `br`, `img`, `input`, …
    static let void = TagTraits(rawValue: 1 << 0)
    /// On lines of its own in `.plain`, and on an indented line of its own in pretty HTML.
    static let block = TagTraits(rawValue: 1 << 1)
    /// `br`: ends the line in `.plain`.
    static let lineBreak = TagTraits(rawValue: 1 << 2)
    /// `li`: marked with `- ` in `.plain`.
    static let listItem = TagTraits(rawValue: 1 << 3)
    /// `ul`, `ol`, `menu`.
    static let list = TagTraits(rawValue: 1 << 4)
    /// No visible text: `script`, `style`, `template`, and the document's `head` and `title`.
    static let hidden = TagTraits(rawValue: 1 << 5)
    /// Content whose whitespace is part of it: `pre`, `textarea`, `listing`, and the raw text
    /// of `script` and `style`. Pretty HTML adds nothing inside it.
    static let keepsWhitespace = TagTraits(rawValue: 1 << 6)
    /// Content in which a comment or processing instruction cannot mark a region of a stream:
    /// raw text and escapable raw text (`script`, `style`, `title`, `textarea`, …), where a
    /// marker is text, and table structure (`table`, `tbody`, `tr`, …), whose text and other
    /// elements the HTML parser moves out of the table, away from the markers.
    static let unmarkable = TagTraits(rawValue: 1 << 7)

    init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    /// The traits of `tag`, whatever its letter case.
    init(tag: String) {
        var name = tag
        if tag.utf8.contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) {
            name = Self.asciiLowercased(tag)
        }
        self = Self.known[name] ?? []
    }

    /// `name` with ASCII capitals made small, and nothing else changed: HTML folds only ASCII.
    static func asciiLowercased(_ name: String) -> String {
        String(
            decoding: name.utf8.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 | 0x20 : $0 },
            as: UTF8.self)
    }

    static let blockTags: Set<String> = [
        "address", "article", "aside", "blockquote", "body", "caption", "dd", "details", "dialog", "div", "dl",
        "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header",
        "hgroup", "hr", "html", "legend", "li", "listing", "main", "menu", "nav", "ol", "p", "pre", "section",
        "summary", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul",
    ]

    private static let known: [String: TagTraits] = {
        var known: [String: TagTraits] = [:]
        for tag in HTMLNames.voidElements { known[tag, default: []].insert(.void) }
        for tag in blockTags { known[tag, default: []].insert(.block) }
        known["br", default: []].insert(.lineBreak)
        known["li", default: []].insert(.listItem)
        for tag in ["ul", "ol", "menu"] { known[tag, default: []].insert(.list) }
        for tag in ["script", "style", "template", "head", "title"] { known[tag, default: []].insert(.hidden) }
        for tag in ["pre", "textarea", "listing", "script", "style"] {
            known[tag, default: []].insert(.keepsWhitespace)
        }
        for tag in unmarkableTags { known[tag, default: []].insert(.unmarkable) }
        return known
    }()

    static let unmarkableTags: Set<String> = [
        "script", "style", "xmp", "iframe", "noembed", "noframes", "noscript", "plaintext", "title", "textarea",
        "table", "thead", "tbody", "tfoot", "tr", "colgroup",
    ]
}
