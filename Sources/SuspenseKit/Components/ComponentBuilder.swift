/// Builds component trees from the children written in a closure.
///
/// Why every child is an `@autoclosure`: a line such as `try UserCard(id: 1)` is *not* run when
/// the parent's body is built. The resolver runs each child on its own, so a child that
/// suspends (throws a ``Promise``) or fails never hides the siblings written after it. That is
/// what lets every query under a ``Suspense`` be discovered in one pass and run at once, instead
/// of the waterfall that plain throwing initializers would give.
///
/// ``Text`` and ``Element`` are made when the closure runs, like its statements: they run no
/// initializer of a user's component, so only the expressions written in them (`Text(try
/// resolveValue(…))`) can throw, and what one throws is kept, on its own, and handled when the
/// resolver reaches it, exactly as though making it then had thrown: a ``Promise`` suspends it
/// alone, and it is made again once its query has run. Each sibling is still made, so their
/// queries all start at once. Made at once, they cost no stored closure each.
@resultBuilder
public enum ComponentBuilder {
    /// Part of the result builder; not called directly.
    @inlinable
    public static func buildExpression<C: Component>(
        _ component: @autoclosure @escaping () throws -> C
    ) -> _Deferred<C> {
        _Deferred(make: component)
    }

    /// Text is made at once; what its expression throws is kept (see the type's notes).
    @inlinable @inline(__always)
    public static func buildExpression(_ text: @autoclosure @escaping () throws -> Text) -> _MadeText {
        do {
            return _MadeText(try text())
        } catch {
            return _MadeText(failed: _MadeFailure(error, make: text))
        }
    }

    /// An element is made at once, its content with it; what its expressions or the statements
    /// of its closure throw is kept (see the type's notes).
    @inlinable @inline(__always)
    public static func buildExpression<Content>(
        _ element: @autoclosure @escaping () throws -> Element<Content>
    ) -> _MadeElement<Content> {
        do {
            let made = try element()
            if let failure = made.content.failure {
                return _MadeElement(failed: _MadeFailure(failure, make: element))
            }
            return _MadeElement(made)
        } catch {
            return _MadeElement(failed: _MadeFailure(error, make: element))
        }
    }

    /// A string literal or value in a builder is shown as ``Text``.
    @inlinable
    public static func buildExpression(_ string: String) -> Text {
        Text(string)
    }

    /// Part of the result builder; not called directly.
    @inlinable
    public static func buildBlock() -> EmptyComponent {
        EmptyComponent()
    }

    /// Part of the result builder; not called directly.
    @inlinable
    public static func buildPartialBlock<C: Component>(first: C) -> C {
        first
    }

    /// Part of the result builder; not called directly.
    @inlinable
    public static func buildPartialBlock<Accumulated: Component, Next: Component>(
        accumulated: Accumulated,
        next: Next
    ) -> _Pair<Accumulated, Next> {
        _Pair(first: accumulated, second: next)
    }

    /// Part of the result builder; not called directly.
    @inlinable
    public static func buildOptional<C: Component>(_ component: C?) -> C? {
        component
    }

    /// Part of the result builder; not called directly.
    @inlinable
    public static func buildEither<First: Component, Second: Component>(
        first component: First
    ) -> _Either<First, Second> {
        .first(component)
    }

    /// Part of the result builder; not called directly.
    @inlinable
    public static func buildEither<First: Component, Second: Component>(
        second component: Second
    ) -> _Either<First, Second> {
        .second(component)
    }

    /// Part of the result builder; not called directly.
    @inlinable
    public static func buildArray<C: Component>(_ components: [C]) -> _Array<C> {
        _Array(elements: components)
    }

    /// Part of the result builder; not called directly.
    @inlinable
    public static func buildLimitedAvailability<C: Component>(_ component: C) -> C {
        component
    }
}

/// A child written in a builder, evaluated by the resolver. Builder plumbing; not API.
public struct _Deferred<C: Component>: Component {
    /// A primitive has no body: the resolver handles it directly.
    public typealias Body = Never
    @usableFromInline let make: () throws -> C

    @inlinable
    init(make: @escaping () throws -> C) {
        self.make = make
    }

    /// Resolves the component into the render. Not API: only the resolver calls it.
    @inlinable
    public static func _resolve(_ component: Self, in resolver: _Resolver) throws {
        try resolver.evaluate(component.make)
    }
}

/// A ``Text`` written in a builder, made when the builder ran; or, when making it threw, what
/// it threw and how to make it again. Builder plumbing; not API.
///
/// The closure that makes it again is kept only when making it failed: a closure kept for every
/// child cost an allocation each, the largest cost of a static page after its text.
public struct _MadeText: Component {
    /// A primitive has no body: the resolver handles it directly.
    public typealias Body = Never
    /// The text; empty, and never resolved, when making it threw.
    @usableFromInline let text: Text
    @usableFromInline let failed: _MadeFailure<Text>?

    @inlinable
    init(_ text: Text) {
        self.text = text
        self.failed = nil
    }

    @inlinable
    init(failed: _MadeFailure<Text>) {
        self.text = Text("")
        self.failed = failed
    }

    /// Resolves the component into the render. Not API: only the resolver calls it.
    @inlinable
    public static func _resolve(_ component: Self, in resolver: _Resolver) throws {
        try resolver.resolveMade(component.text, failed: component.failed)
    }
}

/// An ``Element`` written in a builder, made when the builder ran, its content with it; or,
/// when making it threw, an element whose content failed with what it threw and how to make it
/// again. Builder plumbing; not API.
///
/// The failure travels in the element's own content, not beside it: one field more made the
/// compiler copy and destroy each element through its generic value witnesses, slower than
/// the allocation this type saves.
public struct _MadeElement<Content: Component>: Component {
    /// A primitive has no body: the resolver handles it directly.
    public typealias Body = Never
    @usableFromInline let element: Element<Content>

    @inlinable
    init(_ element: Element<Content>) {
        self.element = element
    }

    @inlinable
    init(failed: _MadeFailure<Element<Content>>) {
        self.element = Element(placeholderFor: failed)
    }

    /// Resolves the component into the render. Not API: only the resolver calls it.
    @inlinable
    public static func _resolve(_ component: Self, in resolver: _Resolver) throws {
        if let failure = component.element.content.failure {
            try resolver.resolveMade(component.element, failed: _MadeFailure.of(failure))
        } else {
            try resolver.resolveMade(component.element, failed: nil)
        }
    }
}

/// What making a child of a builder threw, and how to make it again: kept by ``_MadeText`` and
/// ``_MadeElement`` when making one failed. An `Error` only to travel in an element's content;
/// it never leaves the render that made it. Builder plumbing; not API.
public final class _MadeFailure<C: Component>: Error, @unchecked Sendable {
    @usableFromInline let error: any Error
    @usableFromInline let make: () throws -> C

    @inlinable
    init(_ error: any Error, make: @escaping () throws -> C) {
        self.error = error
        self.make = make
    }

    /// The failure an element made by the builder keeps in its content. Any other error there
    /// (none is expected) is kept as it is, made again by nothing: it is thrown as the child's.
    @usableFromInline @inline(never)
    static func of(_ failure: any Error) -> _MadeFailure<C> {
        if let made = failure as? _MadeFailure<C> { return made }
        return _MadeFailure(failure, make: { throw failure })
    }
}

/// Two children in sequence. Builder plumbing; not API.
public struct _Pair<First: Component, Second: Component>: Component {
    /// A primitive has no body: the resolver handles it directly.
    public typealias Body = Never
    @usableFromInline let first: First
    @usableFromInline let second: Second

    @inlinable
    init(first: First, second: Second) {
        self.first = first
        self.second = second
    }

    /// Resolves the component into the render. Not API: only the resolver calls it.
    @inlinable
    public static func _resolve(_ component: Self, in resolver: _Resolver) throws {
        try First._resolve(component.first, in: resolver)
        try Second._resolve(component.second, in: resolver)
    }

    /// Both parts' positions, one after the other.
    @inlinable
    public static var _positionCount: Int { First._positionCount + Second._positionCount }
}

/// One branch of an `if`/`else` or `switch`. Builder plumbing; not API.
///
/// The branches share their positions, as React's do: each starts where the `if` or `switch`
/// stands, and the whole takes as many as its longest branch, so what follows keeps its
/// positions whichever branch is taken, and a branch's boundaries keep theirs when another
/// branch is taken before it. Only one branch shows at a time, so ids stay unique.
public enum _Either<First: Component, Second: Component>: Component {
    /// A primitive has no body: the resolver handles it directly.
    public typealias Body = Never
    case first(First)
    case second(Second)

    /// Resolves the component into the render. Not API: only the resolver calls it.
    @inlinable
    public static func _resolve(_ component: Self, in resolver: _Resolver) throws {
        switch component {
        case .first(let first):
            try First._resolve(first, in: resolver)
            resolver.positions.skip(_positionCount - First._positionCount)
        case .second(let second):
            try Second._resolve(second, in: resolver)
            resolver.positions.skip(_positionCount - Second._positionCount)
        }
    }

    /// The longest branch's positions: each branch starts where the statement stands.
    @inlinable
    public static var _positionCount: Int { max(First._positionCount, Second._positionCount) }
}

/// The children of a `for` loop. Builder plumbing; not API.
///
/// The loop takes one position, and each element one below it, as a ``ForEach`` numbers its
/// elements: how many there are never moves what follows the loop.
public struct _Array<Element: Component>: Component {
    /// A primitive has no body: the resolver handles it directly.
    public typealias Body = Never
    @usableFromInline let elements: [Element]

    @inlinable
    init(elements: [Element]) {
        self.elements = elements
    }

    /// Resolves the component into the render. Not API: only the resolver calls it.
    @inlinable
    public static func _resolve(_ component: Self, in resolver: _Resolver) throws {
        let positions = resolver.positions
        positions.push()
        defer { positions.pop() }
        resolver.spreadRows()
        for element in component.elements {
            positions.push()
            defer { positions.pop() }
            try Element._resolve(element, in: resolver)
        }
    }
}

/// An `if` without `else`, and an optional component: the positions of the wrapped component,
/// kept when there is none.
extension Optional: Component where Wrapped: Component {
    /// A primitive has no body: the resolver handles it directly.
    public typealias Body = Never

    /// Resolves the component into the render. Not API: only the resolver calls it.
    @inlinable
    public static func _resolve(_ component: Self, in resolver: _Resolver) throws {
        if let component {
            try Wrapped._resolve(component, in: resolver)
        } else {
            resolver.positions.skip(Wrapped._positionCount)
        }
    }

    /// The content's positions, taken whether it shows or not.
    @inlinable
    public static var _positionCount: Int { Wrapped._positionCount }
}
