import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A minimal HTTP/1.1 client on a TCP socket that keeps the bytes as they arrive, so that a test
/// sees which part of a streamed response has reached the client at any moment.
///
/// It sends one `GET` (with `Connection: close` unless asked to keep the connection open, when
/// `send(path:)` asks for more on the same connection) and reads on a thread of its own until
/// the server closes the connection, the test disconnects, or nothing arrives for a minute.
public final class RawHTTPClient: Sendable {
    private struct State {
        var bytes: [UInt8] = []
        var ended = false
        /// Whether the socket is still open; only the reading thread closes it.
        var open = true
    }

    private let socket: Int32
    private let state = Locked(State())

    /// Connects to 127.0.0.1:`port` and sends `GET path`; `keepAlive` leaves out
    /// `Connection: close`, as browsers do.
    public init(port: Int, path: String, keepAlive: Bool = false) throws {
        #if canImport(Glibc)
            socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard socket >= 0 else { throw TestFailure("socket() failed") }
        // A reading thread never waits forever, even for a server that never answers.
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        let connection = keepAlive ? "" : "Connection: close\r\n"
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(connection)\r\n".utf8)
        guard connected == 0, sendAll(socket, request) else {
            close(socket)
            throw TestFailure("could not send a request to 127.0.0.1:\(port)")
        }
        let descriptor = socket
        Thread.detachNewThread { [state] in
            var buffer = [UInt8](repeating: 0, count: 16_384)
            while true {
                let count = recv(descriptor, &buffer, buffer.count, 0)
                if count <= 0 { break }
                state.withLock { $0.bytes += buffer[..<count] }
            }
            state.withLock {
                $0.ended = true
                $0.open = false
                close(descriptor)
            }
        }
    }

    deinit { disconnect() }

    /// Closes the connection from this side, as a browser does when its tab is closed.
    public func disconnect() {
        state.withLock {
            if $0.open { shutdown(socket, Int32(SHUT_RDWR)) }
        }
    }

    /// Everything received so far, head included, as text.
    public var text: String { state.withLock { String(decoding: $0.bytes, as: UTF8.self) } }

    /// Whether the connection has ended.
    public var isEnded: Bool { state.withLock { $0.ended } }

    /// The status line and headers, without the blank line after them; empty until they arrived.
    public var head: String {
        let text = self.text
        guard let end = text.range(of: "\r\n\r\n") else { return "" }
        return String(text[..<end.lowerBound])
    }

    /// The status code, or nil before the head arrived.
    public var status: Int? {
        head.split(separator: " ", maxSplits: 2).dropFirst().first.flatMap { Int($0) }
    }

    /// The value of header `name` (any case), or nil.
    public func header(_ name: String) -> String? {
        Self.field(name, in: head.components(separatedBy: "\r\n").dropFirst())
    }

    /// The value of the field `name` (any case) among header `lines`, or nil.
    private static func field(_ name: String, in lines: some Sequence<String>) -> String? {
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            if line[..<colon].lowercased() == name.lowercased() {
                return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }

    /// The body's chunks received whole so far (for a chunked response), and whether the last
    /// chunk, of size 0, came.
    public var chunks: (data: [String], complete: Bool) {
        let bytes = state.withLock { $0.bytes }
        guard let response = Self.chunkedResponse(in: bytes, from: 0) else { return ([], false) }
        return (response.chunks, response.end != nil)
    }

    /// The value of the trailer field `name` (any case) of a chunked response that ended, or nil.
    public func trailer(_ name: String) -> String? {
        let bytes = state.withLock { $0.bytes }
        guard let response = Self.chunkedResponse(in: bytes, from: 0), response.end != nil else { return nil }
        return Self.field(name, in: response.trailers)
    }

    /// Sends another `GET path` on this connection, kept alive, as a browser does for its next
    /// page.
    public func send(path: String) throws {
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        guard sendAll(socket, request) else {
            throw TestFailure("could not send another request")
        }
    }

    /// The chunked responses received so far on this connection, in order: each one's status,
    /// its body (the chunks joined) and whether its last chunk came.
    public var responses: [(status: Int?, body: String, complete: Bool)] {
        let bytes = state.withLock { $0.bytes }
        var responses: [(status: Int?, body: String, complete: Bool)] = []
        var position = 0
        while let response = Self.chunkedResponse(in: bytes, from: position) {
            let status = response.head.split(separator: " ", maxSplits: 2).dropFirst().first.flatMap { Int($0) }
            responses.append((status, response.chunks.joined(), response.end != nil))
            guard let end = response.end else { break }
            position = end
        }
        return responses
    }

    /// The chunked response that starts at `start`: its head, its chunks received whole, where
    /// it ends once its last chunk and trailers came, and those trailers' lines; nil before its
    /// head is whole.
    private static func chunkedResponse(
        in bytes: [UInt8], from start: Int
    ) -> (head: String, chunks: [String], end: Int?, trailers: [String])? {
        let crlf: [UInt8] = [13, 10]
        func find(_ pattern: [UInt8], from start: Int) -> Int? {
            guard start <= bytes.count - pattern.count else { return nil }
            return (start...(bytes.count - pattern.count)).first {
                bytes[$0..<$0 + pattern.count].elementsEqual(pattern)
            }
        }
        guard let headEnd = find(crlf + crlf, from: start) else { return nil }
        let head = String(decoding: bytes[start..<headEnd], as: UTF8.self)
        var position = headEnd + 4
        var chunks: [String] = []
        while let lineEnd = find(crlf, from: position),
            let size = Int(String(decoding: bytes[position..<lineEnd], as: UTF8.self), radix: 16)
        {
            // The last chunk: its size line, the trailer fields, then the blank line that ends them.
            if size == 0 {
                var trailers: [String] = []
                var line = lineEnd + 2
                while let end = find(crlf, from: line) {
                    if end == line { return (head, chunks, end + 2, trailers) }
                    trailers.append(String(decoding: bytes[line..<end], as: UTF8.self))
                    line = end + 2
                }
                return (head, chunks, nil, [])
            }
            guard lineEnd + 2 + size + 2 <= bytes.count else { break }
            chunks.append(String(decoding: bytes[(lineEnd + 2)..<(lineEnd + 2 + size)], as: UTF8.self))
            position = lineEnd + 2 + size + 2
        }
        return (head, chunks, nil, [])
    }

    /// The body so far: the chunks joined for a chunked response, else what follows the head.
    public var body: String {
        if header("Transfer-Encoding")?.lowercased() == "chunked" { return chunks.data.joined() }
        let text = self.text
        guard let end = text.range(of: "\r\n\r\n") else { return "" }
        return String(text[end.upperBound...])
    }

    /// Waits until the body contains `needle`; fails after `seconds`.
    public func waitFor(_ needle: String, seconds: Double = 30) async throws {
        try await waitUntil("the body to contain \(needle)", seconds: seconds) { self.body.contains(needle) }
    }

    /// Waits until the server closed the connection; fails after `seconds`.
    public func waitForEnd(seconds: Double = 30) async throws {
        try await waitUntil("the response to end", seconds: seconds) { self.isEnded }
    }
}

/// Sends `bytes` on `socket`; whether all went. (Outside the client, whose `send` would hide it.)
private func sendAll(_ socket: Int32, _ bytes: [UInt8]) -> Bool {
    send(socket, bytes, bytes.count, 0) == bytes.count
}
