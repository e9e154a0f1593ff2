/// What HTTP allows in a declared status, header or redirect (``ResponseDeclaration``): checked
/// when the declaration resolves, so that a header cannot split the response (CR, LF) and a
/// redirect's location is safe in a `Location` field and in a `<meta http-equiv="refresh">`.
enum HTTPNames {
    /// Fields the server writes itself from the body and the connection; declaring one would
    /// break the stream.
    static let serverFields = ["content-length", "transfer-encoding", "connection", "location"]

    static func check(_ declaration: ResponseDeclaration) throws {
        switch declaration {
        case .status(let status):
            guard (200...599).contains(status.code) else {
                throw invalid(
                    "the status \(status.code) cannot be a page's; declare one in 200...599 "
                        + "(for a redirect, use .redirect(to:status:))")
            }
        case .header(let name, let value):
            guard !name.isEmpty, name.utf8.allSatisfy(isToken) else {
                throw invalid(
                    "\(quoted(name)) is not a valid header name: a name is letters, digits and !#$%&'*+-.^_`|~")
            }
            if let server = serverFields.first(where: { ResponseHead.sameName($0, name) }) {
                throw invalid(
                    server == "location"
                        ? "declare a redirect with .redirect(to:status:), not a Location header"
                        : "the header \(name) is the server's to write, not a page's")
            }
            guard value.utf8.allSatisfy(isFieldByte) else {
                throw invalid(
                    "the value of the header \(name) holds a line break or another control character: "
                        + quoted(value))
            }
        case .redirect(let location, let status):
            guard [301, 302, 303, 307, 308].contains(status.code) else {
                throw invalid("a redirect's status is 301, 302, 303, 307 or 308, not \(status.code)")
            }
            try checkLocation(location)
        }
    }

    /// A location is a URL made of the characters URLs allow (anything else percent-encoded),
    /// relative or with the scheme `http` or `https`.
    static func checkLocation(_ location: String) throws {
        // A leading quote would be taken off by the refresh's parsing: not a URL anyone means.
        guard !location.isEmpty, location.utf8.allSatisfy(isURLByte), location.utf8.first != UInt8(ascii: "'") else {
            throw invalid(
                "\(quoted(location)) is not a valid redirect location: percent-encode spaces, quotes, "
                    + "angle brackets, backslashes, controls and non-ASCII characters")
        }
        // A scheme is what comes before the first `:` when no `/`, `?` or `#` comes before it.
        let bytes = Array(location.utf8)
        if let colon = bytes.firstIndex(of: UInt8(ascii: ":")),
            !bytes[..<colon].contains(where: {
                $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#")
            })
        {
            let scheme = String(decoding: bytes[..<colon], as: UTF8.self)
            guard ResponseHead.sameName(scheme, "http") || ResponseHead.sameName(scheme, "https") else {
                throw invalid("a redirect goes to a relative URL or an http or https one, not \(quoted(location))")
            }
        }
    }

    /// `tchar` of RFC 9110.
    private static func isToken(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    /// A byte of a field value (RFC 9110): a visible character, a space or a tab, or a byte of
    /// UTF-8 text beyond ASCII; never CR, LF, NUL or another control.
    private static func isFieldByte(_ byte: UInt8) -> Bool {
        byte == 0x09 || (byte >= 0x20 && byte != 0x7F)
    }

    /// The characters of RFC 3986 (unreserved, reserved, and `%` of an escape).
    private static func isURLByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "-._~:/?#[]@!$&'()*+,;=%".utf8.contains(byte)
        }
    }

    private static func invalid(_ message: String) -> InvalidResponseDeclarationError {
        InvalidResponseDeclarationError(message: message)
    }

    /// A name or value as an error shows it: quoted, with controls escaped.
    private static func quoted(_ text: String) -> String {
        TreeRenderer.quoted(text)
    }
}
