#ifndef CSUSPENSEKIT_STACK_H
#define CSUSPENSEKIT_STACK_H

#include <stdint.h>

/// The address of the calling function's frame on the machine stack.
///
/// Why C: Swift can only take the address of a local variable, and AddressSanitizer moves locals
/// whose address is taken onto a "fake stack" on the heap, so that address says nothing about how
/// much of the thread's stack is left. The frame address is read from the frame pointer register,
/// which no sanitizer moves.
uintptr_t suspensekit_frame_address(void);

/// The lowest and highest address of the calling thread's stack; returns 0, or -1 when unknown.
int suspensekit_stack_bounds(uintptr_t *low, uintptr_t *high);

#endif
