@testable import SuspenseKit

/// A server's body writer, for ``StreamedPage/writeBody(context:hooks:to:)``: records every write
/// (an empty string is a probe), and fails the writes the test says, as a closed connection does.
final class FakeBodyWriter: Sendable {
    struct ConnectionClosed: Error {}

    private let writes = Locked([String]())
    private let failing: @Sendable (_ chunk: String, _ index: Int) -> Bool

    /// A writer whose write `chunk`, the `index`th one, fails when `failing` says so.
    init(failing: @escaping @Sendable (_ chunk: String, _ index: Int) -> Bool = { _, _ in false }) {
        self.failing = failing
    }

    /// Every write, probes included, in order.
    var all: [String] { writes.withLock { $0 } }
    /// The chunks written, without the probes.
    var chunks: [String] { all.filter { !$0.isEmpty } }
    /// How many probes were written.
    var probes: Int { all.filter(\.isEmpty).count }

    var write: @Sendable (String) async throws -> Void {
        { chunk in
            let index = self.writes.withLock { writes in
                writes.append(chunk)
                return writes.count - 1
            }
            if self.failing(chunk, index) { throw ConnectionClosed() }
        }
    }
}

/// The hooks of a test: logs what the page reports, with the context it got.
struct RecordingHooks {
    let log = Log()

    func hooks(
        onShellError: (@Sendable (any Error, String) -> ErrorPage)? = nil,
        onLateError: (@Sendable (any Error, String) -> Void)? = nil
    ) -> ServingHooks<String> {
        let log = log
        return ServingHooks(
            log: { entry, context in log.append("\(entry.level) [\(context)] \(entry)") },
            onShellError: onShellError,
            onLateError: onLateError
        )
    }
}
