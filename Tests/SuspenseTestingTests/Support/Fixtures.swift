import Foundation
import SuspenseKit

/// A member of a site, loaded by a query.
struct Member: Sendable {
    let name: String
}

/// The failure a stubbed query gives.
struct NotFound: Error, CustomStringConvertible {
    let key: String
    var description: String { "\(key) was not found" }
}

/// What an unstubbed fixture query throws: every test fixes the outcomes it depends on, so this
/// showing up in a snapshot means a stub is missing.
struct Unstubbed: Error, CustomStringConvertible {
    let key: String
    var description: String { "query \(key) ran for real; stub it" }
}

/// Loads a member by id, under the key `member/<id>`.
struct MemberCard: Component {
    let member: Member

    init(id: Int) throws {
        member = try resolveValue(key: "member/\(id)") { () async throws -> Member in
            throw Unstubbed(key: "member/\(id)")
        }
    }

    var body: some Component {
        Element("p", attributes: ["class": "member"]) { Text("Hi, I am \(member.name).") }
    }
}

/// Loads a list of posts under the key `posts`, with an empty state.
struct PostList: Component {
    let posts: [String]

    init() throws {
        posts = try resolveValue(key: "posts") { () async throws -> [String] in throw Unstubbed(key: "posts") }
    }

    var body: some Component {
        Element("ul") {
            ForEach(posts) { post in
                Element("li") { Text(post) }
            } empty: {
                Element("li", attributes: ["class": "empty"]) { Text("No posts yet.") }
            }
        }
    }
}

/// Creates a directory that is removed after `body`, for tests that write golden files.
func withTemporaryDirectory(_ body: (URL) async throws -> Void) async throws {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("SuspenseTestingTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try await body(directory)
}
