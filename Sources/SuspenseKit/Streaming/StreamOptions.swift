/// Settings of the stream itself, beside the render's own ``RenderOptions``
/// (``renderStream(_:cache:options:stream:isolation:)``).
public struct StreamOptions: Sendable {
    /// How boundaries that resolve after the shell reach the page.
    public enum Order: Sendable, Hashable {
        /// The shell at once with every pending fallback in place, then each boundary as it
        /// resolves, in completion order, swapped in by a small inline script.
        case outOfOrder
        /// No script at all: the document top to bottom, waiting at each pending boundary, for
        /// clients without JavaScript. No fallback is ever sent. Content inside an
        /// ``ErrorBoundary`` that still waits is held until that boundary can no longer fail,
        /// since a later error replaces its whole region.
        case inOrder
    }

    /// How boundaries that resolve after the shell reach the page (default `.outOfOrder`).
    public var order: Order
    /// A CSP nonce put on every inline script (`<script nonce="…">`), or nil.
    public var nonce: String?

    /// Creates options.
    /// - Parameters:
    ///   - order: `.outOfOrder` (default) or `.inOrder`.
    ///   - nonce: A CSP nonce for the inline scripts, if the page's policy asks for one.
    public init(order: Order = .outOfOrder, nonce: String? = nil) {
        self.order = order
        self.nonce = nonce
    }
}
