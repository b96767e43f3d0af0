/* SPDX-License-Identifier: BSD-3-Clause */
#include "base/compiler.h"
#include "ult/ctx.h"

typedef vmpi_transfer bc_transfer; /* same layout as boost::context::detail::transfer_t */

/* Boost.Context's C-linkage entry points (boost/context/detail/fcontext.hpp). */
extern bc_transfer jump_fcontext(void *to, void *vp);
extern void *make_fcontext(void *sp, size_t size, vmpi_ctx_entry fn);


#if VMPI_ASAN
#include <sanitizer/common_interface_defs.h>
/* The thread's own stack, learned the first time a thread leaves it. */
static VMPI_TLS const void *native_bottom;
static VMPI_TLS size_t native_size;
#endif

#if VMPI_TSAN
#include <sanitizer/tsan_interface.h>
/* The thread's own fiber (its scheduler, on the thread's stack), learned the first time the thread leaves
 * it.  A context that migrated goes back to the fiber of the thread it runs on now: read here, at the jump. */
static VMPI_TLS void *native_fiber;

void *vmpi_ctx_fiber_create(void) { return __tsan_create_fiber(0); }
void vmpi_ctx_fiber_destroy(void *fiber)
{
    if (fiber)
        __tsan_destroy_fiber(fiber);
}
#endif

vmpi_fctx vmpi_ctx_make(void *stack_top, size_t size, vmpi_ctx_entry fn)
{
    return make_fcontext(stack_top, size, fn);
}

static vmpi_transfer jump(vmpi_fctx to, void *data, const vmpi_ctx_stack *to_stack, int final)
{
#if VMPI_TSAN
    /* Switching synchronizes: what one context did before the switch happens before what the other does
     * after it; a context resumed on another thread carries its history with it. */
    if (to_stack) {
        if (native_fiber == NULL)
            native_fiber = __tsan_get_current_fiber(); /* only schedulers switch to contexts */
        __tsan_switch_to_fiber(to_stack->fiber, 0);
    } else {
        __tsan_switch_to_fiber(native_fiber, 0);
    }
#endif
#if VMPI_ASAN
    void *fake = NULL;
    const void *bottom = to_stack ? to_stack->bottom : native_bottom;
    size_t size = to_stack ? to_stack->size : native_size;
    __sanitizer_start_switch_fiber(final ? NULL : &fake, bottom, size);
    bc_transfer t = jump_fcontext(to, data);
    const void *old_bottom;
    size_t old_size;
    __sanitizer_finish_switch_fiber(fake, &old_bottom, &old_size);
#else
    (void)to_stack;
    (void)final;
    bc_transfer t = jump_fcontext(to, data);
#endif
    return t;
}

#if VMPI_SANITIZER
vmpi_transfer vmpi_ctx_jump(vmpi_fctx to, void *data, const vmpi_ctx_stack *to_stack)
{
    return jump(to, data, to_stack, 0);
}
#endif

vmpi_transfer vmpi_ctx_jump_final(vmpi_fctx to, void *data, const vmpi_ctx_stack *to_stack)
{
    return jump(to, data, to_stack, 1);
}

void vmpi_ctx_entered(void)
{
#if VMPI_ASAN
    const void *old_bottom;
    size_t old_size;
    __sanitizer_finish_switch_fiber(NULL, &old_bottom, &old_size);
    /* Only schedulers (on their thread's own stack) start contexts, so this is the native stack. */
    if (native_bottom == NULL) {
        native_bottom = old_bottom;
        native_size = old_size;
    }
#endif
}
