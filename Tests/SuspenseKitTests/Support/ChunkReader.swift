import Testing

@testable import SuspenseKit

/// Reads the chunks of a stream one at a time.
struct ChunkReader {
    var iterator: HTMLStream.Iterator
    init(_ stream: HTMLStream) { iterator = stream.makeAsyncIterator() }
    mutating func next() async throws -> String {
        guard let chunk = try await iterator.next() else { throw TestFailure("the stream ended early") }
        return chunk
    }
    mutating func end() async throws {
        if let chunk = try await iterator.next() { throw TestFailure("expected the end, got \(chunk)") }
    }
}

/// The last chunk of a stream that used markers: removes them once the page is final.
let streamCleanup = "<script>" + StreamChunker.cleanupScript + "</script>"
