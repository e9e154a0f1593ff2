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

func exit(failing message: String, code: Int32 = 2) -> Never {
    FileHandle.standardError.write(Data("DashboardServer: \(message)\n".utf8))
    exit(code)
}

let arguments: DashboardServerArguments
switch DashboardServerArguments.parse(CommandLine.arguments.dropFirst(), offersTestClock: true) {
case .run(let parsed): arguments = parsed
case .help(let usage):
    print(usage)
    exit(0)
case .failure(let message): exit(failing: message)
}
let port = arguments.port
let scale = arguments.latencyScale
let testClock = arguments.testClock ? DashboardTestClock() : nil

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
