import SuspenseTesting
import Testing

@testable import SuspenseKit

/// `RenderFrame.cause`: what led to each frame, as a value, and the text frame headers show.
@Suite(.timeLimit(.minutes(3)))
struct RenderFrameTests {
    /// `a` loads, `b` fails into its ErrorBoundary, `slow` never answers and times out.
    struct Page: Component {
        let hang: Hang
        var body: some Component {
            Suspense {
                try Loaded("a")
            } fallback: {
                Text("Loading a…")
            }
            ErrorBoundary {
                Suspense {
                    try Loaded("b")
                } fallback: {
                    Text("Loading b…")
                }
            } fallback: { error in
                Text("b failed: \(error)")
            }
            ErrorBoundary {
                Suspense(timeout: .seconds(2)) {
                    try Hanging("slow", hang: hang)
                } fallback: {
                    Text("Loading slow…")
                }
            } fallback: { _ in
                Text("slow timed out")
            }
        }
    }

    @Test func eachFrameSaysWhetherTheShellAQueryOrATimeoutLedToIt() async throws {
        let clock = TestClock()
        let cache = QueryCache()
        cache.stub(.value("A"), for: "a")
        cache.stub(.failure(TestFailure("down")), for: "b")
        var frames = liveFrames(Page(hang: Hang()), cache: cache, options: options(clock)).makeAsyncIterator()
        var seen: [RenderFrame] = []
        for _ in 0..<3 { seen.append(try #require(try await frames.next())) }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(2))
        seen.append(try #require(try await frames.next()))
        #expect(try await frames.next() == nil)

        #expect(seen.map(\.cause).prefix(3) == [.shell, .query("a"), .query("b")])
        guard case .timeout(let id) = seen[3].cause else {
            Issue.record("the last frame's cause is \(seen[3].cause), not a timeout")
            return
        }
        #expect(id.description == "2.0")
        #expect(try seen[3].rendered(as: .plain).hasSuffix("slow timed out"))
        // The text stays what frame headers showed when the cause was a string.
        #expect(seen.map(\.cause.description) == ["initial", "a", "b", "timeout of Suspense #2.0"])
        #expect("\(seen[0])".hasPrefix("── initial ──\n"))
        #expect("\(seen[2])".hasPrefix("── after b ──\n"))
        #expect("\(seen[3])".hasPrefix("── after timeout of Suspense #2.0 ──\n"))
    }

    @Test func causesCompareByWhatTheyName() {
        #expect(RenderFrame.Cause.query("a") == .query("a"))
        #expect(RenderFrame.Cause.query("a") != .query("b"))
        #expect(RenderFrame.Cause.shell != .query("initial"))
        #expect(RenderFrame.Cause.query("initial").description == "initial", "a key is shown as it is")
    }
}
