/// What one render did: when the shell was ready, when each boundary showed its fallback and
/// revealed its content, which queries it waited on and which one decided its reveal, what the
/// cache answered for each key, and the ``Diagnostic``s it noticed.
///
/// Ask for it with ``RenderOptions/onReport(_:)``; every entry point delivers it once, as the
/// render ends (returns or throws), for whole renders, frames, live frames and streams alike.
/// Times are on the render's clock (``RenderOptions/clock``) from its start, so a `TestClock`
/// gives the same report on every run:
///
/// ```swift
/// let options = RenderOptions().onReport { report in print(report) }
/// let html = try await render(Page(), as: .html, options: options)
/// ```
///
/// `description` is a short table for a terminal; the report is `Encodable`, for logs and golden
/// files (times in milliseconds).
public struct RenderReport: Sendable, CustomStringConvertible {
    /// When nothing outside a ``Suspense`` waited any more and the first state could be shown;
    /// nil when the render failed before.
    public let shellAt: Duration?
    /// When the render ended.
    public let finishedAt: Duration
    /// Whether the render's ``RenderOptions/deadline`` passed, leaving fallbacks in place.
    public let deadlinePassed: Bool
    /// The boundaries that waited on a query, caught an error or tried again, in the order the
    /// render first met them; `root` stands for the content outside every boundary.
    public let boundaries: [Boundary]
    /// Every query the render read, one entry per run, in the order it first read them.
    public let queries: [Query]
    /// What the render noticed, in the order noticed.
    public let diagnostics: [Diagnostic]
    /// The error no boundary caught, when the render failed with one.
    public let error: String?

    init(
        shellAt: Duration?, finishedAt: Duration, deadlinePassed: Bool, boundaries: [Boundary], queries: [Query],
        diagnostics: [Diagnostic], error: String?
    ) {
        self.shellAt = shellAt
        self.finishedAt = finishedAt
        self.deadlinePassed = deadlinePassed
        self.boundaries = boundaries
        self.queries = queries
        self.diagnostics = diagnostics
        self.error = error
    }

    /// What the cache gave a render for a key, the first time the render read it.
    public enum CacheOutcome: String, Sendable, Hashable, CustomStringConvertible {
        /// The value (or failure) was stored: no query ran for this render.
        case hit
        /// Nothing was stored: the render started the query.
        case miss
        /// Another render of the same cache was running the query: this one waited on that run.
        case joined
        /// A stored value past its freshness was served at once, while the cache loads a fresh
        /// one in the background (stale-while-revalidate).
        case stale
        /// A run started by `QueryCache.prefetch` was in flight: the render waited on it (a
        /// prefetched value stored already is a `hit`).
        case prefetched

        /// The outcome's name, as in `miss`.
        public var description: String { rawValue }
    }

    /// What led a query to start: the render's first pass, or what a later pass evaluated
    /// again. A query started by the result of another is a waterfall.
    public enum Cause: Sendable, Hashable, CustomStringConvertible {
        /// The first pass, which evaluates the whole tree.
        case firstPass
        /// The result of the query with this key (or, keyless, of this promise type) arrived and
        /// the components waiting on it were evaluated again.
        case result(of: String)
        /// An ``ErrorBoundary`` tried its content again.
        case retry(of: BoundaryID)
        /// A ``Suspense``'s timeout passed.
        case timeout(of: BoundaryID)
        /// Fallback timing let a held ``Suspense`` resolve.
        case recheck(of: BoundaryID)
        /// The render's deadline passed.
        case deadline

        /// As in `first pass` or `result of user/1`.
        public var description: String {
            switch self {
            case .firstPass: return "first pass"
            case .result(let key): return "result of \(key)"
            case .retry(let id): return "retry of \(id)"
            case .timeout(let id): return "timeout of \(id)"
            case .recheck(let id): return "recheck of \(id)"
            case .deadline: return "deadline"
            }
        }
    }

    /// One run of a query as the render saw it.
    public struct Query: Sendable, Hashable {
        /// The key, or for a keyless promise its type (`Promise<User>`).
        public let key: String
        /// What the cache gave the render.
        public let outcome: CacheOutcome
        /// What led to its start.
        public let cause: Cause
        /// When the render first read it (a hit: when it read the value).
        public let startedAt: Duration
        /// When its result reached the render; nil when the render stopped waiting first.
        public let finishedAt: Duration?
        /// The description of the error it failed with, if it failed.
        public let error: String?
        /// Whether the render stopped waiting on it before it finished (a timeout, a deadline,
        /// or content discarded).
        public let cancelled: Bool
    }

    /// What a boundary is.
    public enum BoundaryKind: String, Sendable, Hashable {
        /// The content outside every boundary: what the shell waits on.
        case root
        /// A ``Suspense``.
        case suspense
        /// An ``ErrorBoundary``.
        case errorBoundary
    }

    /// One boundary's story.
    public struct Boundary: Sendable, Hashable {
        /// Its id, as in frames and streamed markup (`root` for the content outside every boundary).
        public let id: BoundaryID
        /// What it is.
        public let kind: BoundaryKind
        /// The components and boundaries from the root to it, as in ``RenderError/path``.
        public let path: [String]
        /// When it first showed its fallback (not before the shell); nil when it never did.
        public let fallbackAt: Duration?
        /// When it last revealed its content; nil when it still showed its fallback at the end,
        /// or, for an ``ErrorBoundary``, when it caught.
        public let revealedAt: Duration?
        /// The queries it waited on, in the order it first waited on each.
        public let waitedOn: [Query]
        /// The query whose result revealed it: the last of `waitedOn` to finish before
        /// `revealedAt`.
        public let revealedBy: String?
        /// How many times its content suspended again after it had revealed.
        public let resuspensions: Int
        /// How many times an ``ErrorBoundary`` tried its content again.
        public let retries: Int
        /// Whether its timeout (`Suspense(timeout:)`) passed.
        public let timedOut: Bool
        /// The errors an ``ErrorBoundary`` caught, described.
        public let errors: [String]
    }

    /// A short table for a terminal: one line per boundary, one per query, then the diagnostics.
    ///
    /// ```
    /// shell 0 ms · finished 80 ms
    /// boundary  fallback  revealed  revealed by  waited on
    /// 0.1       0 ms      50 ms     user/1       user/1 miss 0–50 ms
    /// ```
    public var description: String { ReportTable(self).text }
}

extension Duration {
    /// The duration in milliseconds, as reports encode times.
    var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}
