import Testing

@testable import SuspenseKit

/// `levels` nested components, each in an element: the deep shape of a page built by recursion.
private struct Chain: Component {
    let levels: Int
    let made: Counter?

    init(levels: Int, made: Counter? = nil) {
        self.levels = levels
        self.made = made
        made?.increment()
    }

    var body: some Component {
        Element("div") {
            if levels > 1 {
                Chain(levels: levels - 1, made: made)
            } else {
                Text("bottom")
            }
        }
    }
}

/// `depth` nested `Group`s, each with siblings: no component, no element, only builder levels.
private struct NestedGroups: Component {
    typealias Body = Never
    let depth: Int

    static func _resolve(_ component: Self, in resolver: _Resolver) throws {
        let depth = component.depth
        let group = Group {
            Text("<")
            if depth > 1 { NestedGroups(depth: depth - 1) }
            Text(">")
        }
        try type(of: group)._resolve(group, in: resolver)
    }
}

private actor Renderer {
    func render(levels: Int) async throws -> String {
        try await SuspenseKit.render(Chain(levels: levels), as: .plain)
    }
}

@Suite struct DepthTests {
    @MainActor @Test func aRenderOnTheMainActorHandlesAThousandLevels() async throws {
        #expect(try await render(Chain(levels: 1_000), as: .plain) == "bottom")
    }

    @Test func aRenderIsolatedToAnActorHandlesAThousandLevels() async throws {
        #expect(try await Renderer().render(levels: 1_000) == "bottom")
    }

}

/// The deepest shapes: thousands to tens of thousands of levels, that is tens of thousands of
/// frames on one thread. They run in the plain and AddressSanitizer runs, not under the thread
/// sanitizer: its runtime records every call on a per-thread shadow stack of 65,536 entries and,
/// in its release build, writes past the end of it without a check, corrupting whatever memory
/// follows (a 5,000-level chain reaches 68,226 frames on one thread in a TSan debug build: seen as
/// invalid UTF-8 in unrelated strings and hangs in the sanitizer's FreeRange). Its runtime also
/// stalls in its trace bookkeeping on such stacks, as with the extreme-shape suite.
@Suite struct DeepShapeTests {
    @Test func aDeepTreeIsEvaluatedOnceWithoutASecondPass() async throws {
        let made = Counter()
        // Far past the first runtime's 192 KiB first-pass budget, which threw the pass away.
        #expect(try await render(Chain(levels: 5_000, made: made), as: .plain) == "bottom")
        #expect(made.value == 5_000)
    }

    @MainActor @Test func pastItsThreadsStackAnIsolatedRenderFailsClearly() async throws {
        do {
            _ = try await render(Chain(levels: 90_000), as: .plain)
            Issue.record("a 90,000-level render fit on the main thread's stack")
        } catch let error as RenderError {
            guard case .tooDeepForCallerStack = error.underlying as? SuspenseError else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(error.description.contains("more) …"))
        }
    }

    @Test func deeplyNestedGroupsRenderBelowMaxDepth() async throws {
        let output = try await render(NestedGroups(depth: 95_000), as: .plain)
        #expect(output.utf8.count == 190_000)
        #expect(output.hasPrefix("<<<") && output.hasSuffix(">>>"))
    }
}
