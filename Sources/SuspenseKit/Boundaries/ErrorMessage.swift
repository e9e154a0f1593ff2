/// Shows an error as a page may show it: the default ``ErrorBoundary`` fallback, and a piece a
/// custom fallback can use too.
///
/// In HTML, whole or streamed, a ``PresentableError`` shows its title, message and recovery
/// suggestion; any other error shows only ``genericMessage``, since its description may hold
/// what a visitor must not see (`connection to postgres://app:s3cret@… refused`), unless
/// ``RenderOptions/errorDetails`` is `.shown`. The `.tree` and `.plain` formats, read by tests
/// and terminals, always show the description.
///
/// ```swift
/// ErrorBoundary {
///     try Feed()
/// } fallback: { error in
///     Element("p", attributes: ["class": "error"]) { ErrorMessage(error) }
/// }
/// ```
public struct ErrorMessage: Component {
    /// A primitive has no body: the resolver handles it directly.
    public typealias Body = Never

    /// What HTML shows of an error that is not presentable while details are hidden.
    public static let genericMessage = "Something went wrong."

    /// The error shown.
    public let error: any Error

    /// Creates the message of an error.
    public init(_ error: any Error) {
        self.error = error
    }

    /// Resolves the component into the render. Not API: only the resolver calls it.
    public static func _resolve(_ component: Self, in resolver: _Resolver) throws {
        resolver.appendErrorMessage(component.error)
    }
}
