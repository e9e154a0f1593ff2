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

func exit(failing message: String, code: Int32 = 2) -> Never {
    FileHandle.standardError.write(Data("DashboardServer: \(message)\n".utf8))
    exit(code)
}

let arguments: DashboardServerArguments
switch DashboardServerArguments.parse(CommandLine.arguments.dropFirst(), offersTestClock: false) {
case .run(let parsed): arguments = parsed
case .help(let usage):
    print(usage)
    exit(0)
case .failure(let message): exit(failing: message)
}
let port = arguments.port
let scale = arguments.latencyScale

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
