/// What a node is: the same eight kinds in the arena the resolver builds (`NodeArena`) and in the
/// tree the renderers read (`RenderTree`). `a` and `b` of a record or entry say more, per kind.
enum NodeKind: UInt8 {
    /// Transparent. In the arena: the root, a slot, a boundary's content or fallback. In a
    /// render tree: the root, entry 0 (or a fragment a ``Node`` built by hand keeps).
    case fragment
    /// `a`: offset in `bytes`, `b`: length. For an ``ErrorMessage``, the text HTML shows; its
    /// description, for `.tree` and `.plain`, is in `descriptions` (of the arena or the tree).
    case text
    /// `a`: offset in `bytes`, `b`: length.
    case rawHTML
    /// `a`: tag in `names`, `b`: list in `attributeLists`, or -1 for none.
    case element
    /// `a`: name in `names`.
    case component
    /// `a`: in the arena, the index in the resolver's `Records.suspenses`; in a render tree, the
    /// state in `suspenseStates`.
    case suspense
    /// `a`: in the arena, the index in `Records.errorBoundaries`; in a render tree, the state in
    /// `errorBoundaryStates`.
    case errorBoundary
    /// A response declaration (``ResponseDeclaration``): `a`: its index in `declarations` (of
    /// the arena or the tree); `b`: in the arena, 0; in a tree built from the arena, the arena's
    /// node id, which tells a declaration the stream's response head counted already from one it
    /// reveals later. A leaf that no HTML or plain output writes.
    case declaration
}
