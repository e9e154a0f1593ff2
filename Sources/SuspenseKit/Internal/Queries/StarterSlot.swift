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
