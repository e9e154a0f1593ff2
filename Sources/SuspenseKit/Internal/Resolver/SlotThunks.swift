// What evaluates a suspended or deferred child again, kept in its slot: the few values it needs,
// as a record stored in the slot's existential (up to three words need no allocation), not a
// closure, whose context was an allocation for every child that suspended.

/// Evaluates a slot's child again in the resolver. Not API.
@usableFromInline
protocol _SlotThunk {
    func run(_ resolver: _Resolver) throws
}

/// Makes a child again with the closure that made it, and resolves it. Not API.
@usableFromInline
struct _MakeAgain<C: Component>: _SlotThunk {
    @usableFromInline let make: () throws -> C

    @inlinable
    init(make: @escaping () throws -> C) {
        self.make = make
    }

    @usableFromInline
    func run(_ resolver: _Resolver) throws {
        try C._resolve(try make(), in: resolver)
    }
}

/// Makes a child again from its input (an element of a `ForEach`), and resolves it. Not API.
@usableFromInline
struct _MakeAgainFrom<Input, C: Component>: _SlotThunk {
    @usableFromInline let make: (Input) throws -> C
    @usableFromInline let input: Input

    @inlinable
    init(make: @escaping (Input) throws -> C, input: Input) {
        self.make = make
        self.input = input
    }

    @usableFromInline
    func run(_ resolver: _Resolver) throws {
        try C._resolve(try make(input), in: resolver)
    }
}

/// Evaluates a component's body again: the component was made already. Not API.
@usableFromInline
struct _BodyAgain<C: Component>: _SlotThunk {
    @usableFromInline let component: C

    @inlinable
    init(component: C) {
        self.component = component
    }

    @usableFromInline
    func run(_ resolver: _Resolver) throws {
        try C.Body._resolve(try component.body, in: resolver)
    }
}

/// A closure, for the slots that are rarer than a suspended child: a deferred subtree, an
/// ErrorBoundary's retry.
struct _ClosureThunk: _SlotThunk {
    let body: (_Resolver) throws -> Void

    func run(_ resolver: _Resolver) throws {
        try body(resolver)
    }
}
