/// What a render must build besides its final tree, chosen by its entry point: a subtree per
/// boundary event, a whole tree per pass, and whether fallback timing shapes the states it goes
/// through. The resolver and the render loop read the mode; observers only receive what it
/// builds. Building trees costs time, so each entry point asks for what its observers use and
/// nothing more.
struct RenderMode: Hashable, Sendable {
    /// Boundary events (and the shell) carry the subtree that now stands in the boundary's place.
    var subtrees: Bool
    /// The `.progress` event after each pass that changed something (and the shell) carries a
    /// window of the tree: from where the in-order stream stopped to the first pending Suspense
    /// (`RenderTree.Window`).
    var passTrees: Bool
    /// Fallback delays and minimum durations hold resolutions back: they shape intermediate
    /// states, so a render whose caller sees the final tree alone does not wait for them.
    var fallbackTiming: Bool
    /// The render returns the final tree and the `.finished` event carries it. An out-of-order
    /// stream has sent every region by then and reads neither, so it skips building one.
    var finalTree = true

    /// `render` and `resolve`: the final tree only, as soon as it is complete.
    static let wholeTree = RenderMode(subtrees: false, passTrees: false, fallbackTiming: false)
    /// `liveFrames` and `resolveFrames`: each boundary's subtree, which a frame replaces in the
    /// frame before.
    static let frames = RenderMode(subtrees: true, passTrees: false, fallbackTiming: true)

    /// `renderStream`: out of order, each boundary's subtree, sent as a swap; in order, a window of
    /// the tree after each pass, sent as far as it is settled.
    static func stream(_ order: StreamOptions.Order) -> RenderMode {
        switch order {
        case .outOfOrder: return RenderMode(subtrees: true, passTrees: false, fallbackTiming: true, finalTree: false)
        case .inOrder: return RenderMode(subtrees: false, passTrees: true, fallbackTiming: true)
        }
    }
}

/// A test hook: the modes of the renders started in a task that binds it (and in the tasks it
/// starts, such as those of `liveFrames` and `renderStream`), so that tests check which mode each
/// entry point chooses. One task-local read per render.
final class RenderModeLog: Sendable {
    private let modes = Locked<[RenderMode]>([])

    @TaskLocal static var current: RenderModeLog?

    func append(_ mode: RenderMode) {
        modes.withLock { $0.append(mode) }
    }

    var all: [RenderMode] {
        modes.withLock { $0 }
    }
}
