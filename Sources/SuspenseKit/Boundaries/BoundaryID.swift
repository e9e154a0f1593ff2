/// Where a ``Suspense`` or ``ErrorBoundary`` stands in the tree: the positions of the children
/// that lead to it from the root, such as `0.2.1`.
///
/// Derived from the place, never from a counter: the same on every render of the same tree, and
/// unchanged when a boundary is added elsewhere, so golden files, frames and streamed markup do
/// not renumber. A position counts the children written in a builder (and the elements of a
/// ``ForEach``) in order; `f` marks a boundary's fallback.
public struct BoundaryID: Hashable, Sendable, CustomStringConvertible {
    let link: PositionLink?

    init(_ link: PositionLink?) {
        self.link = link
    }

    /// The child positions from the root, outermost first; `-1` stands for a fallback.
    public var positions: [Int] {
        link?.rootFirst { Int($0.index) } ?? []
    }

    public var description: String {
        let positions = self.positions
        if positions.isEmpty { return "root" }
        return positions.map { $0 == PositionLink.fallbackIndex ? "f" : String($0) }.joined(separator: ".")
    }

    public static func == (lhs: BoundaryID, rhs: BoundaryID) -> Bool {
        var left = lhs.link
        var right = rhs.link
        while let l = left, let r = right {
            if l === r { return true }
            guard l.hash == r.hash, l.index == r.index, l.depth == r.depth else { return false }
            left = l.parent
            right = r.parent
        }
        return left == nil && right == nil
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(link?.hash ?? 0)
    }
}

extension BoundaryID {
    /// Whether this boundary lies inside `ancestor`'s region (content or fallback), at any
    /// depth; a boundary is not inside itself.
    func isInside(_ ancestor: BoundaryID) -> Bool {
        guard let target = ancestor.link else { return link != nil }
        var link = self.link
        while let current = link, current.depth > target.depth { link = current.parent }
        guard let found = link, found !== self.link, found.depth == target.depth else { return false }
        return BoundaryID(found) == ancestor
    }
}
