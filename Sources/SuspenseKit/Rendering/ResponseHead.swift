/// The status and headers a page's visible tree declared (``ResponseDeclaration``), for the
/// server to send with it: from ``renderResponse(_:as:cache:options:isolation:)``, or from a
/// stream's ``RenderSequence/responseHead``, which holds what its shell declared.
///
/// Several declarations add up in document order, so a component nested inside another (written
/// after it) has the last word:
/// - the last status wins;
/// - the last redirect wins, and beats any status: ``status`` is then the redirect's, and the
///   headers end with its `Location`;
/// - headers keep the order in which their names first appear; a later value replaces an earlier
///   one of the same name (in any letter case), except for fields that may repeat (`Set-Cookie`,
///   `Vary`, `Link`, `Server-Timing`), whose values are all kept, each a field of its own.
public struct ResponseHead: Sendable, Hashable {
    /// One header field.
    public struct Header: Sendable, Hashable {
        /// The name, as declared.
        public var name: String
        /// The value.
        public var value: String

        /// Creates a header field.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The status declared, or nil when the tree declared none (the server's default, 200).
    public var status: HTTPStatus?
    /// The header fields declared, merged as described above.
    public var headers: [Header]
    /// Where the page redirects, when it declared a redirect.
    public var location: String?

    /// A head with nothing declared.
    public init() {
        status = nil
        headers = []
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
                if !Self.mayRepeat(name), let index = headers.firstIndex(where: { Self.sameName($0.name, name) }) {
                    headers[index].value = value
                } else {
                    headers.append(Header(name: name, value: value))
                }
            case .redirect(let location, let status):
                redirect = (location, status)
            }
        }
        if let redirect {
            status = redirect.status
            location = redirect.location
            headers.append(Header(name: "Location", value: redirect.location))
        }
    }

    /// Whether the tree declared nothing.
    public var isEmpty: Bool { status == nil && headers.isEmpty }

    /// The value of the first field named `name` (in any letter case), if any.
    public subscript(header name: String) -> String? {
        headers.first { Self.sameName($0.name, name) }?.value
    }

    /// Fields whose values are all kept: each is a list, or must stay a field of its own.
    static let repeatable = ["set-cookie", "vary", "link", "server-timing"]

    static func mayRepeat(_ name: String) -> Bool {
        repeatable.contains { sameName($0, name) }
    }

    /// Header names compare in any ASCII letter case.
    static func sameName(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count
            && zip(a.utf8, b.utf8).allSatisfy { lowercased($0) == lowercased($1) }
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }
}
