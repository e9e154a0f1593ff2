/// The header fields of a response, in order, as name and value pairs: what a server adapter
/// copies into its framework's response. Names compare without regard to letter case, as HTTP's
/// do, and a name may appear more than once.
public struct PageHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// One field.
    public struct Field: Sendable, Hashable {
        /// The field's name, as given (`Cache-Control`).
        public var name: String
        /// The field's value.
        public var value: String

        /// Creates a field.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The fields, in the order they were added.
    public private(set) var fields: [Field]

    /// Creates headers from `fields`, in that order.
    public init(_ fields: [Field] = []) {
        self.fields = fields
    }

    /// Creates headers from name and value pairs, in that order.
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    /// The value of the first field named `name` (in any letter case), or nil.
    public subscript(name: String) -> String? {
        fields.first { Self.same($0.name, name) }?.value
    }

    /// Every value of the fields named `name`, in order.
    public func values(for name: String) -> [String] {
        fields.filter { Self.same($0.name, name) }.map(\.value)
    }

    /// Adds a field after the others, keeping any field of the same name.
    public mutating func add(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Replaces every field named `name` with one holding `value`, in the first one's place.
    public mutating func replace(name: String, value: String) {
        guard let first = fields.firstIndex(where: { Self.same($0.name, name) }) else {
            return add(name: name, value: value)
        }
        fields[first].value = value
        fields = fields.enumerated().filter { $0.offset == first || !Self.same($0.element.name, name) }.map(\.element)
    }

    /// Removes every field named `name`.
    public mutating func remove(name: String) {
        fields.removeAll { Self.same($0.name, name) }
    }

    /// Iterates the fields in order.
    public func makeIterator() -> IndexingIterator<[Field]> {
        fields.makeIterator()
    }

    /// Whether two header names are the same name: ASCII letters compare without their case, as
    /// HTML's names do.
    static func same(_ a: String, _ b: String) -> Bool {
        HTMLNames.sameName(a, b)
    }
}

/// What a response starts with: its status code and its header fields.
public struct PageHead: Sendable, Hashable {
    /// The status code (200, 404, …).
    public var status: Int
    /// The header fields.
    public var headers: PageHeaders

    /// Creates a head.
    public init(status: Int, headers: PageHeaders) {
        self.status = status
        self.headers = headers
    }
}

/// A whole response that is not streamed: what a server sends when a page's shell could not be
/// rendered.
public struct ErrorPage: Sendable, Hashable {
    /// Its status and header fields.
    public var head: PageHead
    /// Its body, whole.
    public var body: String

    /// Creates a page.
    /// - Parameters:
    ///   - status: Its status code; 500 by default.
    ///   - headers: Its header fields; `Content-Type` is `text/html; charset=utf-8` unless given.
    ///   - body: Its body.
    public init(status: Int = 500, headers: PageHeaders = [:], body: String) {
        var headers = headers
        if headers["Content-Type"] == nil { headers.add(name: "Content-Type", value: StreamedPage.contentType) }
        head = PageHead(status: status, headers: headers)
        self.body = body
    }

    /// The page a shell error gets unless the application makes its own: 500 and a short page
    /// that tells nothing of the error, which goes to the log, not to a client that need not
    /// learn the server's internals.
    public static let serverError = ErrorPage(
        body: "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Server error</title></head>"
            + "<body><h1>Server error</h1><p>This page could not be rendered. Please try again later.</p>"
            + "</body></html>"
    )
}
