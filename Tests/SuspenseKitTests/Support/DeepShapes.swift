import Testing

@testable import SuspenseKit

/// `levels` nested components, each in an element: the deep shape of a page built by recursion.
struct Chain: Component {
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
struct NestedGroups: Component {
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

/// Shows a value that never loads: a timeout always fires before it.
struct NeverLoads: Component {
    init(hang: Hang) throws {
        _ = try resolveValue(key: "never") { try await hang.value("never") }
    }
    var body: some Component { Text("loaded") }
}

/// A Suspense whose timeout fires; its ErrorBoundary's fallback is a chain `levels` deep.
struct TimesOut: Component {
    let levels: Int
    let hang: Hang
    var body: some Component {
        ErrorBoundary {
            Suspense(timeout: .milliseconds(5)) {
                try NeverLoads(hang: hang)
            } fallback: {
                Text("Loading…")
            }
        } fallback: { _ in
            Chain(levels: levels)
        }
    }
}

/// Renders on an actor of its own: isolated, off the main actor.
actor Renderer {
    func render(levels: Int) async throws -> String {
        try await SuspenseKit.render(Chain(levels: levels), as: .plain)
    }

    func renderTimingOut(levels: Int) async throws -> String {
        try await SuspenseKit.render(TimesOut(levels: levels, hang: Hang()), as: .plain)
    }
}

/// Renders `levels` deep with no actor: on whatever thread the executor gives the task.
func renderNonisolated(_ component: some Component, maxDepth: Int = 100_000) async throws -> String {
    try await render(component, as: .plain, options: RenderOptions(maxDepth: maxDepth))
}
