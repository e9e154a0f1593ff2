/// The output of a render as it runs: the frames of ``liveFrames(_:cache:options:isolation:)``
/// (``LiveFrames``) or the HTML chunks of ``renderStream(_:cache:options:stream:isolation:)``
/// (``HTMLStream``).
///
/// Iterate it once. The render runs while it is read, and waits when the reader falls behind:
/// at most a bounded amount of output is buffered (16 frames; 64 KiB of HTML, plus what one
/// query's result adds), while the queries already running go on. A consumer that stops
/// iterating (a `break`, an error thrown in the loop), or drops the sequence without iterating,
/// cancels the render and its queries; one whose task is cancelled gets `CancellationError`.
public struct RenderSequence<Element: Sendable>: AsyncSequence, Sendable {
    /// What the sequence throws: the render's error, or `CancellationError`.
    public typealias Failure = any Error

    let core: Core
    /// A stream's response head (see ``responseHead``); empty for frames.
    var head = ResponseHead()

    /// Creates the channel, holding at most `limit` of cost before the render waits, and the
    /// render's task that `start` makes to write into it (on the caller's actor: `start` makes
    /// it with `Task { _ = isolation; … }`, which is why the task is made there and not here).
    init(limit: Int, start: (RenderChannel<Element>) -> Task<Void, Never>) {
        let channel = RenderChannel<Element>(limit: limit)
        core = Core(channel: channel, render: start(channel))
    }

    /// The iterator that reads the output; make one per sequence.
    public func makeAsyncIterator() -> Iterator {
        core.iteratorMade()
        return Iterator(channel: core.channel, canceller: RenderCanceller(core))
    }

    /// Gives the output in order.
    public struct Iterator: AsyncIteratorProtocol {
        let channel: RenderChannel<Element>
        let canceller: RenderCanceller

        /// The next element, or nil at the end.
        public mutating func next() async throws -> Element? {
            try await channel.next(isolation: nil)
        }

        /// The next element, or nil at the end, read on `actor`.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(any Error) -> Element? {
            try await channel.next(isolation: actor)
        }
    }

    /// What the sequence and its iterators share: the channel and the render's task. A
    /// sequence dropped before anyone iterated it cancels the render.
    final class Core: Sendable {
        let channel: RenderChannel<Element>
        let render: Task<Void, Never>
        private let iterated = Locked(false)

        init(channel: RenderChannel<Element>, render: Task<Void, Never>) {
            self.channel = channel
            self.render = render
        }

        func iteratorMade() {
            iterated.withLock { $0 = true }
        }

        func stop() {
            channel.consumerLeft()
            render.cancel()
        }

        deinit {
            if !iterated.withLock({ $0 }) { stop() }
        }
    }
}

/// Stops a render when the iterator reading it goes away: a consumer that stops iterating
/// cancels the render at once, even while the sequence itself is still referenced.
final class RenderCanceller: Sendable {
    private let stop: @Sendable () -> Void

    init<Element>(_ core: RenderSequence<Element>.Core) {
        stop = { core.stop() }
    }

    deinit {
        stop()
    }
}

extension RenderSequence where Element == String {
    /// What the stream's shell declared about the response (``Component/httpStatus(_:)`` and
    /// the like), known when ``renderStream(_:cache:options:stream:isolation:)`` returns: send
    /// its status and headers, or its redirect, before the first chunk.
    public var responseHead: ResponseHead { head }

    /// Reads every chunk and joins them: the whole streamed page. Throws the render's error, or
    /// `CancellationError` when the calling task is cancelled, never a truncated page.
    public func collect() async throws -> String {
        var page = ""
        for try await chunk in self { page += chunk }
        return page
    }
}
