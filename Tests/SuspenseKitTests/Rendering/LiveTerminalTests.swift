import SuspenseTesting
import Testing

@testable import SuspenseKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `LiveTerminal` on a terminal of a fixed size: its bytes played on a `VirtualTerminal`, whose
/// screen and scrollback are what a person sees.
@Suite(.timeLimit(.minutes(3)))
struct LiveTerminalTests {
    /// Sixteen lines, then two boundaries: taller than a 40×12 terminal.
    struct TallPage: Component {
        let gates: Gates
        var body: some Component {
            Element("main") {
                ForEach(1...16, id: \.self) { number in
                    Element("p") { Text("line \(number)") }
                }
                Suspense {
                    try Gated("a", gates: gates)
                } fallback: {
                    Element("p") { Text("loading a") }
                }
                Suspense {
                    try Gated("b", gates: gates)
                } fallback: {
                    Element("p") { Text("loading b") }
                }
            }
        }
    }

    /// A feed tried again every second, and a slow query whose boundary times out after 1.5 s.
    struct RetriesAndTimeout: Component {
        let flaky: Flaky
        let hang: Hang
        var body: some Component {
            Element("main") {
                ErrorBoundary {
                    Suspense {
                        try RetriedFeed(
                            flaky: flaky, policy: RetryPolicy(maxAttempts: 3, initialDelay: .seconds(1), multiplier: 1))
                    } fallback: {
                        Element("p") { Text("loading feed") }
                    }
                } fallback: { error in
                    Element("p") { Text("feed failed: \(error)") }
                }
                ErrorBoundary {
                    Suspense(timeout: .milliseconds(1500)) {
                        try Hanging("slow", hang: hang)
                    } fallback: {
                        Element("p") { Text("loading slow") }
                    }
                } fallback: { _ in
                    Element("p") { Text("slow timed out") }
                }
            }
        }
    }

    /// What has been written so far, played on a terminal (40×12 unless told) that already shows
    /// a prompt.
    static func played(_ writes: [String], columns: Int = 40) -> VirtualTerminal {
        var terminal = VirtualTerminal(columns: columns, rows: 12)
        terminal.feed("$ swift run Report\n")
        for write in writes { terminal.feed(write) }
        return terminal
    }

    @Test func aFrameTallerThanTheTerminalLeavesOneCopyInTheScrollback() async throws {
        let gates = Gates()
        let writes = Log()
        let live = LiveTerminal(format: .plain, isTerminal: true, columns: 40, rows: 12) { writes.append($0) }
        let rendering = Task { try await live.render(TallPage(gates: gates)) }
        try await waitUntil("the shell is drawn") { writes.all.count == 1 }
        // While it runs: the top of the frame, as much as fits above the status line.
        let shell = Self.played(writes.all)
        #expect(shell.scrollback == ["$ swift run Report"])
        #expect(shell.screenLines == (1...11).map { "line \($0)" } + ["… waiting on a, b · 7 more lines below"])
        #expect(!shell.cursorVisible)
        gates.open("a")
        try await waitUntil("a is drawn") { writes.all.count == 2 }
        gates.open("b")
        let final = try await rendering.value
        let terminal = Self.played(writes.all)
        #expect(terminal.unknown == [])
        // The prompt, then the final rendering once: no copy of an earlier frame, no status line.
        #expect(terminal.history == ["$ swift run Report"] + final.split(separator: "\n").map(String.init))
        #expect(final.hasSuffix("line 16\na loaded\nb loaded"))
        #expect(terminal.screenLines.last == "")
        #expect(terminal.cursorVisible)
    }

    @Test func theStatusLineShowsRetriesAndTimeouts() async throws {
        let clock = TestClock()
        let flaky = Flaky(failures: 5)
        let hang = Hang()
        let writes = Log()
        let live = LiveTerminal(format: .plain, isTerminal: true, columns: 80, rows: 12) { writes.append($0) }
        let rendering = Task {
            try await live.render(RetriesAndTimeout(flaky: flaky, hang: hang), options: options(clock))
        }
        @Sendable func status() -> String? { Self.played(writes.all, columns: 80).screenLines.last { !$0.isEmpty } }
        // The first attempt failed at once; the second waits for its backoff.
        try await waitUntil("the second attempt is shown") {
            status() == "… waiting on feed (attempt 2 of 3), slow"
        }
        await clock.waitForSleepers(2)
        clock.advance(by: .seconds(1))
        try await waitUntil("the third attempt is shown") {
            status() == "… waiting on feed (attempt 3 of 3), slow"
        }
        #expect(flaky.calls.value == 2)
        await clock.waitForSleepers(2)
        clock.advance(by: .milliseconds(500))
        try await waitUntil("the timeout is shown") {
            status()?.contains("timed out") == true
        }
        #expect(
            Self.played(writes.all, columns: 80).screenLines.filter { !$0.isEmpty } == [
                "$ swift run Report",
                "loading feed",
                "slow timed out",
                "… waiting on feed (attempt 3 of 3) · timed out: Suspense #0.1.0",
            ])
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(500))
        let final = try await rendering.value
        #expect(final == "feed failed: unavailable\nslow timed out")
        let terminal = Self.played(writes.all, columns: 80)
        #expect(terminal.unknown == [])
        #expect(terminal.history == ["$ swift run Report", "feed failed: unavailable", "slow timed out"])
        #expect(terminal.cursorVisible)
    }

    @Test func ctrlCClearsTheStatusLineAndShowsTheCursor() async throws {
        let gates = Gates()
        let writes = Log()
        let live = LiveTerminal(format: .plain, isTerminal: true, columns: 40, rows: 12) { writes.append($0) }
        let rendering = Task { try await live.render(TallPage(gates: gates)) }
        try await waitUntil("the shell is drawn") { writes.all.count == 1 }
        // What the SIGINT handler writes to standard output, written to a pipe instead.
        var descriptors: [Int32] = [0, 0]
        #expect(pipe(&descriptors) == 0)
        TerminalInterrupt.writeCleanup(to: descriptors[1])
        close(descriptors[1])
        var bytes = [UInt8](repeating: 0, count: 64)
        let count = read(descriptors[0], &bytes, bytes.count)
        close(descriptors[0])
        let cleanup = String(decoding: bytes.prefix(max(count, 0)), as: UTF8.self)
        #expect(cleanup == TerminalInterrupt.cleanup)
        var terminal = Self.played(writes.all)
        terminal.feed("^C")  // the terminal's echo of Ctrl-C, where the cursor is
        terminal.feed(cleanup)
        #expect(terminal.unknown == [])
        #expect(terminal.cursorVisible)
        // The part of the frame drawn stays; the status line and the echo are gone, and the
        // shell's prompt comes on the cleared row.
        #expect(terminal.screenLines == (1...11).map { "line \($0)" } + [""])
        #expect(terminal.row == 11 && terminal.column == 0)
        gates.open("a")
        gates.open("b")
        _ = try await rendering.value
    }

    @Test func aFrameThatFitsIsRedrawnInPlaceAndEndsWithoutAStatusLine() async throws {
        let gates = Gates()
        let writes = Log()
        let live = LiveTerminal(format: .plain, isTerminal: true, columns: 40, rows: 12) { writes.append($0) }
        let rendering = Task { try await live.render(LiveFramesTests.TwoCards(gates: gates)) }
        try await waitUntil("the shell is drawn") { writes.all.count == 1 }
        gates.open("a")
        gates.open("b")
        _ = try await rendering.value
        let terminal = Self.played(writes.all)
        #expect(terminal.history == ["$ swift run Report", "a loaded", "b loaded"])
        #expect(terminal.row == 3 && terminal.column == 0)
    }

    @Test func aLineWiderThanTheTerminalCountsTheRowsItWrapsTo() {
        #expect(LiveDrawing.rows(of: "short", columns: 10) == 1)
        #expect(LiveDrawing.rows(of: Substring(String(repeating: "x", count: 10)), columns: 10) == 1)
        #expect(LiveDrawing.rows(of: Substring(String(repeating: "x", count: 25)), columns: 10) == 3)
        #expect(LiveDrawing.rows(of: "", columns: 10) == 1)
        #expect(LiveDrawing.rows(of: "long line", columns: nil) == 1)
    }
}
