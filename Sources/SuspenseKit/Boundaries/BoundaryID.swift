/// Where a ``Suspense`` or ``ErrorBoundary`` stands in the tree: the positions of the children
/// that lead to it from the root, such as `0.2.1`.
///
/// Derived from the builder's static structure, never from a counter or from what happened to
/// render: the same on every render of the same tree, and unchanged when a boundary is added
/// elsewhere or an `if` before it turns true, so golden files, frames and streamed markup do not
/// renumber. A position counts the children written in a builder block, each child taking its
/// place whether it shows anything or not: an `if` takes the positions of its content even when
/// false; each branch of an `if`/`else` or `switch` has positions of its own; a `for` loop or
/// ``ForEach`` takes one, its elements numbered below it by offset, or by id (`[id]`) with
/// ``ForEach/init(_:id:content:)``. A string written as a child takes none. `f` marks a
/// boundary's fallback.
///
/// The description uses only letters, digits, `.`, `_`, `-` (never two in a row), `%`, `[`
/// and `]`: an id from data has any other byte written as `%XX`, so the description stays safe
/// in an HTML comment, an attribute and a script string.
public struct BoundaryID: Hashable, Sendable, CustomStringConvertible {
    let link: PositionLink?

    init(_ link: PositionLink?) {
        self.link = link
    }

    /// The child positions from the root, outermost first, as they stand in this render; `-1`
    /// stands for a fallback. An element of a ``ForEach`` counts as its offset in the
    /// collection, also one numbered by its id (which the ``description`` shows, and which
    /// equality compares).
    public var positions: [Int] {
        link?.rootFirst { Int($0.index) } ?? []
    }

    /// The id as markers and golden files show it, such as `0.2.1` or `0.[ann].0`; `root` for the root.
    public var description: String {
        guard let link else { return "root" }
        return link.rootFirst { $0.segment }.joined(separator: ".")
    }

    /// Whether both are equal.
    public static func == (lhs: BoundaryID, rhs: BoundaryID) -> Bool {
        var left = lhs.link
        var right = rhs.link
        while let l = left, let r = right {
            if l === r { return true }
            guard l.sameLevel(as: r) else { return false }
            left = l.parent
            right = r.parent
        }
        return left == nil && right == nil
    }

    /// Hashes the value.
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
