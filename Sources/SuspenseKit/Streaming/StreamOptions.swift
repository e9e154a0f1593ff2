/// Settings of the stream itself, beside the render's own ``RenderOptions``
/// (``renderStream(_:cache:options:stream:isolation:)``).
public struct StreamOptions: Sendable {
    /// How boundaries that resolve after the shell reach the page.
    public enum Order: Sendable, Hashable {
        /// The shell at once with every pending fallback in place, then each boundary as it
        /// resolves, in completion order, swapped in as ``StreamOptions/Swap`` says.
        case outOfOrder
        /// No script at all: the document top to bottom, waiting at each pending boundary, for
        /// clients without JavaScript. No fallback is ever sent, and nothing sent is taken back:
        /// content inside an ``ErrorBoundary`` or a ``Suspense`` that still waits is held until
        /// nothing inside it waits, since a late error replaces the boundary's whole region, and
        /// may make a resolved Suspense show its fallback again.
        case inOrder
    }

    /// How the out-of-order stream replaces a region of the page.
    public enum Swap: Sendable, Hashable {
        /// Regions between comments (`<!--sk:0.1-->` … `<!--/sk:0.1-->`), each new content in a
        /// `<template>` followed by a small inline script that swaps it in: works in every
        /// browser that runs scripts (give the page's CSP nonce in ``StreamOptions/nonce``).
        case script
        /// HTML's declarative partial updates, with no script at all: regions between
        /// processing instructions (`<?start name="0.1">` … `<?end>`), each new content in a
        /// `<template for="0.1">`, which the browser applies as it parses (Chromium 150 and
        /// later; other browsers keep showing the fallbacks). Each replacement carries the
        /// instructions again, so that the region can change once more.
        case declarative
        /// ``declarative``, with a small inline script after each `<template for>` for the
        /// browsers that do not apply it themselves (Firefox, Safari): where the template is still
        /// in the page, the script puts its content in place of the region, as the browser would;
        /// where the browser applied it, the script only removes itself (give the page's CSP
        /// nonce in ``StreamOptions/nonce``).
        case declarativeWithScript
    }

    /// How boundaries that resolve after the shell reach the page (default `.outOfOrder`).
    public var order: Order
    /// How the out-of-order stream swaps regions in (default `.script`); in order, nothing is
    /// swapped.
    public var swap: Swap
    /// A CSP nonce put on every inline script (`<script nonce="…">`), or nil.
    public var nonce: String?
    /// The HTML that replaces every region still showing a fallback when, after the shell, an
    /// error escapes every ``ErrorBoundary``: the stream then ends with it, and throws. The
    /// default is ``StreamOptions/genericLateErrorHTML``; the error is given so that a page can
    /// choose what to say, and its text should reach the page only in development.
    public var lateErrorHTML: @Sendable (any Error) -> String
    /// Called with each response declaration (``Component/httpStatus(_:)`` and the like) that the
    /// stream reveals after its shell, on the render's task: the response's head was sent with
    /// the shell, so the declaration changes nothing but the page (a redirect becomes a
    /// `<meta http-equiv="refresh">`). Log it: a status or header that should count belongs in
    /// the shell, outside every ``Suspense`` that may still be pending when it is sent.
    public var onDeclaredAfterShell: (@Sendable (ResponseDeclaration) -> Void)?

    /// What replaces the pending regions after a late error unless ``lateErrorHTML`` says
    /// otherwise: a short message that tells nothing about the error.
    public static let genericLateErrorHTML = "<p role=\"alert\">This part of the page could not be loaded.</p>"

    /// Creates options.
    /// - Parameters:
    ///   - order: `.outOfOrder` (default) or `.inOrder`.
    ///   - swap: `.script` (default), `.declarative` or `.declarativeWithScript`, for the
    ///     out-of-order stream.
    ///   - nonce: A CSP nonce for the inline scripts, if the page's policy asks for one.
    ///   - lateErrorHTML: The HTML for the regions still pending when a late error ends the
    ///     stream; a generic message by default.
    ///   - onDeclaredAfterShell: Called with each response declaration revealed after the shell,
    ///     which can no longer change the response.
    public init(
        order: Order = .outOfOrder,
        swap: Swap = .script,
        nonce: String? = nil,
        lateErrorHTML: @escaping @Sendable (any Error) -> String = { _ in StreamOptions.genericLateErrorHTML },
        onDeclaredAfterShell: (@Sendable (ResponseDeclaration) -> Void)? = nil
    ) {
        self.order = order
        self.swap = swap
        self.nonce = nonce
        self.onDeclaredAfterShell = onDeclaredAfterShell
        self.lateErrorHTML = lateErrorHTML
    }
}
