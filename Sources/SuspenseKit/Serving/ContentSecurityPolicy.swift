extension ServingOptions {
    /// A Content Security Policy made for each response: a fresh nonce, unguessable, put on every
    /// inline script of the stream (``StreamOptions/nonce``) and in the `Content-Security-Policy`
    /// header, so that the page's own scripts run and an injected one does not.
    ///
    /// ```swift
    /// await StreamedPage(Page(), serving: ServingOptions(contentSecurityPolicy: .nonce))
    /// ```
    ///
    /// A stream with `swap: .declarative`, or in order, writes no script and needs no nonce; the
    /// policy still forbids any script without it.
    public struct ContentSecurityPolicy: Sendable, Hashable {
        /// The policy's directives other than the nonce, as given.
        let directives: String

        /// `script-src 'nonce-…'; object-src 'none'; base-uri 'none'`: only scripts carrying the
        /// nonce run, no plugin loads, and no `<base>` can move where relative URLs point.
        public static let nonce = ContentSecurityPolicy(directives: "object-src 'none'; base-uri 'none'")

        /// Your own policy, with the nonce added: to its `script-src` when it has one, or else in a
        /// `script-src` of its own that keeps what `default-src` allowed.
        ///
        /// ```swift
        /// .nonce(directives: "default-src 'self'; img-src 'self' https://images.example.com")
        /// ```
        public static func nonce(directives: String) -> ContentSecurityPolicy {
            ContentSecurityPolicy(directives: directives)
        }

        /// The header's value with `nonce` in it.
        func header(nonce: String) -> String {
            CSPDirectives(directives).addingNonce(nonce)
        }
    }
}
