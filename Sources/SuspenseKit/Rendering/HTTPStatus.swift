/// An HTTP response status, as a component declares it with ``Component/httpStatus(_:)``.
///
/// Write a common one by name (`.notFound`) or any by its code (`404`, or `HTTPStatus(404)`).
public struct HTTPStatus: Sendable, Hashable, ExpressibleByIntegerLiteral, CustomStringConvertible {
    /// The three-digit code, such as 404.
    public var code: Int

    /// Creates a status from its code. A status a page can declare is in 200...599, a redirect's
    /// one of 301, 302, 303, 307 and 308; another code fails the render at the declaration.
    public init(_ code: Int) {
        self.code = code
    }

    /// Creates a status from an integer literal: `.httpStatus(404)`.
    public init(integerLiteral code: Int) {
        self.code = code
    }

    /// The code, as in `404`.
    public var description: String { String(code) }

    /// 200: the page, as asked.
    public static let ok = HTTPStatus(200)
    /// 201
    public static let created = HTTPStatus(201)
    /// 202
    public static let accepted = HTTPStatus(202)
    /// 301: the page moved for good; clients may turn a POST into a GET.
    public static let movedPermanently = HTTPStatus(301)
    /// 302: the page is elsewhere for now; clients may turn a POST into a GET.
    public static let found = HTTPStatus(302)
    /// 303: see another page, with a GET (after a form's POST).
    public static let seeOther = HTTPStatus(303)
    /// 307: the page is elsewhere for now, asked with the same method.
    public static let temporaryRedirect = HTTPStatus(307)
    /// 308: the page moved for good, asked with the same method.
    public static let permanentRedirect = HTTPStatus(308)
    /// 400
    public static let badRequest = HTTPStatus(400)
    /// 401
    public static let unauthorized = HTTPStatus(401)
    /// 403
    public static let forbidden = HTTPStatus(403)
    /// 404
    public static let notFound = HTTPStatus(404)
    /// 410: the page is gone for good.
    public static let gone = HTTPStatus(410)
    /// 422
    public static let unprocessableContent = HTTPStatus(422)
    /// 429
    public static let tooManyRequests = HTTPStatus(429)
    /// 500
    public static let internalServerError = HTTPStatus(500)
    /// 503
    public static let serviceUnavailable = HTTPStatus(503)
}
