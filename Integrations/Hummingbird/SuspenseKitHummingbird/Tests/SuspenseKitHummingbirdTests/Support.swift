import Foundation
import Hummingbird
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs `router` on a real server on 127.0.0.1, on a port the system picks, for as long as
/// `body` runs; stops it after.
func withServer<R: Sendable>(
    _ router: Router<BasicRequestContext>,
    _ body: @escaping @Sendable (Int) async throws -> R
) async throws -> R {
    let (ports, portSink) = AsyncStream<Int>.makeStream()
    let app = Application(
        router: router,
        configuration: .init(address: .hostname("127.0.0.1", port: 0)),
        onServerRunning: { channel in
            portSink.yield(channel.localAddress?.port ?? 0)
            portSink.finish()
        }
    )
    return try await withThrowingTaskGroup(of: R?.self) { group in
        group.addTask {
            try await app.run()
            return nil
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else { throw ClientError("the server did not start") }
        group.addTask { try await body(port) }
        defer { group.cancelAll() }
        while let result = try await group.next() {
            if let result { return result }
        }
        throw ClientError("the server stopped")
    }
}

struct ClientError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A minimal HTTP/1.1 client on a TCP socket that hands over the bytes as they arrive, so that
/// a test sees when each part of a streamed response reaches the client.
final class RawHTTPClient: Sendable {
    private let socket: Int32
    private let received: Mutex<[UInt8]> = Mutex([])
    private let ended = Atomic<Bool>(false)

    /// Connects and sends `GET path` with `Connection: close`.
    init(port: Int, path: String) throws {
        #if canImport(Glibc)
            socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard socket >= 0 else { throw ClientError("socket() failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw ClientError("connect() to port \(port) failed") }
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
        guard send(socket, request, request.count, 0) == request.count else { throw ClientError("send() failed") }
        let descriptor = socket
        Thread.detachNewThread { [self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = recv(descriptor, &buffer, buffer.count, 0)
                if count <= 0 { break }
                received.withLock { $0 += buffer[..<count] }
            }
            ended.store(true, ordering: .sequentiallyConsistent)
        }
    }

    private let closed = Atomic<Bool>(false)

    deinit { disconnect() }

    /// Everything received so far, as text.
    var text: String { received.withLock { String(decoding: $0, as: UTF8.self) } }
    var isEnded: Bool { ended.load(ordering: .sequentiallyConsistent) }

    /// Waits until what arrived contains `needle`; fails after `seconds`.
    func waitFor(_ needle: String, seconds: Double = 30) async throws {
        try await waitUntil("the response to contain \(needle)", seconds: seconds) { self.text.contains(needle) }
    }

    /// Waits until the server closed the connection; fails after `seconds`.
    func waitForEnd(seconds: Double = 30) async throws {
        try await waitUntil("the response to end", seconds: seconds) { self.isEnded }
    }

    /// Closes the connection from this side, as a browser tab that is closed does: unread data
    /// makes the system reset the connection, so the server's next write fails.
    func disconnect() {
        guard !closed.exchange(true, ordering: .sequentiallyConsistent) else { return }
        shutdown(socket, Int32(SHUT_RDWR))
        close(socket)
    }

    /// The body of a chunked response: the chunks' data joined, sizes removed.
    var chunkedBody: String {
        let bytes = received.withLock { $0 }
        let crlf: [UInt8] = [13, 10]
        func find(_ pattern: [UInt8], from start: Int) -> Int? {
            guard bytes.count >= pattern.count else { return nil }
            return (start...(bytes.count - pattern.count)).first { Array(bytes[$0..<$0 + pattern.count]) == pattern }
        }
        guard let headersEnd = find(crlf + crlf, from: 0) else { return "" }
        var position = headersEnd + 4
        var body: [UInt8] = []
        while let lineEnd = find(crlf, from: position),
            let size = Int(String(decoding: bytes[position..<lineEnd], as: UTF8.self), radix: 16), size > 0,
            lineEnd + 2 + size <= bytes.count
        {
            body += bytes[(lineEnd + 2)..<(lineEnd + 2 + size)]
            position = lineEnd + 2 + size + 2
        }
        return String(decoding: body, as: UTF8.self)
    }
}

/// Polls `condition` until it holds; fails instead of hanging after `seconds`.
func waitUntil(_ what: String, seconds: Double = 30, _ condition: @Sendable () -> Bool) async throws {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while !condition() {
        if ContinuousClock.now > deadline { throw ClientError("deadline exceeded waiting for \(what)") }
        try await Task.sleep(for: .milliseconds(2))
    }
}
