/// The observer behind ``liveFrames(_:cache:options:isolation:)`` and
/// ``resolveFrames(_:cache:options:isolation:)`` (a render in the `.frames` mode): the shell is
/// the first frame; each boundary event replaces that boundary's subtree in the previous frame
/// (the rest is shared, not rebuilt), and each query result that changed something makes one
/// frame.
final class FrameRecorder: RenderObserver {
    /// Called with each frame as soon as the pass that made it ends.
    private let emit: (RenderFrame) -> Void
    private var last: RenderFrame?
    private var current: Node?
    private var cause = RenderFrame.Cause.shell
    private var changed = false
    /// Where each boundary stood when last seen: child indices from the root, as links that
    /// share their prefix (so indexing a deep tree costs one link per node, not a path each).
    /// Checked before use, and found again by a walk when the tree moved.
    private var locations: [BoundaryID: ChildPath] = [:]

    /// A path of child indices, last step first.
    private final class ChildPath: ParentLinked {
        let index: Int
        var parent: ChildPath?

        init(_ index: Int, parent: ChildPath?) {
            self.index = index
            self.parent = parent
        }

        /// Releases the chain above without recursion, as far as only this link holds it.
        deinit {
            releaseParents()
        }

        /// The indices from the root.
        var indices: [Int] {
            rootFirst(\.index)
        }
    }

    init(emit: @escaping (RenderFrame) -> Void) {
        self.emit = emit
    }

    func observe(_ event: RenderEvent) {
        switch event.kind {
        case .shell(let tree, _, _):
            guard let tree else { return }
            let node = tree.node()
            current = node
            locations = [:]
            index(node, at: nil)
            append(RenderFrame(cause: .shell, node: node))
        case .queryFinished(let label), .queryFailed(let label, _):
            flush()
            cause = .query(label)
        case .timedOut(let id, _):
            flush()
            cause = .timeout(id)
        case .resolved(let id, let tree), .suspended(let id, let tree), .waiting(let id, let tree),
            .caught(let id, let tree, _):
            guard let tree else { return }
            replace(id, with: tree.node())
        case .updated(let tree):
            guard let tree else { return }
            let node = tree.node()
            current = node
            locations = [:]
            index(node, at: nil)
            changed = true
        case .progress, .finished:
            flush()
        case .queryStarted, .queryCancelled, .deadlinePassed, .revealedTogether:
            break
        }
    }

    private func flush() {
        guard changed, let current else { return }
        changed = false
        if last?.node != current {
            append(RenderFrame(cause: cause, node: current))
        }
    }

    private func append(_ frame: RenderFrame) {
        last = frame
        emit(frame)
    }

    /// Replaces the boundary `id` with `node` in the current frame; a boundary not shown in it
    /// (inside content still pending) is left alone.
    private func replace(_ id: BoundaryID, with node: Node) {
        guard var root = current else { return }
        var link = locations[id]
        if link == nil || self.node(at: link!.indices, in: root)?.boundaryID != id {
            locations = [:]
            index(root, at: nil)
            link = locations[id]
        }
        guard let link else { return }
        let path = link.indices
        // Copy the nodes along the path, set the new child at the bottom, and rebuild upwards:
        // siblings are shared with the previous frame.
        var chain = [root]
        for position in path.dropLast() {
            chain.append(chain[chain.count - 1].children[position])
        }
        var child = node
        for level in stride(from: path.count - 1, through: 0, by: -1) {
            var parent = chain[level]
            parent.children[path[level]] = child
            child = parent
        }
        root = child
        current = root
        index(node, at: link)
        changed = true
    }

    private func node(at path: [Int], in root: Node) -> Node? {
        var node = root
        for position in path {
            guard position < node.children.count else { return nil }
            node = node.children[position]
        }
        return node
    }

    /// Records where every boundary in `node`, which stands at `path` (nil: the root), stands.
    /// Iterative.
    private func index(_ node: Node, at path: ChildPath?) {
        var stack = [(node, path)]
        while let (node, path) = stack.popLast() {
            if let id = node.boundaryID, let path { locations[id] = path }
            for (position, child) in node.children.enumerated() where child.boundaryID != nil || !child.children.isEmpty
            {
                stack.append((child, ChildPath(position, parent: path)))
            }
        }
    }
}
