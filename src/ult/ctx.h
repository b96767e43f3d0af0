/* SPDX-License-Identifier: BSD-3-Clause */
/* Context switching on Boost.Context's fcontext (make_fcontext/jump_fcontext, C linkage in libboost_context).
 * The only place that knows how a context is switched; it also tells AddressSanitizer about every stack
 * switch, and ThreadSanitizer which fiber runs, so that sanitizer builds work with user-level threads. */
#ifndef VMPI_ULT_CTX_H
#define VMPI_ULT_CTX_H

#include <stddef.h>
#include "base/sanitizer.h"

typedef void *vmpi_fctx;
typedef struct vmpi_transfer {
    vmpi_fctx fctx; /* the context that jumped here */
    void *data;
} vmpi_transfer;

typedef void (*vmpi_ctx_entry)(vmpi_transfer);

/* Stack bounds of a context and its TSan fiber, for the sanitizer annotations. */
typedef struct vmpi_ctx_stack {
    void *bottom;
    size_t size;
    void *fiber; /* from vmpi_ctx_fiber_create (NULL outside TSan builds) */
} vmpi_ctx_stack;

vmpi_fctx vmpi_ctx_make(void *stack_top, size_t size, vmpi_ctx_entry fn);
/* Jumps to `to`, whose stack is `to_stack` (NULL: the thread's own stack).  Returns when something jumps back. */
#if VMPI_SANITIZER
vmpi_transfer vmpi_ctx_jump(vmpi_fctx to, void *data, const vmpi_ctx_stack *to_stack);
#else
/* Boost.Context's entry point (boost/context/detail/fcontext.hpp), called directly: a wrapper call would
 * add a return that mispredicts after every switch. */
extern vmpi_transfer jump_fcontext(void *to, void *vp);
static inline vmpi_transfer vmpi_ctx_jump(vmpi_fctx to, void *data, const vmpi_ctx_stack *to_stack)
{
    (void)to_stack;
    return jump_fcontext(to, data);
}
#endif
/* TSan builds: a context's own fiber (TSan tracks what each context does, wherever it runs, as a thread of
 * its own), made with the context and destroyed once it has made its final jump, by another context.
 * Elsewhere NULL and nothing. */
#if VMPI_TSAN
void *vmpi_ctx_fiber_create(void);
void vmpi_ctx_fiber_destroy(void *fiber);
#else
static inline void *vmpi_ctx_fiber_create(void) { return NULL; }
static inline void vmpi_ctx_fiber_destroy(void *fiber) { (void)fiber; }
#endif
/* To be called first thing in a context's entry function (sanitizer bookkeeping). */
void vmpi_ctx_entered(void);
/* To be called by a context that finishes and will never be resumed, just before its last jump. */
vmpi_transfer vmpi_ctx_jump_final(vmpi_fctx to, void *data, const vmpi_ctx_stack *to_stack);

#endif
