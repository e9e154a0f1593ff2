// Serves the Dashboard example, streamed, on 127.0.0.1.
//
//     swift run DashboardServer [--port 8080] [--latency-scale 1] [--test-clock]
//
// then open http://127.0.0.1:8080 (streamed out of order), /in-order, /list (the cards in a
// forwards SuspenseList), or /whole. With `--test-clock` no simulated backend answers until a
// client moves the clock (`POST /clock/advance?ms=N`, see DashboardTestClock). Once it accepts
// connections it prints one line, `listening on http://127.0.0.1:PORT`, with the port it bound
// (`--port 0` lets the system pick one), for scripts that wait for it.
import DashboardPage
import DashboardRoutes
import Foundation
import Hummingbird

let usage = """
    usage: DashboardServer [--port N] [--latency-scale X] [--test-clock]
      --port N           the port on 127.0.0.1, 0 to 65535 (default 8080; 0 lets the system pick one)
      --latency-scale X  multiplies every simulated backend latency, 0 to 1000 (default 1)
      --test-clock       the latencies pass only as POST /clock/advance?ms=N moves a test clock
                         (GET /clock/now tells its time), for browser checks
    """

func exit(failing message: String, code: Int32 = 2) -> Never {
    FileHandle.standardError.write(Data("DashboardServer: \(message)\n".utf8))
    exit(code)
}

var port = 8080
var scale = 1.0
var testClock: DashboardTestClock?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--help", "-h":
        print(usage)
        exit(0)
    case "--port":
        guard let value = arguments.popFirst(), let number = Int(value), (0...65535).contains(number) else {
            exit(failing: "--port takes a number from 0 to 65535\n\(usage)")
        }
        port = number
    case "--latency-scale":
        // Finite and bounded: the latencies are whole milliseconds.
        guard let value = arguments.popFirst(), let number = Double(value), number.isFinite,
            (0...1000).contains(number)
        else {
            exit(failing: "--latency-scale takes a number from 0 to 1000\n\(usage)")
        }
        scale = number
    case "--test-clock":
        testClock = DashboardTestClock()
    default:
        exit(failing: "unknown argument \(argument)\n\(usage)")
    }
}

let requestedPort = port
let app = Application(
    router: makeDashboardRouter(latencies: Latencies().scaled(by: scale), testClock: testClock),
    configuration: .init(address: .hostname("127.0.0.1", port: requestedPort)),
    onServerRunning: { channel in
        // The one line on standard output (Hummingbird logs to standard error).
        print("listening on http://127.0.0.1:\(channel.localAddress?.port ?? requestedPort)")
        fflush(nil)  // every stream: `stdout` itself is a global that Swift 6 will not read here
    }
)
do {
    // Runs until SIGINT or SIGTERM, then shuts down gracefully.
    try await app.runService()
} catch {
    exit(failing: "\(error)", code: 1)
}
