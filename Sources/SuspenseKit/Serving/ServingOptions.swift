/// Settings of a served page (``StreamedPage``), beside the render's ``RenderOptions`` and the
/// stream's ``StreamOptions``: its status and headers, its Content Security Policy, and how
/// often a connection is checked for a client that left.
public struct ServingOptions: Sendable {
    /// The status of a page whose shell rendered (default 200).
    public var status: Int
    /// More header fields for that page. `Content-Type` is always `text/html; charset=utf-8`; a
    /// `Content-Security-Policy` given here is checked against the stream's scripts.
    public var headers: PageHeaders
    /// A policy made for each response, with a fresh nonce on the stream's scripts and in its
    /// `Content-Security-Policy` header, or nil (default) for none.
    public var contentSecurityPolicy: ContentSecurityPolicy?
    /// How long the body may go without a write before an empty one checks that the client is
    /// still there (default one second); nil for never. A client that left is found only by a
    /// write that fails, and a page waiting on a slow query writes nothing for that long. An
    /// interval of zero or less is never, as nil.
    public var probeInterval: Duration?
    /// Whether the head carries `Server-Timing` (default true): the time the shell took and the
    /// slowest queries it waited on (`shell;dur=12.3, q-user-1;dur=10.1`), from the render's
    /// ``RenderReport``, on the render's clock (``RenderOptions/clock``). Query keys become
    /// tokens (`user/1` is `q-user-1`), and at most five are listed.
    public var serverTiming: Bool
    /// Whether the body also ends with a `Server-Timing` trailer, where the adapter's transport
    /// can send one (default true): the whole render's time and when each boundary revealed.
    /// Off, the head announces no trailer. Needs ``serverTiming``.
    public var serverTimingTrailer: Bool
    /// The clock of the probes (default `ContinuousClock()`); a test gives a `TestClock`.
    public var clock: any Clock<Duration>

    /// Creates options.
    /// - Parameters:
    ///   - status: The status of a page whose shell rendered (default 200).
    ///   - headers: More header fields for that page.
    ///   - contentSecurityPolicy: `.nonce` for a policy with a fresh nonce per response.
    ///   - probeInterval: How long the body may stay silent before an empty write checks the
    ///     connection; nil for never.
    ///   - serverTiming: Whether to send the shell's time in `Server-Timing`.
    ///   - serverTimingTrailer: Whether to end the body with the whole render's `Server-Timing`,
    ///     where the transport can.
    ///   - clock: The clock of the probes.
    public init(
        status: Int = 200,
        headers: PageHeaders = [:],
        contentSecurityPolicy: ContentSecurityPolicy? = nil,
        probeInterval: Duration? = .seconds(1),
        serverTiming: Bool = true,
        serverTimingTrailer: Bool = true,
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.status = status
        self.headers = headers
        self.contentSecurityPolicy = contentSecurityPolicy
        self.probeInterval = probeInterval
        self.serverTiming = serverTiming
        self.serverTimingTrailer = serverTimingTrailer
        self.clock = clock
    }
}
