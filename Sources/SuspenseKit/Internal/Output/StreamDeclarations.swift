/// What a stream does with response declarations (``ResponseDeclaration``): the head its shell
/// declared, which decides the response, and the declarations it reveals after the shell, which
/// cannot: each is reported once (`StreamOptions.onDeclaredAfterShell`), and a redirect becomes
/// a `<meta http-equiv="refresh">` with `noindex` in the chunk that reveals it, as Next.js does.
///
/// Declarations are told apart by their node in the resolver's arena (an entry's `b`): the
/// in-order stream writes after the shell parts of the page that the shell's head counted
/// already, and a boundary shown again shows the same nodes.
struct StreamDeclarations {
    /// Called for each declaration revealed after the shell.
    let report: (@Sendable (ResponseDeclaration) -> Void)?
    /// The declarations counted: the shell's, and those revealed since.
    private var seen: Set<Int32> = []

    init(report: (@Sendable (ResponseDeclaration) -> Void)?) {
        self.report = report
    }

    /// The head of the shell, from the declarations of its whole visible tree.
    mutating func shell(_ declared: [(node: Int32, declaration: ResponseDeclaration)]) -> ResponseHead {
        guard !declared.isEmpty else { return ResponseHead() }
        seen = Set(declared.map(\.node))
        return ResponseHead(declarations: declared.map(\.declaration))
    }

    /// Reports the declarations among `tree`'s entries `range` that were not counted yet; returns
    /// the refresh to the last new redirect among them, or nothing.
    mutating func reveal(_ tree: RenderTree, in range: Range<Int>) -> [UInt8] {
        var refresh: [UInt8] = []
        for (node, declaration) in tree.declarations(in: range) where seen.insert(node).inserted {
            report?(declaration)
            if case .redirect(let location, _) = declaration { refresh = Self.refresh(to: location) }
        }
        return refresh
    }

    /// The markup that sends the browser to `location` (checked when declared: a URL's
    /// characters only) and keeps the page it leaves out of search indexes.
    static func refresh(to location: String) -> [UInt8] {
        var html = Array(#"<meta http-equiv="refresh" content="0;url="#.utf8)
        HTMLEscaping.appendAttribute(location, to: &html)
        html += #""><meta name="robots" content="noindex">"#.utf8
        return html
    }
}
