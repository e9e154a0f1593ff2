public import SuspenseKit

/// How a component is turned into the text of a snapshot, and the extension of its golden file.
///
/// `.tree`, `.plain`, `.html` and `.html(pretty:)` render the fully resolved tree; `.frames`
/// renders every state the tree passes through, one header line per frame.
public struct SnapshotFormat: Sendable {
    enum Kind: Sendable {
        case final(RenderFormat)
        case frames(RenderFormat)
        case stream(StreamOptions.Order)
    }

    let kind: Kind
    /// The extension of the golden file, without the dot: `txt` or `html`.
    public let pathExtension: String

    /// The resolved structure (`RenderFormat.tree`), in a `.txt` file.
    public static let tree = SnapshotFormat(kind: .final(.tree), pathExtension: "txt")
    /// The visible text (`RenderFormat.plain`), in a `.txt` file.
    public static let plain = SnapshotFormat(kind: .final(.plain), pathExtension: "txt")
    /// HTML on one line, in an `.html` file.
    public static let html = SnapshotFormat(kind: .final(.html), pathExtension: "html")
    /// Every state the tree passes through, each in the `.tree` format, in a `.txt` file.
    public static let frames = SnapshotFormat.frames(.tree)

    /// The chunks of `renderStream(_:cache:options:stream:isolation:)` in order, each
    /// after a header line such as `── chunk 2 ──`, in a `.txt` file. Query results are applied
    /// in discovery order and fixed outcomes show their fallbacks first, so the chunks are the
    /// same on every run.
    public static let stream = SnapshotFormat.stream(order: .outOfOrder)

    /// The chunks of a stream in `order` (`.outOfOrder` or `.inOrder`), in a `.txt` file.
    public static func stream(order: StreamOptions.Order) -> SnapshotFormat {
        SnapshotFormat(kind: .stream(order), pathExtension: "txt")
    }

    /// HTML, pretty-printed when `pretty`, in an `.html` file.
    public static func html(pretty: Bool) -> SnapshotFormat {
        SnapshotFormat(kind: .final(.html(pretty: pretty)), pathExtension: "html")
    }

    /// Every state the tree passes through, each rendered in `format`, in a `.txt` file.
    ///
    /// The first frame shows every fallback; each later one follows a query result that changed
    /// the output, in the order the queries were discovered, so the frames are the same on every
    /// run. Each frame starts with a header line such as `── frame 2: after user/1 ──`.
    public static func frames(_ format: RenderFormat) -> SnapshotFormat {
        SnapshotFormat(kind: .frames(format), pathExtension: "txt")
    }

    /// Resolves `component` with `outcomes` stubbed and renders it. Query results are applied in
    /// discovery order, so that the output does not depend on which query finishes first.
    func snapshot<C: Component>(
        of component: @autoclosure @escaping () throws -> C,
        outcomes: FixedOutcomes,
        clock: (any Clock<Duration>)? = nil,
        configure: (RenderOptions) -> RenderOptions = { $0 },
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> String {
        let options = configure(RenderOptions(deliveryOrder: .discovery, clock: clock ?? ContinuousClock()))
        let cache = outcomes.makeCache()
        let text = try await render(try component(), cache: cache, options: options)
        try outcomes.check(against: cache)
        return text
    }

    private func render<C: Component>(
        _ component: @autoclosure @escaping () throws -> C,
        cache: QueryCache,
        options: RenderOptions,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> String {
        switch kind {
        case .final(let format):
            let node = try await resolve(try component(), cache: cache, options: options)
            return try node.rendered(as: format)
        case .frames(let format):
            let frames = try await resolveFrames(try component(), cache: cache, options: options)
            var lines: [String] = []
            var previous: String?
            var number = 0
            for frame in frames {
                let text = try frame.node.rendered(as: format)
                // A change the format cannot show (such as which queries a fallback waits on,
                // in HTML) makes no frame of its own.
                if text == previous { continue }
                previous = text
                number += 1
                let cause = frame.cause == .shell ? "initial" : "after \(frame.cause)"
                lines.append("── frame \(number): \(cause) ──")
                lines.append(text)
            }
            return lines.joined(separator: "\n")
        case .stream(let order):
            let stream = try await renderStream(
                try component(), cache: cache, options: options, stream: StreamOptions(order: order))
            var lines: [String] = []
            for try await chunk in stream {
                lines.append("── chunk \(lines.count / 2 + 1) ──")
                lines.append(chunk)
            }
            return lines.joined(separator: "\n")
        }
    }
}
