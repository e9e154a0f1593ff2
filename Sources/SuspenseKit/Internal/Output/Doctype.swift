/// `<!DOCTYPE html>`, which every HTML output writes first when the tree is a document (its
/// first markup is an `html` element), as React's stream renderer does: without it a browser
/// renders the page in quirks mode. It is written, never a node of the tree, so it moves no
/// boundary id (ids come from the positions of children).
enum Doctype {
    static let text: StaticString = "<!DOCTYPE html>"
    static let bytes: [UInt8] = Array("<!DOCTYPE html>".utf8)
}

extension RenderTree {
    /// Whether the first thing this tree writes is an `html` element, in any letter case,
    /// looking through components and boundaries (and past empty text): then its HTML starts
    /// with the doctype. Text or ``RawHTML`` before it (a hand-written doctype among them) means
    /// no doctype is added.
    var startsDocument: Bool {
        for entry in entries {
            switch entry.kind {
            case .fragment, .component, .suspense, .errorBoundary:
                continue
            case .text, .rawHTML:
                if entry.b == 0 { continue }
                return false
            case .element:
                return HTMLNames.sameName(names[entry.a], "html")
            }
        }
        return false
    }
}
