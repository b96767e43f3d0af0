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

vmpi_fctx vmpi_ctx_make(void *stack_top, size_t size, vmpi_ctx_entry fn)
{
    return make_fcontext(stack_top, size, fn);
}

static vmpi_transfer jump(vmpi_fctx to, void *data, const vmpi_ctx_stack *to_stack, int final)
{
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

#if VMPI_ASAN
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
