// Serves the Dashboard example, streamed, on 127.0.0.1, with Vapor.
//
//     swift run DashboardServer [--port 8080] [--latency-scale 1]
//
// then open http://127.0.0.1:8080 (streamed out of order), /in-order, or /whole. Once it accepts
// connections it prints one line, `listening on http://127.0.0.1:PORT`, with the port it bound
// (`--port 0` lets the system pick one), for scripts that wait for it.
import DashboardPage
import DashboardRoutes
import Foundation
import Vapor

let usage = """
    usage: DashboardServer [--port N] [--latency-scale X]
      --port N           the port on 127.0.0.1, 0 to 65535 (default 8080; 0 lets the system pick one)
      --latency-scale X  multiplies every simulated backend latency, 0 to 1000 (default 1)
    """

func exit(failing message: String, code: Int32 = 2) -> Never {
    FileHandle.standardError.write(Data("DashboardServer: \(message)\n".utf8))
    exit(code)
}

var port = 8080
var scale = 1.0
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
    default:
        exit(failing: "unknown argument \(argument)\n\(usage)")
    }
}

do {
    // Vapor reads its own command line from the environment's arguments: given none, it serves,
    // and stops gracefully on SIGINT or SIGTERM. Its log goes to standard error, from notices up
    // (not a line for each request).
    LoggingSystem.bootstrap { label in
        var handler = StreamLogHandler.standardError(label: label)
        handler.logLevel = .notice
        return handler
    }
    let app = try await Application.make(Environment(name: "production", arguments: ["DashboardServer"]))
    app.http.server.configuration.hostname = "127.0.0.1"
    app.http.server.configuration.port = port
    try app.register(collection: DashboardPages(latencies: Latencies().scaled(by: scale)))
    try await app.startup()
    // The one line on standard output.
    print("listening on http://127.0.0.1:\(app.http.server.shared.localAddress?.port ?? port)")
    fflush(nil)  // every stream: `stdout` itself is a global that Swift 6 will not read here
    try await app.running?.onStop.get()
    try await app.asyncShutdown()
} catch {
    exit(failing: "\(error)", code: 1)
}
