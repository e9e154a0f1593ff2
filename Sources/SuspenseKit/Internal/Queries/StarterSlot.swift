// The generic half of a run `resolveValue(key:query:)` starts at once: inlined into the caller's
// module, where it is specialized for the value's type.

/// Runs a query `resolveValue(key:query:)` started and hands its result to the cache; a value
/// that finished at once also goes to the starter's frame, through `slot`. Not API.
@inlinable
func _run<Value: Sendable>(
    _ query: @Sendable () async throws -> Value,
    for start: _QueryStart,
    leavingValueIn slot: _StarterSlot<Value>
) async {
    do {
        let value = try await query()
        if QueryCache._finish(start, value: value) {
            // Still inside the start, on the starter's thread: its frame is live.
            slot.pointer.pointee = value
        }
    } catch {
        QueryCache._finish(start, failure: error)
    }
}

/// Where a run started at once leaves its value for the starter: a variable in the frame of
/// `resolveValue(key:query:)`, written only while that frame waits for the start to return, on
/// its thread (checked through the thread's `ImmediateStart` record). Not API.
@usableFromInline
struct _StarterSlot<Value>: @unchecked Sendable {
    @usableFromInline let pointer: UnsafeMutablePointer<Value?>

    @inlinable
    init(_ pointer: UnsafeMutablePointer<Value?>) {
        self.pointer = pointer
    }
}

/// Starts a query's task on this thread, where the platform has immediate tasks (elsewhere as a
/// task scheduled at once). Not API.
///
/// Why the loop of one turn: `Task.immediate` takes an executor preference, nil by default.
/// Where the compiler does not inline it, it hands that nil on as a value, and the runtime
/// then gives the task a preference record all the same: an allocation in the task, its status
/// lock taken at every switch and run of the task, and the record's removal as it ends. The
/// compiler inlines a call made in a loop, where the default is a constant and no record is
/// made. No API shows the record; `Benchmarks/scripts/task-records.sh` counts them with probes
/// on the runtime (none for a query task; one for each before).
@usableFromInline
func _startImmediately(_ operation: @escaping @Sendable @isolated(any) () async -> Void) -> Task<Void, Never> {
    var task: Task<Void, Never>?
    for _ in 0..<1 {
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            task = Task.immediate(operation: operation)
        } else {
            task = Task(operation: operation)
        }
    }
    return task!
}
