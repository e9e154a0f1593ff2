// Positions: where each place stands among its siblings, for boundary ids (``BoundaryID``).
// A path of links shared by every place below them, and the stack of the place being evaluated.
//
// A position is static: each child written in a builder block takes the positions its type
// says (`Component._positionCount`), whether it shows anything or not, so an `if` that turns
// true, a `switch` that takes another case or an optional never moves its siblings. A `for`
// loop and a `ForEach` take one position, their elements numbered below it (by their id for a
// `ForEach(_:id:)`, see `ElementKeys`).

/// One level of a position path. Immutable once made, shared by every place below it, so that a
/// path costs one object per level however many places share it.
@usableFromInline
final class PositionLink: ParentLinked, @unchecked Sendable {
    /// The index that marks a fallback region.
    static let fallbackIndex: Int32 = -1

    /// The index among its siblings; for an element of a `ForEach(_:id:)`, its offset in the
    /// collection in this render (for document order; `key` names it).
    let index: Int32
    let depth: Int32
    /// For an element of a `ForEach(_:id:)`: its id, encoded as it is written in a
    /// ``BoundaryID``'s description (`[id]`, see `ElementKeys.encode`); nil for any other level.
    let key: String?
    /// A hash of the whole path, so that ids hash in O(1).
    let hash: UInt64
    var parent: PositionLink?

    init(index: Int32, parent: PositionLink?, key: String? = nil) {
        self.index = index
        self.key = key
        self.parent = parent
        self.depth = (parent?.depth ?? 0) + 1
        // FNV-1a over the path, one step per level: the index, or a keyed level's id.
        var hash = parent?.hash ?? 0xcbf2_9ce4_8422_2325
        if let key {
            for byte in key.utf8 {
                hash ^= UInt64(byte)
                hash = hash &* 0x100_0000_01b3
            }
        } else {
            hash ^= UInt64(UInt32(bitPattern: index))
            hash = hash &* 0x100_0000_01b3
        }
        self.hash = hash
    }

    /// Whether this level and `other` name the same place among their siblings: the same id
    /// for elements with one, else the same index.
    func sameLevel(as other: PositionLink) -> Bool {
        guard hash == other.hash, depth == other.depth, key == other.key else { return false }
        return key != nil || index == other.index
    }

    /// This level as written in a ``BoundaryID``'s description.
    var segment: String {
        if let key { return key }
        return index == Self.fallbackIndex ? "f" : String(index)
    }

    /// Releases the chain above without recursion, as far as only this link holds it.
    deinit {
        releaseParents()
    }

    /// Whether `self` comes before `other` in document order.
    static func precedes(_ lhs: PositionLink?, _ rhs: PositionLink?) -> Bool {
        let left = BoundaryID(lhs).positions
        let right = BoundaryID(rhs).positions
        return left.lexicographicallyPrecedes(right)
    }
}

/// The positions of the place being evaluated, kept as a stack that costs no allocation per
/// level: a level is one `Int32` (its index among its siblings) in a buffer; a level's link is
/// made only when something needs it (a boundary, a suspended child), and kept beside it.
///
/// A class with a hand-managed buffer, because pushing and popping a level happens for every
/// child of every render: an array of structs cost a uniqueness check and a bounds check each.
@usableFromInline
final class PositionStack {
    /// One entry per level: the level's index (>= 0), or for a region `-(r + 1)`, with `r` its
    /// index in `regions`.
    @usableFromInline @exclusivity(unchecked) var levels: UnsafeMutablePointer<Int32>
    @usableFromInline @exclusivity(unchecked) var count = 0
    @usableFromInline @exclusivity(unchecked) var capacity = 64
    /// The index of the next child in the current level.
    @usableFromInline @exclusivity(unchecked) var cursor: Int32 = 0

    /// A region: its link, whether a boundary took it, and the cursor to restore after it.
    struct Region {
        var position: SlotPosition
        var claimed: Bool
        var savedCursor: Int32
    }

    @exclusivity(unchecked) var regions: [Region] = []
    /// Links made for the lowest levels, and whether a boundary took each; at most `count` long.
    @usableFromInline @exclusivity(unchecked) var made: [(link: PositionLink?, claimed: Bool)] = []

    init() {
        levels = .allocate(capacity: capacity)
    }

    deinit {
        levels.deallocate()
    }

    /// The `ForEach(_:id:)` loops being evaluated, innermost last: the depth of the level their
    /// elements take, and their ids (read only when a link is made for an element).
    @exclusivity(unchecked) var keyed: [(depth: Int, keys: any ElementKeySource)] = []

    /// Enters the next child of the current level; returns how many levels deep that is.
    @inlinable @discardableResult
    func push() -> Int {
        if count == capacity { grow() }
        levels[count] = cursor
        count &+= 1
        cursor = 0
        return count
    }

    @inlinable
    func pop() {
        count &-= 1
        let level = levels[count]
        if level >= 0 {
            cursor = level &+ 1
        } else {
            leaveRegion()
        }
        if made.count > count { forgetMade() }
    }

    /// Passes over `count` positions of the current level: a child of the builder's static
    /// structure that shows nothing (an `if` that is false, the branch of an `if`/`else` or
    /// `switch` not taken) keeps the positions it would take.
    @inlinable
    func skip(_ count: Int) {
        cursor &+= Int32(truncatingIfNeeded: count)
    }

    /// Numbers the elements of a `ForEach(_:id:)` evaluated from now on (the next level) by the
    /// ids `keys` reads. Left with `leaveKeyed()`.
    @usableFromInline
    func enterKeyed(_ keys: any ElementKeySource) {
        keyed.append((count, keys))
    }

    @usableFromInline
    func leaveKeyed() {
        keyed.removeLast()
    }

    @usableFromInline
    func leaveRegion() {
        cursor = regions.removeLast().savedCursor
    }

    @usableFromInline
    func grow() {
        let larger = UnsafeMutablePointer<Int32>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: levels, count: count)
        levels.deallocate()
        levels = larger
        capacity *= 2
    }

    @usableFromInline
    func forgetMade() {
        // A level or two at a time: removing the last ones is cheaper than a subrange.
        while made.count > count { made.removeLast() }
    }

    /// Enters a region whose children are numbered below `link`: a boundary's content or
    /// fallback, or a suspended child evaluated again in its place. Left with `pop()`.
    /// `claimed` says whether a boundary may still take `link` itself (a suspended child
    /// evaluated again takes the level it had).
    func enterRegion(_ position: SlotPosition, claimed: Bool) {
        regions.append(Region(position: position, claimed: claimed, savedCursor: cursor))
        if count == capacity { grow() }
        levels[count] = -Int32(regions.count)
        count += 1
        cursor = 0
    }

    private func region(at depth: Int) -> Int? {
        let level = levels[depth]
        return level < 0 ? Int(-level) - 1 : nil
    }

    /// Whether a boundary took the current level already.
    var isClaimed: Bool {
        guard count > 0 else { return true }
        if let region = region(at: count - 1) { return regions[region].claimed }
        return made.count == count ? made[count - 1].claimed : false
    }

    /// The link of the current place, made now if it was not yet.
    func link() -> PositionLink? {
        guard count > 0 else { return nil }
        // The deepest level with a link already: a region, or a level made before.
        var first = count - 1
        var link: PositionLink?
        while first >= 0 {
            if let region = region(at: first) {
                link = regions[region].position.makeLink()
                break
            }
            if first < made.count, let known = made[first].link {
                link = known
                break
            }
            first -= 1
        }
        var depth = first + 1
        while depth < count {
            link = makeLink(at: depth, parent: link)
            if made.count > depth {
                made[depth].link = link
            } else {
                while made.count < depth { made.append((nil, false)) }
                made.append((link, false))
            }
            depth += 1
        }
        return link
    }

    /// The position of the current place for a slot, its links made only if something asks for
    /// them later (see `SlotPosition`): at most two unkeyed levels below the deepest link made.
    func position() -> SlotPosition {
        guard count > 0 else { return .made(nil) }
        var depth = count - 1
        var base: PositionLink?
        var lower: Int32 = 0
        var upper: Int32 = 0
        var pending = 0
        while depth >= 0 {
            if let region = region(at: depth) {
                // The slot's own level is a region (a child evaluated again suspended again).
                if pending == 0 { return regions[region].position }
                base = regions[region].position.makeLink()
                break
            }
            if depth < made.count, let known = made[depth].link {
                base = known
                break
            }
            // A level of a `ForEach(_:id:)` takes its element's id: made now, as `link()` makes it.
            if pending == 2 || keyed.contains(where: { $0.depth == depth }) { return .made(link()) }
            if pending == 0 { lower = levels[depth] } else { upper = levels[depth] }
            pending += 1
            depth -= 1
        }
        return pending == 1
            ? SlotPosition(base: base, first: lower, second: 0, pending: 1)
            : SlotPosition(base: base, first: upper, second: lower, pending: 2)
    }

    /// The link of the level at `depth`: keyed by its element's id when it is the element of a
    /// `ForEach(_:id:)` and that id was not taken by another element of the same loop.
    private func makeLink(at depth: Int, parent: PositionLink?) -> PositionLink {
        let index = levels[depth]
        if !keyed.isEmpty, let entry = keyed.last(where: { $0.depth <= depth }), entry.depth == depth,
            let key = entry.keys.key(forOffset: index)
        {
            return PositionLink(index: index, parent: parent, key: key)
        }
        return PositionLink(index: index, parent: parent)
    }

    /// The link of a boundary made here: the current level's, unless a boundary took it already
    /// (a boundary's own region is taken), in which case the boundary takes the next child
    /// position.
    func claimBoundaryLink() -> PositionLink? {
        let current = link()
        if count > 0 {
            if let region = region(at: count - 1) {
                // A child evaluated again or later in its place takes the level it had.
                if !regions[region].claimed {
                    regions[region].claimed = true
                    return current
                }
            } else if !made[count - 1].claimed {
                made[count - 1].claimed = true
                return current
            }
        }
        let link = PositionLink(index: cursor, parent: current)
        cursor += 1
        return link
    }
}

/// Where a suspended or deferred child stands, for its content to be numbered below it when it
/// is evaluated again: a link, or the link of a level above it and the indices of at most two
/// unkeyed levels below that one, whose links are made only if something asks for them (a
/// boundary in the child's content): every suspended child made two links it nearly never used.
struct SlotPosition {
    private var base: PositionLink?
    /// The upper level below `base` without a link, and the lower one when there are two.
    private var first: Int32 = 0
    private var second: Int32 = 0
    /// How many levels below `base` have no link yet: 0, 1 or 2.
    private var pending: Int8 = 0

    /// A position whose link is made (nil: the root's).
    static func made(_ link: PositionLink?) -> SlotPosition {
        SlotPosition(base: link, first: 0, second: 0, pending: 0)
    }

    init(base: PositionLink?, first: Int32, second: Int32, pending: Int8) {
        self.base = base
        self.first = first
        self.second = second
        self.pending = pending
    }

    /// The link, made now if it was not (not kept: for a place read once).
    var link: PositionLink? {
        var link = base
        if pending >= 1 { link = PositionLink(index: first, parent: link) }
        if pending >= 2 { link = PositionLink(index: second, parent: link) }
        return link
    }

    /// The link, made now if it was not, and kept.
    mutating func makeLink() -> PositionLink? {
        guard pending > 0 else { return base }
        let made = link
        self = .made(made)
        return made
    }
}
