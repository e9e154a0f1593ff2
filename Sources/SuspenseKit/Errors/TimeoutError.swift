/// A ``Suspense`` was still waiting when its `timeout` passed, or the render itself was still
/// waiting outside every `Suspense` when its ``RenderOptions/deadline`` passed.
///
/// A boundary's timeout goes to the nearest ``ErrorBoundary`` above that `Suspense`, after the
/// queries only it waited on were cancelled.
public struct TimeoutError: Error, Equatable, CustomStringConvertible {
    /// The component path of the boundary that timed out (`["Page", "Suspense"]`), or of the
    /// first component still waiting when the render's deadline passed.
    public let path: [String]
    /// The timeout that passed.
    public let duration: Duration
    /// The queries that were still pending, in document order.
    public let pendingQueries: [String]

    /// Creates the error.
    public init(path: [String], duration: Duration, pendingQueries: [String]) {
        self.path = path
        self.duration = duration
        self.pendingQueries = pendingQueries
    }

    /// `Page > Suspense timed out after 2.0 seconds waiting on stats`.
    public var description: String {
        let waiting = pendingQueries.isEmpty ? "" : " waiting on \(pendingQueries.joined(separator: ", "))"
        return "\(path.joined(separator: " > ")) timed out after \(duration)\(waiting)"
    }
}
