/// A response declaration HTTP cannot carry (``ResponseDeclaration``): a header name that is
/// not a token, a value or location with a line break or another control character, a status
/// out of range. Raised at the component that declared it, and routed like any error to the
/// nearest ``ErrorBoundary``: a declaration never reaches a response half-checked.
public struct InvalidResponseDeclarationError: Error, CustomStringConvertible, Equatable {
    /// What was wrong, in a sentence.
    public let message: String

    /// What went wrong, and how to fix it.
    public var description: String { message }
}
