/// The names of the components and boundaries from the root to a place in the tree, as two
/// numbers: the link in its render's ``PathTable`` that holds every name but the last, and the
/// last name (an index in the render's ``NameTable``). Places share their common prefix, so that
/// going one level deeper costs O(1): copying an array at every level made deep trees quadratic.
///
/// The last name is held inline, and goes into a link only when a place below it needs one
/// (`PathTable.seal`, done once for a parent however many children it has): a component without
/// components below it, the most common kind, adds no link.
///
/// Why numbers, not a chain of shared objects: every place in the tree copies its path (a slot
/// keeps its context, a component made again takes one), and a path holding a reference was a
/// retain and a release per copy, the most common ones of a render. A path is only read by the
/// render that made it; errors that leave it carry the names themselves (``LocatedError``).
struct ComponentPath: Equatable {
    /// The link holding every name but the last; -1 when there is none.
    fileprivate(set) var sealed: Int32 = -1
    /// The last name, when it is not sealed into a link; -1 when there is none.
    fileprivate(set) var last: Int32 = -1

    init() {}

    /// Whether `other` holds its names in the same link, with none inline: copies that add no
    /// link of their own when a child is made below them.
    func sharesLink(with other: ComponentPath) -> Bool {
        last < 0 && other.last < 0 && sealed == other.sealed
    }
}

/// The links of a render's component paths: each holds a name and the link above it. Links are
/// added as places below a component need its name sealed, and kept until the render ends (like
/// the node records).
struct PathTable {
    private struct Link {
        let name: Int32
        let parent: Int32
    }

    private var links: [Link] = []

    /// Adds `name` at the end of `path`.
    mutating func append(_ name: Int32, to path: inout ComponentPath) {
        seal(&path)
        path.last = name
    }

    /// Takes off the last name `append` added, whether a child sealed it into a link since or
    /// not.
    func removeLast(from path: inout ComponentPath) {
        if path.last >= 0 {
            path.last = -1
        } else if path.sealed >= 0 {
            path.sealed = links[Int(path.sealed)].parent
        }
    }

    /// Moves the last name into a link, so that copies of this path made for the places below
    /// share it instead of each adding one.
    mutating func seal(_ path: inout ComponentPath) {
        guard path.last >= 0 else { return }
        precondition(links.count < Int(Int32.max), "a render cannot hold more than 2^31 path links")
        links.append(Link(name: path.last, parent: path.sealed))
        path.sealed = Int32(links.count - 1)
        path.last = -1
    }

    /// The last name, without walking the path: O(1), where `names` is O(depth).
    func lastName(of path: ComponentPath) -> Int32? {
        if path.last >= 0 { return path.last }
        return path.sealed >= 0 ? links[Int(path.sealed)].name : nil
    }

    /// The names, root first.
    func names(of path: ComponentPath) -> [Int32] {
        var names: [Int32] = []
        var link = path.sealed
        while link >= 0 {
            names.append(links[Int(link)].name)
            link = links[Int(link)].parent
        }
        names.reverse()
        if path.last >= 0 { names.append(path.last) }
        return names
    }
}

/// An error on its way to a boundary, with the path of the component that threw it.
struct LocatedError: Error {
    let path: [String]
    let underlying: any Error
}
