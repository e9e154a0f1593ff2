// Serves the Dashboard example, streamed.
//
//     swift run DashboardServer [--port 8080] [--latency-scale 1]
//
// then open http://127.0.0.1:8080 (streamed out of order), /in-order, or /whole.
import DashboardPage
import DashboardRoutes
import Foundation
import Hummingbird

var port = 8080
var scale = 1.0
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch (argument, arguments.popFirst()) {
    case ("--port", let value?) where Int(value) != nil: port = Int(value)!
    case ("--latency-scale", let value?) where Double(value) != nil: scale = Double(value)!
    default:
        print("usage: DashboardServer [--port N] [--latency-scale X]  (could not read \(argument))")
        exit(2)
    }
}

let requestedPort = port
let app = Application(
    router: makeDashboardRouter(latencies: Latencies().scaled(by: scale)),
    configuration: .init(address: .hostname("127.0.0.1", port: requestedPort)),
    onServerRunning: { channel in
        // One line with the real port (port 0 picks one), for scripts that wait for it.
        print("listening on http://127.0.0.1:\(channel.localAddress?.port ?? requestedPort)")
        fflush(nil)
    }
)
try await app.runService()
