/// Builds component trees from the children written in a closure.
///
/// Why every child is an `@autoclosure`: a line such as `try UserCard(id: 1)` is *not* run when
/// the parent's body is built. The resolver runs each child on its own, so a child that
/// suspends (throws a ``Promise``) or fails never hides the siblings written after it. That is
/// what lets every query under a ``Suspense`` be discovered in one pass and run at once, instead
/// of the waterfall that plain throwing initializers would give.
@resultBuilder
public enum ComponentBuilder {
    @inlinable
    public static func buildExpression<C: Component>(
        _ component: @autoclosure @escaping () throws -> C
    ) -> _Deferred<C> {
        _Deferred(make: component)
    }

    /// A string literal or value in a builder is shown as ``Text``.
    @inlinable
    public static func buildExpression(_ string: String) -> Text {
        Text(string)
    }

    @inlinable
    public static func buildBlock() -> EmptyComponent {
        EmptyComponent()
    }

    @inlinable
    public static func buildPartialBlock<C: Component>(first: C) -> C {
        first
    }

    @inlinable
    public static func buildPartialBlock<Accumulated: Component, Next: Component>(
        accumulated: Accumulated,
        next: Next
    ) -> _Pair<Accumulated, Next> {
        _Pair(first: accumulated, second: next)
    }

    @inlinable
    public static func buildOptional<C: Component>(_ component: C?) -> C? {
        component
    }

    @inlinable
    public static func buildEither<First: Component, Second: Component>(
        first component: First
    ) -> _Either<First, Second> {
        .first(component)
    }

    @inlinable
    public static func buildEither<First: Component, Second: Component>(
        second component: Second
    ) -> _Either<First, Second> {
        .second(component)
    }

    @inlinable
    public static func buildArray<C: Component>(_ components: [C]) -> _Array<C> {
        _Array(elements: components)
    }

    @inlinable
    public static func buildLimitedAvailability<C: Component>(_ component: C) -> C {
        component
    }
}

/// A child written in a builder, evaluated by the resolver. Builder plumbing; not API.
public struct _Deferred<C: Component>: Component {
    public typealias Body = Never
    @usableFromInline let make: () throws -> C

    @inlinable
    init(make: @escaping () throws -> C) {
        self.make = make
    }

    @inlinable
    public static func _resolve(_ component: Self, in resolver: _Resolver) throws {
        try resolver.evaluate(component.make)
    }
}

/// Two children in sequence. Builder plumbing; not API.
public struct _Pair<First: Component, Second: Component>: Component {
    public typealias Body = Never
    @usableFromInline let first: First
    @usableFromInline let second: Second

    @inlinable
    init(first: First, second: Second) {
        self.first = first
        self.second = second
    }

    @inlinable
    public static func _resolve(_ component: Self, in resolver: _Resolver) throws {
        try First._resolve(component.first, in: resolver)
        try Second._resolve(component.second, in: resolver)
    }
}

/// One branch of an `if`/`else` or `switch`. Builder plumbing; not API.
public enum _Either<First: Component, Second: Component>: Component {
    public typealias Body = Never
    case first(First)
    case second(Second)

    @inlinable
    public static func _resolve(_ component: Self, in resolver: _Resolver) throws {
        switch component {
        case .first(let first): try First._resolve(first, in: resolver)
        case .second(let second): try Second._resolve(second, in: resolver)
        }
    }
}

/// The children of a `for` loop. Builder plumbing; not API.
public struct _Array<Element: Component>: Component {
    public typealias Body = Never
    @usableFromInline let elements: [Element]

    @inlinable
    init(elements: [Element]) {
        self.elements = elements
    }

    @inlinable
    public static func _resolve(_ component: Self, in resolver: _Resolver) throws {
        for element in component.elements {
            try Element._resolve(element, in: resolver)
        }
    }
}

extension Optional: Component where Wrapped: Component {
    public typealias Body = Never

    @inlinable
    public static func _resolve(_ component: Self, in resolver: _Resolver) throws {
        if let component {
            try Wrapped._resolve(component, in: resolver)
        }
    }
}
