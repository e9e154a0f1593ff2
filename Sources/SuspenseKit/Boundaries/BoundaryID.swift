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
        var positions: [Int] = []
        var link = self.link
        while let current = link {
            positions.append(Int(current.index))
            link = current.parent
        }
        return positions.reversed()
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

/// One level of a position path. Immutable once made, shared by every place below it, so that a
/// path costs one object per level however many places share it.
@usableFromInline
final class PositionLink: @unchecked Sendable {
    /// The index that marks a fallback region.
    static let fallbackIndex: Int32 = -1

    let index: Int32
    let depth: Int32
    /// A hash of the whole path, so that ids hash in O(1).
    let hash: UInt64
    private(set) var parent: PositionLink?

    init(index: Int32, parent: PositionLink?) {
        self.index = index
        self.parent = parent
        self.depth = (parent?.depth ?? 0) + 1
        // FNV-1a over the path, one step per level.
        var hash = parent?.hash ?? 0xcbf2_9ce4_8422_2325
        hash ^= UInt64(UInt32(bitPattern: index))
        hash = hash &* 0x100_0000_01b3
        self.hash = hash
    }

    /// Releases the chain above without recursion, as far as only this link holds it.
    deinit {
        var next = parent
        parent = nil
        while isKnownUniquelyReferenced(&next) {
            let following = next?.parent
            next?.parent = nil
            next = following
        }
    }

    /// Whether `self` comes before `other` in document order.
    static func precedes(_ lhs: PositionLink?, _ rhs: PositionLink?) -> Bool {
        let left = BoundaryID(lhs).positions
        let right = BoundaryID(rhs).positions
        return left.lexicographicallyPrecedes(right)
    }
}

/// The positions of the place being evaluated, kept as a stack that costs no allocation per
/// level: a level's link is made only when something needs it (a boundary, a suspended child).
@usableFromInline
struct PositionStack {
    @usableFromInline
    struct Entry {
        @usableFromInline var index: Int32
        @usableFromInline var link: PositionLink?
        /// Whether the link was made for a region, or taken by a boundary already.
        @usableFromInline var claimed: Bool
        /// The cursor to restore when this entry is popped.
        @usableFromInline var savedCursor: Int32
        @usableFromInline var isRegion: Bool

        @inlinable
        init(index: Int32, link: PositionLink?, claimed: Bool, savedCursor: Int32, isRegion: Bool) {
            self.index = index
            self.link = link
            self.claimed = claimed
            self.savedCursor = savedCursor
            self.isRegion = isRegion
        }
    }

    @usableFromInline var entries: [Entry] = []
    /// The index of the next child in the current level.
    @usableFromInline var cursor: Int32 = 0

    /// Enters the next child of the current level; returns how many levels deep that is.
    @inlinable @discardableResult
    mutating func push() -> Int {
        entries.append(Entry(index: cursor, link: nil, claimed: false, savedCursor: cursor &+ 1, isRegion: false))
        cursor = 0
        return entries.count
    }

    @inlinable
    mutating func pop() {
        cursor = entries.removeLast().savedCursor
    }

    /// Enters a region whose children are numbered below `link`: a boundary's content or
    /// fallback, or a suspended child evaluated again in its place. Left with `pop()`.
    /// `claimed` says whether a boundary may still take `link` itself (a suspended child
    /// evaluated again takes the level it had).
    mutating func enterRegion(_ link: PositionLink?, claimed: Bool) {
        entries.append(Entry(index: -1, link: link, claimed: claimed, savedCursor: cursor, isRegion: true))
        cursor = 0
    }

    /// Whether a boundary took the current level already.
    var isClaimed: Bool {
        entries.last?.claimed ?? true
    }

    /// The link of the current place, made now if it was not yet.
    mutating func link() -> PositionLink? {
        guard var top = entries.indices.last else { return nil }
        var first = top
        while first >= 0, entries[first].link == nil, !entries[first].isRegion {
            first -= 1
        }
        var link = first >= 0 ? entries[first].link : nil
        var index = first + 1
        while index <= top {
            link = PositionLink(index: entries[index].index, parent: link)
            entries[index].link = link
            index += 1
        }
        top = entries.count - 1
        return entries[top].link
    }

    /// The link of a boundary made here: the current level's, unless a boundary took it already
    /// (or it is a region's), in which case the boundary takes the next child position.
    mutating func claimBoundaryLink() -> PositionLink? {
        let current = link()
        if let top = entries.indices.last, !entries[top].claimed {
            entries[top].claimed = true
            return current
        }
        let link = PositionLink(index: cursor, parent: current)
        cursor += 1
        return link
    }
}
