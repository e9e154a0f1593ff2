/// A failure an ``ErrorBoundary`` caught, as ``ErrorBoundary/onError(_:)`` and
/// ``RenderOptions/onCaughtError`` receive it.
public struct CaughtError: Sendable, CustomStringConvertible {
    /// The error the component threw (or its failed query stored), as thrown.
    public let error: any Error
    /// The components and boundaries from the root to the component that threw, as in
    /// ``RenderError/path``.
    public let path: [String]
    /// The boundary that caught the error and shows its fallback.
    public let boundary: BoundaryID

    init(error: any Error, path: [String], boundary: BoundaryID) {
        self.error = error
        self.path = path
        self.boundary = boundary
    }

    /// The boundary, the path and the error, as in
    /// `ErrorBoundary #0 caught in Page > ErrorBoundary > UserCard: Offline: The feed cannot be reached.`
    public var description: String {
        let place = path.isEmpty ? "" : " in " + RenderError.shortened(path)
        return "ErrorBoundary #\(boundary) caught\(place): \(describeError(error, suggestion: false))"
    }
}
