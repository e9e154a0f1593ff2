import DashboardPage
import Testing

/// The command line both example servers read: what each flag sets, and a clear failure (with the
/// usage) for what is out of range or not offered.
@Suite struct DashboardServerArgumentsTests {
    @Test func flagsSetThePortTheScaleAndTheTestClock() {
        var expected = DashboardServerArguments()
        expected.port = 0
        expected.latencyScale = 0.5
        expected.testClock = true
        let parsed = DashboardServerArguments.parse(
            ["--port", "0", "--latency-scale", "0.5", "--test-clock"], offersTestClock: true)
        #expect(parsed == .run(expected))
        #expect(DashboardServerArguments.parse([], offersTestClock: false) == .run(DashboardServerArguments()))
    }

    @Test(arguments: [
        (["--port", "70000"], "--port takes a number from 0 to 65535"),
        (["--port"], "--port takes a number from 0 to 65535"),
        (["--latency-scale", "inf"], "--latency-scale takes a number from 0 to 1000"),
        (["--test-clock"], "unknown argument --test-clock"),
        (["--verbose"], "unknown argument --verbose"),
    ])
    func badArgumentsFailWithTheUsage(arguments: [String], message: String) {
        guard case .failure(let text) = DashboardServerArguments.parse(arguments, offersTestClock: false) else {
            Issue.record("\(arguments) was accepted")
            return
        }
        #expect(text.hasPrefix(message))
        #expect(text.contains("usage: DashboardServer [--port N] [--latency-scale X]\n"))
    }

    @Test func helpPrintsTheUsageOfTheFlagsOffered() {
        guard case .help(let usage) = DashboardServerArguments.parse(["--help"], offersTestClock: true) else {
            Issue.record("--help did not ask for the usage")
            return
        }
        #expect(usage.contains("--test-clock"))
        #expect(DashboardServerArguments.usage(offersTestClock: false).contains("--test-clock") == false)
    }
}
