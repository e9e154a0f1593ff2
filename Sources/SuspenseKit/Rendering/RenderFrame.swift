/// One state a tree passed through while it resolved.
public struct RenderFrame: Sendable, Hashable {
    /// What led to a frame.
    ///
    /// Its `description` is the text the frame headers of snapshots show: `initial`, the
    /// query's key or label, or `timeout of Suspense #0.1`.
    public enum Cause: Sendable, Hashable, CustomStringConvertible {
        /// The first frame: the shell, with every pending boundary's fallback in place.
        case shell
        /// The result, a value or a failure, of the query with this key (or keyless-promise
        /// label, such as `Promise<User>`).
        case query(String)
        /// The timeout of the ``Suspense`` with this id passed: its ``TimeoutError`` went to the
        /// nearest ``ErrorBoundary``.
        case timeout(BoundaryID)

        /// `initial`, the query's key, or `timeout of Suspense #<id>`.
        public var description: String {
            switch self {
            case .shell: "initial"
            case .query(let key): key
            case .timeout(let id): "timeout of Suspense #\(id)"
            }
        }
    }

    /// What led to this state: the shell, a query's result, or a timeout.
    public let cause: Cause
    /// The tree in this state.
    public let node: Node
}
