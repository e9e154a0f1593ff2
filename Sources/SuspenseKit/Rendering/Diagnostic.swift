/// Something a render noticed that works but costs time or hides a mistake: a waterfall of
/// queries, a component that caught its own suspension, a stream whose shell waited on data.
///
/// Collected per render only when someone listens (``RenderOptions/onDiagnostic(_:)``,
/// ``RenderOptions/onReport(_:)``, or SuspenseTesting's `expectNoDiagnostics`), so a render that
/// nobody asks about pays nothing for them. Each diagnostic names the component and keys
/// involved and says how to fix it.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem a diagnostic reports: stable names to match in tests and logs.
    public enum Code: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// A component finished normally after a read threw its pending ``Promise`` inside it
        /// (`try?` around `resolveValue`): it showed what it shows without the data, and will
        /// show it whenever the query is slower than the render.
        case swallowedSuspension
        /// A key was first read only after another key of the same component or boundary had
        /// resolved: the two queries ran one after the other instead of side by side.
        case sequentialQueries
        /// In a stream, content outside every ``Suspense`` waited on data: the shell, and so
        /// the first byte of the response, waited for it.
        case suspendedOutsideBoundary
        /// A component kept suspending on a new query each time it was evaluated again, up to
        /// ``RenderOptions/maxResuspensions``: a key that changes on every evaluation.
        case unstableKey
        /// An error no ``ErrorBoundary`` caught after the shell was ready: a stream has sent
        /// part of the page already and ends with the error.
        case uncaughtAfterShell

        /// The code's name, as in `sequentialQueries`.
        public var description: String { rawValue }
    }

    /// What kind of problem this is.
    public let code: Code
    /// What happened and how to fix it, naming the component and the keys.
    public let message: String
    /// The component involved, by type name, when one is.
    public let component: String?
    /// The query keys involved, in the order the message names them.
    public let keys: [String]
    /// The boundary involved, when one is (`root` outside every boundary).
    public let boundary: BoundaryID?
    /// When it was noticed, on the render's clock (``RenderOptions/clock``).
    public let time: Duration

    init(
        _ code: Code, message: String, component: String? = nil, keys: [String] = [], boundary: BoundaryID? = nil,
        time: Duration
    ) {
        self.code = code
        self.message = message
        self.component = component
        self.keys = keys
        self.boundary = boundary
        self.time = time
    }

    /// The code and the message, as in `sequentialQueries: UserPage read "posts/1" only after …`.
    public var description: String { "\(code): \(message)" }
}

extension Diagnostic: Encodable {
    private enum CodingKeys: String, CodingKey {
        case code, message, component, keys, boundary, timeMilliseconds
    }

    /// Encodes the diagnostic with its time in milliseconds on the render's clock
    /// (`timeMilliseconds`) and its boundary as its id's description.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(code.rawValue, forKey: .code)
        try container.encode(message, forKey: .message)
        try container.encodeIfPresent(component, forKey: .component)
        try container.encode(keys, forKey: .keys)
        try container.encodeIfPresent(boundary?.description, forKey: .boundary)
        try container.encode(time.milliseconds, forKey: .timeMilliseconds)
    }
}
