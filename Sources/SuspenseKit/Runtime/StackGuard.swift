import CSuspenseKitStack

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// Why the stack is watched: the resolver walks a component tree by recursion through each
// component's generic `_resolve`, a few kilobytes of stack per level in debug builds, and a deep
// tree would overflow the thread's stack and crash the process.
//
// The strategy, the simplest that never evaluates anything twice and never crashes below
// `RenderOptions.maxDepth`: every level of recursion (each child, each component) compares the
// real stack pointer with a limit a little above the end of the current thread's stack. When a
// render that may leave its thread reaches the limit, the rest of that subtree is evaluated on a
// new thread with a 512 MiB stack while this one waits for it (a "segmented" stack): the pass goes
// on where it was. A render isolated to an actor must stay on the actor's thread; there, reaching
// the limit fails at the component with `SuspenseError.tooDeepForCallerStack`, after using all of
// the thread's stack (an 8 MiB main thread holds a few thousand levels even in a debug build).
//
// The stack pointer comes from a C function reading the frame address: the address of a Swift
// local is no measure under AddressSanitizer, which moves such locals to a heap "fake stack".

/// The stack limit of the pass running on the current thread.
struct StackGuard {
    /// How many large-stack threads one pass may chain before it fails.
    static let maxExtensions = 16
    /// The stack size of each extension thread: reserved address space, committed only as used.
    static let extensionStackSize = 512 << 20

    /// Whether the render may continue on another thread (it is not isolated to an actor).
    let canLeaveThread: Bool
    /// The address below which the stack is too short for another level; 0 before `anchor()`.
    private var limit: UInt = 0
    /// How many extension threads the pass has chained so far.
    private(set) var extensions = 0

    init(canLeaveThread: Bool) {
        self.canLeaveThread = canLeaveThread
    }

    /// Sets the limit from the current thread's stack: at the start of every pass, since an
    /// actor may resume a render on another thread between passes.
    mutating func anchor(extensions: Int = 0) {
        self.extensions = extensions
        let here = UInt(suspensekit_frame_address())
        guard let bounds = StackBounds.current(), bounds.low < here, here <= bounds.high else {
            // Unknown bounds: assume the smallest stack a secondary thread has (512 KiB on Apple
            // platforms) and keep half of it.
            limit = here > 256 << 10 ? here - (256 << 10) : 0
            return
        }
        // Room for what runs between two checks: a component's own initializer and body, and
        // the frames of a builder's content. A quarter of the stack, at most 256 KiB.
        let reserve = min(UInt(256 << 10), (bounds.high - bounds.low) / 4)
        limit = bounds.low + reserve
    }

    var isLow: Bool {
        UInt(suspensekit_frame_address()) < limit
    }
}

/// The address range of the current thread's stack.
enum StackBounds {
    static func current() -> (low: UInt, high: UInt)? {
        var low: UInt = 0
        var high: UInt = 0
        guard suspensekit_stack_bounds(&low, &high) == 0, low < high else { return nil }
        return (low, high)
    }
}

/// Runs a closure on a new thread with a large stack, and waits for it.
enum LargeStackThread {
    private final class Work {
        let body: () throws -> Void
        var error: (any Error)?

        init(_ body: @escaping () throws -> Void) {
            self.body = body
        }
    }

    /// Runs `body` on a new thread whose stack is ``StackGuard/extensionStackSize`` bytes, and
    /// returns (or rethrows) when it is done. The caller's thread waits meanwhile, so `body` runs
    /// as if it were on the caller's: one thread at a time touches what it touches.
    static func run(_ body: () throws -> Void) throws {
        try withoutActuallyEscaping(body) { body in
            let work = Work(body)
            var attributes = pthread_attr_t()
            guard pthread_attr_init(&attributes) == 0 else { throw StackExtensionFailed() }
            defer { pthread_attr_destroy(&attributes) }
            guard pthread_attr_setstacksize(&attributes, StackGuard.extensionStackSize) == 0 else {
                throw StackExtensionFailed()
            }
            let context = Unmanaged.passRetained(work).toOpaque()
            #if canImport(Darwin)
                var thread: pthread_t?
            #else
                var thread = pthread_t()
            #endif
            let result = pthread_create(
                &thread, &attributes,
                { context in
                    #if canImport(Darwin)
                        let work = Unmanaged<Work>.fromOpaque(context).takeRetainedValue()
                    #else
                        let work = Unmanaged<Work>.fromOpaque(context!).takeRetainedValue()
                    #endif
                    do {
                        try work.body()
                    } catch {
                        work.error = error
                    }
                    return nil
                }, context)
            guard result == 0 else {
                Unmanaged<Work>.fromOpaque(context).release()
                throw StackExtensionFailed()
            }
            #if canImport(Darwin)
                pthread_join(thread!, nil)
            #else
                pthread_join(thread, nil)
            #endif
            if let error = work.error { throw error }
        }
    }
}

/// A thread with a large stack could not be started.
struct StackExtensionFailed: Error, CustomStringConvertible {
    var description: String { "could not start a thread with a large stack to continue a deep render" }
}
