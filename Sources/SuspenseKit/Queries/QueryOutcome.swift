/// The outcome a test gives a query with ``QueryCache/stub(_:for:)``, in place of running it.
public enum QueryOutcome: Sendable {
    /// The query succeeds with this value, delivered like a real result: after the first frame.
    case value(any Sendable)
    /// The query fails with this error, delivered like a real failure.
    case failure(any Error)
    /// The query never finishes: the ``Suspense`` waiting on it keeps its fallback.
    case pending
}
