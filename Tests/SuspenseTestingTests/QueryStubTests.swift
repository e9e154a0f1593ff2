import Foundation
import SuspenseKit
import Testing

@testable import SuspenseTesting

@Suite struct QueryStubTests {
    let discovery = RenderOptions(deliveryOrder: .discovery)

    @Test func stubbedValueArrivesAfterTheFallbackFrame() async throws {
        let cache = QueryCache()
        cache.stub(.value(Member(name: "Ann")), for: "member/1")
        let frames = try await resolveFrames(
            Suspense {
                try MemberCard(id: 1)
            } fallback: {
                Text("Loading…")
            },
            cache: cache,
            options: discovery
        )
        #expect(frames.map(\.cause) == [.shell, .query("member/1")])
        #expect(try frames[0].node.rendered(as: .plain) == "Loading…")
        #expect(try frames[1].node.rendered(as: .plain) == "Hi, I am Ann.")
        #expect(cache.value(for: "member/1", as: Member.self)?.name == "Ann")
    }

    @Test func stubbedFailureReachesTheErrorBoundary() async throws {
        let cache = QueryCache()
        cache.stub(.failure(NotFound(key: "member/2")), for: "member/2")
        let page = ErrorBoundary {
            Suspense {
                try MemberCard(id: 2)
            } fallback: {
                Text("Loading…")
            }
        } fallback: { error in
            Text("Could not load: \(error)")
        }
        let text = try await render(page, as: .plain, cache: cache)
        #expect(text == "Could not load: member/2 was not found")
    }

    @Test func pendingStubKeepsTheFallbackAndTheRenderEnds() async throws {
        let cache = QueryCache()
        cache.stub(.pending, for: "member/3")
        let node = try await resolve(
            Suspense {
                try MemberCard(id: 3)
            } fallback: {
                Text("Loading…")
            }, cache: cache)
        #expect(node.children.first?.kind == .suspense(.pending(["member/3"])))
        #expect(try node.rendered(as: .plain) == "Loading…")
    }

    @Test func keylessPromiseIsStubbedByItsLabel() async throws {
        let cache = QueryCache()
        cache.stub(.value(Member(name: "Bo")), for: "Promise<Member>")
        let page = Suspense { (member: Member?) in
            Text(try resolveValue(member) { () async throws -> Member in throw Unstubbed(key: "keyless") }.name)
        }
        let frames = try await resolveFrames(page, cache: cache)
        #expect(try frames.map { try $0.node.rendered(as: .plain) } == ["Loading…", "Bo"])
    }

    @Test func storedValueIsFoundBeforeAnyStub() async throws {
        let cache = QueryCache()
        cache.store(Member(name: "Stored"), for: "member/4")
        cache.stub(.value(Member(name: "Stubbed")), for: "member/4")
        let frames = try await resolveFrames(
            Suspense {
                try MemberCard(id: 4)
            } fallback: {
                Text("Loading…")
            }, cache: cache)
        #expect(try frames.map { try $0.node.rendered(as: .plain) } == ["Hi, I am Stored."])
    }

    @Test func removeAllForgetsStubs() async throws {
        let cache = QueryCache()
        cache.stub(.value(Member(name: "Ann")), for: "member/5")
        cache.removeAll()
        let page = ErrorBoundary {
            try MemberCard(id: 5)
        } fallback: { error in
            Text("\(error)")
        }
        #expect(try await render(page, as: .plain, cache: cache) == "query member/5 ran for real; stub it")
    }

}
