import Testing

@testable import SuspenseKit

@Suite struct PrintingTests {
    @Test func printingANodeOrAFrameShowsTheTree() async throws {
        let page = Suspense {
            try Loaded("a")
        } fallback: {
            Text("…")
        }
        let node = try await resolve(page)
        #expect("\(node)" == (try node.rendered(as: .tree)))
        #expect(String(describing: node).contains("Suspense #0 [resolved]"))
        let frames = try await resolveFrames(page)
        #expect("\(frames[0])" == "── initial ──\n" + (try frames[0].node.rendered(as: .tree)))
        #expect("\(frames[1])".hasPrefix("── after a ──\n"))
        // A tree built by hand with a name HTML cannot carry still prints: `.tree` shows it as is.
        let invalid = Node(.element(tag: "bad tag", attributes: []))
        #expect("\(invalid)" == "<bad tag>")
    }
}
