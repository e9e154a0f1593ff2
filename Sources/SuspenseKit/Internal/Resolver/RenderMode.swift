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
    /// The tree keeps a node for each user component, which `.tree`, `resolve` and frames show.
    /// HTML and plain text write only what is inside a component, so their renders leave the
    /// node out: a record fewer to add, link and walk, and to hold, per component (a third of
    /// the records of a list whose items are components).
    var componentNodes = true

    /// `render` as `.tree`, and `resolve`: the final tree only, as soon as it is complete.
    static let wholeTree = RenderMode(subtrees: false, passTrees: false, fallbackTiming: false)
    /// `render` and `renderResponse` as HTML or plain text: the final tree, without component nodes.
    static let wholeOutput = RenderMode(
        subtrees: false, passTrees: false, fallbackTiming: false, componentNodes: false)

    /// The final tree only, for writing in `format`.
    static func whole(for format: RenderFormat) -> RenderMode {
        if case .tree = format.kind { return wholeTree }
        return wholeOutput
    }
    /// `liveFrames` and `resolveFrames`: each boundary's subtree, which a frame replaces in the
    /// frame before.
    static let frames = RenderMode(subtrees: true, passTrees: false, fallbackTiming: true)

    /// `renderStream`: out of order, each boundary's subtree, sent as a swap; in order, a window of
    /// the tree after each pass, sent as far as it is settled.
    static func stream(_ order: StreamOptions.Order) -> RenderMode {
        switch order {
        case .outOfOrder:
            return RenderMode(
                subtrees: true, passTrees: false, fallbackTiming: true, finalTree: false, componentNodes: false)
        case .inOrder:
            return RenderMode(subtrees: false, passTrees: true, fallbackTiming: true, componentNodes: false)
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
