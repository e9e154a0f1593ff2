#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The executor deep renders, and renders that wait on queries, run on: a few threads with very
/// large stacks.
///
/// Why: the resolver walks a component tree by recursion through each component's generic
/// `_resolve`, a few kilobytes of stack per level in debug builds. The threads of Swift's
/// cooperative pool have 8 MiB stacks on Linux and 512 KiB on Apple platforms, which a tree a few
/// thousand levels deep (a few hundred on Apple platforms) overflows, crashing the process.
/// A render therefore moves its own task to this executor (`withTaskExecutorPreference`) when its
/// first pass outgrows a small budget of the caller's stack, or when it has queries to wait for,
/// so that its components are evaluated on a thread whose stack holds ``RenderOptions/maxDepth``
/// levels; its queries still run on the global concurrent executor. The stack is reserved address space:
/// only the pages a render touches are ever committed.
final class DeepStackExecutor: TaskExecutor, @unchecked Sendable {
    /// The stack size of each thread: 512 MiB, room for ``RenderOptions/maxDepth``'s default of
    /// 100,000 levels at about 5 KiB each (debug builds measure 2 to 4 KiB).
    static let stackSize = 512 << 20

    /// The shared executor, or `nil` if its threads could not be started (then renders run on the
    /// cooperative pool, with ``fallbackMaxDepth`` as their depth limit).
    static let shared: DeepStackExecutor? = DeepStackExecutor(
        threadCount: max(2, min(Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), 64)),
        stackSize: stackSize
    )

    /// How much of the caller's stack a render's first pass may use before it moves to this
    /// executor: well within the 512 KiB of a secondary thread on Apple platforms.
    static let callerStackBudget = 192 << 10

    /// The depth limit used when the shared executor is unavailable: what an 8 MiB stack holds
    /// with room to spare.
    static let fallbackMaxDepth = 1_000

    // The job queue, guarded by `mutex`; `condition` wakes idle threads.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var jobs: [UnownedJob] = []
    private var head = 0

    private init?(threadCount: Int, stackSize: Int) {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
        var started = 0
        for _ in 0..<threadCount where startThread(stackSize: stackSize) {
            started += 1
        }
        // Threads already started keep a reference and wait forever; a process that cannot start
        // one thread with a large stack is unlikely to start the next.
        if started == 0 { return nil }
    }

    private func startThread(stackSize: Int) -> Bool {
        var attributes = pthread_attr_t()
        guard pthread_attr_init(&attributes) == 0 else { return false }
        defer { pthread_attr_destroy(&attributes) }
        guard pthread_attr_setstacksize(&attributes, stackSize) == 0 else { return false }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        let context = Unmanaged.passRetained(self).toOpaque()
        #if canImport(Darwin)
            var thread: pthread_t?
        #else
            var thread = pthread_t()
        #endif
        let result = pthread_create(
            &thread, &attributes,
            { context in
                #if canImport(Darwin)
                    let executor = Unmanaged<DeepStackExecutor>.fromOpaque(context).takeRetainedValue()
                #else
                    let executor = Unmanaged<DeepStackExecutor>.fromOpaque(context!).takeRetainedValue()
                #endif
                executor.runJobs()
            }, context)
        if result != 0 {
            Unmanaged<DeepStackExecutor>.fromOpaque(context).release()
            return false
        }
        return true
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        pthread_mutex_lock(mutex)
        jobs.append(job)
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
    }

    /// A thread's life: take the oldest job, run it, repeat; sleep while there is none.
    private func runJobs() -> Never {
        while true {
            pthread_mutex_lock(mutex)
            while head == jobs.count {
                pthread_cond_wait(condition, mutex)
            }
            let job = jobs[head]
            head += 1
            if head == jobs.count {
                jobs.removeAll(keepingCapacity: true)
                head = 0
            }
            pthread_mutex_unlock(mutex)
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}

/// A point on the current thread's stack past which the first pass stops (stacks grow down on
/// every platform Swift supports).
struct StackLimit {
    let address: UInt

    /// `budget` bytes below the current position.
    init(budget: Int) {
        let here = StackLimit.currentAddress()
        address = here > UInt(budget) ? here - UInt(budget) : 0
    }

    var isExceeded: Bool { StackLimit.currentAddress() < address }

    @inline(never)
    static func currentAddress() -> UInt {
        var marker: UInt8 = 0
        return withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
    }
}

/// Thrown by the first pass when it would go past its stack budget on the caller's thread; never
/// reaches a boundary or the caller.
struct NeedsLargerStack: Error {}
