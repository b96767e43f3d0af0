/* SPDX-License-Identifier: BSD-3-Clause */
/* ctxswitch: what a switch between two ranks costs, from the bottom up (ns per switch, best of 5):
 *   fcontext  - a bare Boost.Context jump_fcontext, main <-> one fiber (the floor);
 *   vmpi_ctx  - the same through vmpi's ult layer (adds the sanitizer hooks when built with them);
 *   yield     - vmpi_vp_yield between VPs on one PE: VP -> scheduler -> VP, with a poll of the channels.
 *   yield_measured - the same with load measurement on (a balancer chosen: one TSC read per switch).
 * Built against vmpi's internal layers (no MPI involved); no peer MPI has an equivalent. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "base/tunables.h"
#include "sched/sched.h"
#include "ult/ctx.h"
#include "ult/stack.h"

/* Boost.Context's C entry points (boost/context/detail/fcontext.hpp declares them for C++); ult/ctx.h
 * declares jump_fcontext already in non-sanitizer builds. */
typedef vmpi_transfer bc_transfer;
extern bc_transfer jump_fcontext(void *to, void *vp);
extern void *make_fcontext(void *sp, size_t size, void (*fn)(bc_transfer));

#define N 2000000L

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void bc_fiber(bc_transfer t)
{
    for (;;)
        t = jump_fcontext(t.fctx, NULL);
}

static double bench_fcontext(void)
{
    vmpi_stack st;
    if (!vmpi_stack_create(&st, 64 * 1024))
        abort();
    void *f = make_fcontext(vmpi_stack_top(&st), st.size, bc_fiber);
    double t0 = now();
    for (long i = 0; i < N; i++)
        f = jump_fcontext(f, NULL).fctx;
    double dt = now() - t0;
    vmpi_stack_destroy(&st);
    return dt / (2.0 * N) * 1e9;
}

static void vc_fiber(vmpi_transfer t)
{
    vmpi_ctx_entered();
    for (;;)
        t = vmpi_ctx_jump(t.fctx, NULL, NULL);
}

static double bench_vmpi_ctx(void)
{
    vmpi_stack st;
    if (!vmpi_stack_create(&st, 64 * 1024))
        abort();
    vmpi_ctx_stack cs = {vmpi_stack_bottom(&st), st.size, vmpi_ctx_fiber_create()};
    vmpi_fctx f = vmpi_ctx_make(vmpi_stack_top(&st), st.size, vc_fiber);
    double t0 = now();
    for (long i = 0; i < N; i++)
        f = vmpi_ctx_jump(f, NULL, &cs).fctx;
    double dt = now() - t0;
    vmpi_stack_destroy(&st);
    return dt / (2.0 * N) * 1e9;
}

typedef struct yielder {
    vmpi_vp vp;
    double t;
} yielder;

static void yield_main(vmpi_vp *vp)
{
    yielder *y = (yielder *)vp;
    double t0 = now();
    for (long i = 0; i < N; i++)
        vmpi_vp_yield();
    y->t = now() - t0;
}

static double yield_run(bool measure)
{
    yielder y[2] = {0};
    vmpi_sched_init(0, 1, 1);
    vmpi_sched_measure(measure);
    for (int i = 0; i < 2; i++) {
        y[i].vp.id = i;
        y[i].vp.main = yield_main;
        vmpi_sched_add_vp(&y[i].vp, 0);
    }
    vmpi_sched_run();
    vmpi_sched_fini();
    /* each of the 2N yields of the two VPs is one VP -> VP switch */
    return (y[0].t > y[1].t ? y[0].t : y[1].t) / (2.0 * N) * 1e9;
}

static double bench_yield(void) { return yield_run(false); }
static double bench_yield_measured(void) { return yield_run(true); }

static double best(double (*f)(void))
{
    double b = 1e30;
    for (int i = 0; i < 5; i++) {
        double v = f();
        b = v < b ? v : b;
    }
    return b;
}

int main(void)
{
    vmpi_tunables_load();
    vmpi_iso_init(2, 64 * 1024, vmpi_cfg.iso_base, 64 << 20); /* the yield runs' two VPs (slots reused) */
    printf("# vmpi-bench ctxswitch\n# unit: ns per switch\n");
    printf("fcontext %.2f\n", best(bench_fcontext));
    printf("vmpi_ctx %.2f\n", best(bench_vmpi_ctx));
    printf("yield %.2f\n", best(bench_yield));
    printf("yield_measured %.2f\n", best(bench_yield_measured));
    return 0;
}
