/// The status and headers a page's visible tree declared (``ResponseDeclaration``), for the
/// server to send with it: from ``renderResponse(_:as:cache:options:isolation:)``, or from a
/// stream's ``RenderSequence/responseHead``, which holds what its shell declared.
///
/// Several declarations add up in document order, so a component nested inside another (written
/// after it) has the last word, as does the innermost of two modifiers on one component (in
/// `.httpStatus(404).httpStatus(410)`, 404):
/// - the last status wins;
/// - the last redirect wins, and beats any status: ``status`` is then the redirect's, and the
///   headers end with its `Location`;
/// - headers keep the order in which their names first appear; a later value replaces an earlier
///   one of the same name (in any letter case), except for fields that may repeat (`Set-Cookie`,
///   `Vary`, `Link`, `Server-Timing`), whose values are all kept, each a field of its own.
public struct ResponseHead: Sendable, Hashable {
    /// The status declared, or nil when the tree declared none (the server's default, 200).
    public var status: HTTPStatus?
    /// The header fields declared, merged as described above.
    public var headers: PageHeaders
    /// Where the page redirects, when it declared a redirect.
    public var location: String?

    /// A head with nothing declared.
    public init() {
        status = nil
        headers = PageHeaders()
        location = nil
    }

    /// The head that `declarations`, in document order, add up to.
    public init(declarations: some Sequence<ResponseDeclaration>) {
        self.init()
        var redirect: (location: String, status: HTTPStatus)?
        for declaration in declarations {
            switch declaration {
            case .status(let status):
                self.status = status
            case .header(let name, let value):
                if Self.mayRepeat(name) {
                    headers.add(name: name, value: value)
                } else {
                    headers.replace(name: name, value: value)
                }
            case .redirect(let location, let status):
                redirect = (location, status)
            }
        }
        if let redirect {
            status = redirect.status
            location = redirect.location
            headers.add(name: "Location", value: redirect.location)
        }
    }

    /// Whether the tree declared nothing.
    public var isEmpty: Bool { status == nil && headers.fields.isEmpty }

    /// Fields whose values are all kept: each is a list, or must stay a field of its own.
    static let repeatable = ["set-cookie", "vary", "link", "server-timing"]

    static func mayRepeat(_ name: String) -> Bool {
        repeatable.contains { sameName($0, name) }
    }

    /// Header names compare in any ASCII letter case, as HTML's do.
    static func sameName(_ a: String, _ b: String) -> Bool {
        HTMLNames.sameName(a, b)
    }
}
