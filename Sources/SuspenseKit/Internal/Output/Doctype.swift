/// `<!DOCTYPE html>`, which every HTML output writes first when the tree is a document (its
/// first markup is an `html` element), as React's stream renderer does: without it a browser
/// renders the page in quirks mode. It is written, never a node of the tree, so it moves no
/// boundary id (ids come from the positions of children).
enum Doctype {
    static let text: StaticString = "<!DOCTYPE html>"
    static let bytes: [UInt8] = Array("<!DOCTYPE html>".utf8)
}

extension RenderTree {
    /// The index of the `html` element (in any letter case) when it is the first thing this tree
    /// writes, looking through components and boundaries (and past empty text): then its HTML
    /// starts with the doctype. Nil when text or ``RawHTML`` comes first (a hand-written doctype
    /// among them: it is not doubled) or the tree has no such element.
    var documentElement: Int? {
        for index in entries.indices {
            let entry = entries[index]
            switch entry.kind {
            case .fragment, .component, .suspense, .errorBoundary, .declaration:
                continue
            case .text, .rawHTML:
                if entry.b == 0 { continue }
                return nil
            case .element:
                return HTMLNames.sameName(names[entry.a], "html") ? index : nil
            }
        }
        return nil
    }
}
