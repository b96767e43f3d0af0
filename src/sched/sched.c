/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>
#include "base/clock.h"
#include "base/fence.h"
#include "base/futex.h"
#include "base/log.h"
#include "base/tunables.h"
#include "sched/pin.h"
#include "sched/runwait.h"
#include "sched/sched.h"
#include "sched/tls_warm.h"

static struct {
    vmpi_pe *pes;            /* this process's PEs: job.pes[i] is PE first + i */
    int npes, first;
    int job_npes;            /* PEs of the whole job, over every process */
    vmpi_vp **vps;           /* every VP, for diagnostics */
    int nvps, cap_vps;
    _Atomic long live;       /* VPs not yet done */
    _Atomic int done;
    _Atomic int exit_code;
    /* (transitions << 32) | PEs asleep: one word, so the deadlock check can tell that nothing moved */
    _Atomic uint64_t sleepers;
    /* stopping the world: requests and completions are numbered; stop_busy admits one requester */
    _Atomic unsigned stop_req, stop_done;
    _Atomic int stopped, stop_busy;
    int stop_leader;
    void (*stop_fn)(void *);
    void *stop_arg;
    vmpi_vp *stop_vp;
    bool stop_vp_left;       /* the requester moved to another process during its stop (vmpi_sched_remove_vp) */
    void (*stop_then)(void); /* vmpi_sched_stop_then: once the stop's requester is woken */
    bool measure;            /* measure VPs' busy ticks (a balancer is on) */
    void (*local_done)(void); /* this process's VPs are done (vmpi_sched_set_local_done) */
    bool oversub;            /* more PE threads on this node than cores (vmpi_sched_set_oversubscribed) */
    int pin_first, pin_threads; /* this process's first PE thread's place among the node's, their count */
    double reset_at;         /* clock of the last vmpi_sched_reset_load */
    double t0;               /* clock and ticks at the start, to calibrate ticks */
    unsigned long long ticks0;
} job;

VMPI_TLS vmpi_pe *vmpi_self_pe_;

/* ---- progress sources ---- */

static struct {
    const vmpi_progress_source *src[VMPI_PROGRESS_MAX];
    int n;
    const vmpi_progress_source *sleeper; /* the one whose sleep() idle PEs sleep in (else a futex) */
} prog;

void vmpi_sched_progress_add(const vmpi_progress_source *src)
{
    vmpi_assert(prog.n < VMPI_PROGRESS_MAX);
    vmpi_assert(!src->sleep || (src->wake && !prog.sleeper));
    prog.src[prog.n++] = src;
    if (src->sleep)
        prog.sleeper = src;
}

/* After clearing the `sleeping` word of PE i (local index), which sleeps or is about to. */
static void wake_sleeper(int i)
{
    if (prog.sleeper)
        prog.sleeper->wake(job.first + i);
    else
        vmpi_futex_wake(&job.pes[i].sleeping, 1);
}

/* The scheduler polls at every switch and almost always finds nothing: the built-in source answers that from
 * its work() check, a few loads, without the set-up of the loop that runs handlers (2 polls per 1-PE round
 * trip: 1620 instructions with the plain poll, 1530 with the check).  `known`: work() just said yes. */
static inline int progress_poll_(vmpi_pe *pe, bool known)
{
    int ran = 0;
    if (&vmpi_progress_builtin && (known || vmpi_progress_builtin.work(pe->id)))
        ran = vmpi_progress_builtin.poll(pe);
    for (int i = 0; i < prog.n; i++)
        ran += prog.src[i]->poll(pe);
    return ran;
}

static inline int progress_poll(vmpi_pe *pe) { return progress_poll_(pe, false); }

/* Work waits for PE `pe`, or PE `pe` has work to push out (it must keep polling). */
static inline bool progress_ready(int pe)
{
    if (&vmpi_progress_builtin && vmpi_progress_builtin.ready(pe))
        return true;
    for (int i = 0; i < prog.n; i++)
        if (prog.src[i]->ready(pe))
            return true;
    return false;
}

static inline bool progress_backlog(int pe)
{
    if (&vmpi_progress_builtin && vmpi_progress_builtin.backlog(pe))
        return true;
    for (int i = 0; i < prog.n; i++)
        if (prog.src[i]->backlog(pe))
            return true;
    return false;
}

/* progress_ready || progress_backlog, one call per source: the check of the spin loops */
static inline bool progress_work(int pe)
{
    if (&vmpi_progress_builtin && vmpi_progress_builtin.work(pe))
        return true;
    for (int i = 0; i < prog.n; i++)
        if (prog.src[i]->work(pe))
            return true;
    return false;
}

/* Work started somewhere that no ready() shows yet. */
static inline bool progress_in_flight(void)
{
    for (int i = 0; i < prog.n; i++)
        if (prog.src[i]->in_flight && prog.src[i]->in_flight())
            return true;
    return false;
}

/* libstdc++'s per-thread exception state: the stack of caught exceptions and the count of uncaught ones.
 * It belongs to the rank, not the thread: a rank that blocks inside a catch block must find its own
 * exception when it resumes (maybe on another thread), and the ranks that ran meanwhile must not see it.
 * Weak: a C program has no libstdc++. */
struct vmpi_cxa_eh_globals {
    void *caught;
    unsigned int uncaught;
};
extern struct vmpi_cxa_eh_globals *__cxa_get_globals(void) __attribute__((weak));
#define self_pe vmpi_self_pe_
int vmpi_sched_npes(void) { return job.job_npes; }
int vmpi_sched_local_first(void) { return job.first; }
int vmpi_sched_local_npes(void) { return job.npes; }
static inline vmpi_pe *pe_of(int id)
{
    vmpi_assert(id >= job.first && id < job.first + job.npes);
    return &job.pes[id - job.first];
}
vmpi_pe *vmpi_sched_pe(int id) { return pe_of(id); }

void vmpi_sched_init(int first, int npes, int job_npes)
{
    vmpi_fence_init(); /* before any PE thread exists */
    job.npes = npes;
    job.first = first;
    job.job_npes = job_npes;
    job.pes = aligned_alloc(VMPI_CACHELINE, sizeof(vmpi_pe) * (size_t)npes);
    if (job.pes == NULL)
        vmpi_fatal("out of memory creating %d PEs", npes);
    memset(job.pes, 0, sizeof(vmpi_pe) * (size_t)npes);
    for (int i = 0; i < npes; i++) {
        vmpi_pe *pe = &job.pes[i];
        vmpi_list_init(&pe->runq);
        pe->id = first + i;
    }
    job.t0 = job.reset_at = vmpi_clock_now();
    job.ticks0 = vmpi_ticks();
}

static void vp_entry(vmpi_transfer t)
{
    vmpi_ctx_entered();
    vmpi_pe *pe = t.data;
    pe->sched_ctx = t.fctx;
    vmpi_vp *vp = pe->current;
    vp->main(vp);
    vmpi_vp_exit(0);
}

static void place(vmpi_vp *vp, int pe)
{
    vp->fiber = vmpi_ctx_fiber_create();
    vp->pe = pe_of(pe);
    vp->state = VMPI_VP_READY;
    vmpi_list_init(&vp->node);
    vmpi_list_push_back(&vp->pe->runq, &vp->node);
    vp->pe->nvps++;
    if (job.nvps == job.cap_vps) {
        job.cap_vps = job.cap_vps ? 2 * job.cap_vps : 64;
        job.vps = realloc(job.vps, sizeof(*job.vps) * (size_t)job.cap_vps);
        if (job.vps == NULL)
            vmpi_fatal("out of memory registering rank %d", vp->id);
    }
    job.vps[job.nvps++] = vp;
    atomic_fetch_add(&job.live, 1);
}

void vmpi_sched_add_vp(vmpi_vp *vp, int pe)
{
    if (vp->heap == NULL) /* the caller may have opened the slot to put the VP itself in it */
        vp->heap = vmpi_iso_slot_open(vp->id, &vp->stack);
    vp->ctx = vmpi_ctx_make(vmpi_stack_top(&vp->stack), vp->stack.size, vp_entry);
    place(vp, pe);
}

void vmpi_sched_adopt_vp(vmpi_vp *vp, int pe)
{
    /* what the VP kept of the old process: measurements and a spin-wait are over */
    vp->busy = 0;
    vp->wait_since = 0;
    vp->blocked_in = NULL;
    vp->blocked_on = NULL;
    vp->call = NULL;
    if (vp == job.stop_vp)
        job.stop_vp_left = false; /* the requester left and came back within its stop: it is here again */
    place(vp, pe);
}

void vmpi_sched_set_local_done(void (*fn)(void)) { job.local_done = fn; }
void vmpi_sched_set_pinning(int node_first, int node_threads)
{
    job.pin_first = node_first;
    job.pin_threads = node_threads;
}

void vmpi_sched_set_oversubscribed(bool on)
{
    job.oversub = on;
    if (on)
        vmpi_fence_set_symmetric(); /* (before the PE threads start) */
}
bool vmpi_sched_oversubscribed(void) { return job.oversub; }

void vmpi_sched_end(void)
{
    atomic_store(&job.done, 1);
    for (int i = 0; i < job.npes; i++)
        if (atomic_exchange(&job.pes[i].sleeping, 0))
            wake_sleeper(i);
}

/* ---- switching ---- */

static void switch_to_sched(vmpi_vp *vp, bool final)
{
    vmpi_pe *pe = vp->pe;
    vmpi_transfer t = final ? vmpi_ctx_jump_final(pe->sched_ctx, NULL, NULL) : vmpi_ctx_jump(pe->sched_ctx, NULL, NULL);
    vmpi_pe *now = t.data; /* the PE that resumed us */
    now->sched_ctx = t.fctx;
}

/* ---- load measurement ---- */

/* The running VP's ticks in this run so far: its time, less its polls and spin-waits and its PE's waits
 * for the core. */
static unsigned long long run_so_far(vmpi_pe *pe, vmpi_vp *vp, unsigned long long now)
{
    vmpi_runwait_check(pe, now, vp->last_run);
    unsigned long long off = pe->polled + pe->run_waited, all = now - pe->run_start;
    return all > off ? all - off : 0;
}

static void run_vp(vmpi_pe *pe, vmpi_vp *vp)
{
    pe->current = vp;
    vp->state = VMPI_VP_RUNNING;
    vp->switches++;
    vmpi_ctx_stack st = {vmpi_stack_bottom(&vp->stack), vp->stack.size, vp->fiber};
    bool measure = job.measure;
    unsigned long long t0 = 0;
    if (measure) {
        t0 = pe->run_start = vmpi_ticks();
        vmpi_runwait_run_begin(pe, t0);
        if (vp->wait_since)
            vp->wait_since = t0; /* still spin-waiting: this run starts idle */
    }
    struct vmpi_cxa_eh_globals *eh = pe->eh;
    if (eh) {
        eh->caught = vp->eh_caught;
        eh->uncaught = vp->eh_uncaught;
    }
    /* errno is the rank's too: what it set before blocking is what it reads after, on whichever PE */
    *pe->errno_loc = vp->err;
    vmpi_iso_enter(vp->heap);
    /* glibc x86-64: the canary at %fs:0x28, read by every protected frame's epilogue: the rank's frames were
     * made with its own, this thread's (run_vp's among them) with the thread's */
    uint64_t *guard = (uint64_t *)((char *)__builtin_thread_pointer() + 0x28), own = *guard;
    if (vp->guard)
        *guard = vp->guard;
    vmpi_transfer t = vmpi_ctx_jump(vp->ctx, pe, &st);
    *guard = own;
    vmpi_iso_leave();
    vp->err = *pe->errno_loc;
    if (eh) { /* the rank ran on this thread: keep its state, leave the thread clean */
        vp->eh_caught = eh->caught;
        vp->eh_uncaught = eh->uncaught;
        eh->caught = NULL;
        eh->uncaught = 0;
    }
    vp->ctx = t.fctx;
    pe->current = NULL;
    if (measure) {
        unsigned long long t1 = vmpi_ticks();
        if (vp->wait_since)
            pe->polled += t1 - vp->wait_since;
        vp->last_run = run_so_far(pe, vp, t1);
        vp->busy += vp->last_run;
        pe->polled = 0;
    }
    if (vp->state == VMPI_VP_DONE) {
        vmpi_ctx_fiber_destroy(vp->fiber);
        vp->fiber = NULL;
        vmpi_iso_stack_release(vp->heap);
        pe->nvps--;
        if (atomic_fetch_sub(&job.live, 1) == 1) {
            if (job.local_done)
                job.local_done(); /* the others' ranks may still need this process's PEs */
            else
                vmpi_sched_end();
        }
    }
}

/* A stop of the world was asked for that this PE has not taken part in yet. */
static inline bool stop_pending(const vmpi_pe *pe)
{
    return VMPI_UNLIKELY(atomic_load_explicit(&job.stop_req, memory_order_relaxed) != pe->stop_seen);
}

/* A VP that blocks while nothing else on its PE can run polls for its wake-up itself for a while: that
 * saves two context switches and a pass through the scheduler on the cross-PE message path. */
static bool block_in_place(vmpi_vp *vp, vmpi_pe *pe)
{
    /* more PE threads than cores: the core is better given up at once, to a thread that may be the one
     * this VP waits for (a spin, even with sched_yield, holds it until the kernel's tick) */
    if (VMPI_UNLIKELY(job.oversub))
        return false;
    atomic_store_explicit(&pe->waiting, true, memory_order_relaxed);
    bool resumed = false;
    unsigned long long t0 = job.measure ? vmpi_ticks() : 0;
    for (unsigned i = 0; i < 4096 && !resumed; i++) {
        if (!vmpi_list_empty(&pe->runq) || stop_pending(pe))
            break;
        if (progress_work(pe->id)) {
            /* a source's work() may have run the handler that woke this VP (the network's does): then it
             * resumes at once, and whatever else came is polled at its next switch or block */
            if (vp->state != VMPI_VP_READY)
                progress_poll_(pe, true);
            if (vp->state == VMPI_VP_READY) {
                if (pe->runq.next != &vp->node || pe->runq.prev != &vp->node)
                    break; /* others were woken too: take turns through the scheduler */
                vmpi_list_remove(&vp->node);
                vp->state = VMPI_VP_RUNNING;
                resumed = true;
            }
        }
        __builtin_ia32_pause();
    }
    atomic_store_explicit(&pe->waiting, false, memory_order_relaxed);
    if (job.measure)
        pe->polled += vmpi_ticks() - t0;
    return resumed;
}

void vmpi_vp_block_on(const char *why, const void *on)
{
    vmpi_vp *vp = vmpi_vp_self();
    vp->blocked_on = on;
    vmpi_vp_block(why);
    vp->blocked_on = NULL;
}

void vmpi_vp_block(const char *why)
{
    vmpi_vp *vp = vmpi_vp_self();
    vmpi_pe *pe = vp->pe;
    vp->state = VMPI_VP_BLOCKED;
    vp->blocked_in = why;
    if (!block_in_place(vp, pe))
        switch_to_sched(vp, false);
    vp->blocked_in = NULL;
}

void vmpi_vp_yield(void)
{
    vmpi_vp *vp = vmpi_vp_self();
    vmpi_pe *pe = vp->pe;
    vmpi_pe_poll(pe);
    if (vmpi_list_empty(&pe->runq) && !stop_pending(pe))
        return; /* nobody else to run: keep going */
    vp->state = VMPI_VP_READY;
    vmpi_list_push_back(&pe->runq, &vp->node);
    switch_to_sched(vp, false);
}

void vmpi_vp_wake(vmpi_vp *vp)
{
    if (vp->state != VMPI_VP_BLOCKED)
        return;
    vp->state = VMPI_VP_READY;
    vmpi_list_push_back(&vp->pe->runq, &vp->node);
}

void vmpi_vp_exit(int code)
{
    vmpi_vp *vp = vmpi_vp_self();
    vp->state = VMPI_VP_DONE;
    vp->exit_code = code;
    if (code != 0) {
        int zero = 0;
        atomic_compare_exchange_strong(&job.exit_code, &zero, code);
    }
    switch_to_sched(vp, true);
    vmpi_fatal("internal error: finished rank %d was resumed", vp->id);
}

/* ---- messages between PEs ---- */

static void wake_pe(vmpi_pe *pe)
{
    if (atomic_load(&pe->sleeping) && atomic_exchange(&pe->sleeping, 0)) {
        atomic_fetch_add(&job.sleepers, (1ull << 32) - 1);
        wake_sleeper((int)(pe - job.pes));
    }
}

void vmpi_sched_wake(int id) { wake_pe(pe_of(id)); }

void vmpi_pe_poll(vmpi_pe *pe)
{
    progress_poll(pe);
}

/* ---- idling and deadlock detection ---- */

static void (*wait_describer)(const vmpi_vp *vp, char *out, size_t n);

void vmpi_sched_set_wait_describer(void (*fn)(const vmpi_vp *vp, char *out, size_t n)) { wait_describer = fn; }

long vmpi_sched_live(void) { return atomic_load(&job.live); }

void vmpi_sched_report_blocked(long job_live)
{
    long live = atomic_load(&job.live);
    char line[512], what[400];
    vmpi_log_run_die_hook(); /* the ranks' output first, then the report */
    if (job_live > 0)
        vmpi_warn("deadlock: all %ld live rank(s) are blocked and no message is in flight", job_live);
    int shown = 0;
    for (int i = 0; i < job.nvps && shown < 16; i++) {
        vmpi_vp *vp = job.vps[i];
        if (vp->state != VMPI_VP_BLOCKED)
            continue;
        if (wait_describer)
            wait_describer(vp, what, sizeof what);
        else
            snprintf(what, sizeof what, "waits in %s", vp->blocked_in ? vp->blocked_in : "?");
        snprintf(line, sizeof line, "  rank %d (PE %d) %s", vp->id, vp->pe->id, what);
        vmpi_warn("%s", line);
        shown++;
    }
    if (live > shown)
        vmpi_warn("  ... and %ld more", live - shown);
}

static void report_deadlock(void)
{
    vmpi_sched_report_blocked(atomic_load(&job.live));
    vmpi_die(1);
}

/* The sleepers word the running deadlock check saw (on the PE thread that runs it). */
static _Thread_local uint64_t idle_seen;

/* Whether every run queue is empty and no progress source has work ready or queued for any PE. */
static bool all_quiet(void)
{
    for (int i = 0; i < job.npes; i++)
        if (!vmpi_list_empty(&job.pes[i].runq) || progress_ready(job.first + i) || progress_backlog(job.first + i))
            return false;
    return true;
}

/* Whether this process is still idle since the check saw every PE asleep: no PE moved (any sleep or wake
 * changes the word) and, looked at again after the source read its counts, nothing is ready anywhere.  A PE
 * counts itself asleep before its last look at its sources, whose handlers may still wake a rank on its run
 * queue: the network counts a message once its handler is over (with release order), so a source that read
 * a message as received sees here what its handler did. */
static bool still_idle(void)
{
    return atomic_load(&job.sleepers) == idle_seen && all_quiet() && atomic_load(&job.sleepers) == idle_seen;
}

/* Every PE of this process is idle and only a source's in_flight() is left: the sources' job-wide checks. */
static void progress_idle(uint64_t before)
{
    idle_seen = before;
    for (int i = 0; i < prog.n; i++)
        if (prog.src[i]->idle)
            prog.src[i]->idle(still_idle);
}

/* Called by a PE that just counted itself asleep with nothing to do: if every PE is asleep, every channel is
 * empty and no PE moved in between, nothing can ever happen again. */
static void check_deadlock(uint64_t before)
{
    if ((uint32_t)before != (uint32_t)job.npes || atomic_load(&job.done) || !all_quiet())
        return;
    if (progress_in_flight()) { /* a network's messages: the job-wide check (this process may be done) */
        progress_idle(before);
        return;
    }
    if (atomic_load(&job.live) == 0)
        return;
    if (atomic_load(&job.sleepers) == before)
        report_deadlock();
}

static void idle_wait(vmpi_pe *pe);

/* After a PE announced it sleeps: what it must still see to (a source's check may run handlers that wake
 * a VP here, so the run queue is asked too). */
static bool wake_reason(vmpi_pe *pe)
{
    return progress_ready(pe->id) || !vmpi_list_empty(&pe->runq) || atomic_load(&job.done) ||
           atomic_load(&job.stop_req) != pe->stop_seen;
}

static void idle(vmpi_pe *pe)
{
    unsigned long long t0 = vmpi_ticks();
    atomic_store_explicit(&pe->waiting, true, memory_order_relaxed);
    idle_wait(pe);
    atomic_store_explicit(&pe->waiting, false, memory_order_relaxed);
    atomic_store_explicit(&pe->idle, atomic_load_explicit(&pe->idle, memory_order_relaxed) + (vmpi_ticks() - t0),
                          memory_order_relaxed);
}

static void idle_wait(vmpi_pe *pe)
{
    if (progress_backlog(pe->id)) {
        /* records wait for room in a full ring: back to the loop, whose poll moves them out as room appears;
         * now and then give the core away, in case the receiving PE's thread needs it (PEs > cores) */
        if ((++pe->backlog_waits & 63) == 0)
            sched_yield();
        return;
    }
    /* more PE threads than cores: sleep at once (see block_in_place) */
    double until = vmpi_clock_now() + (VMPI_UNLIKELY(job.oversub) ? 0 : 1e-6 * (double)vmpi_cfg.idle_spin_us);
    for (unsigned i = 1;; i++) {
        if (progress_work(pe->id) || !vmpi_list_empty(&pe->runq) ||
            atomic_load_explicit(&job.done, memory_order_relaxed) || stop_pending(pe))
            return;
        __builtin_ia32_pause();
        if ((i & 63) == 0 && vmpi_clock_now() > until)
            break;
    }
    uint64_t now = atomic_fetch_add(&job.sleepers, (1ull << 32) + 1) + (1ull << 32) + 1;
    atomic_store(&pe->sleeping, 1);
    atomic_thread_fence(memory_order_seq_cst); /* pairs with the fence of a channel commit */
    /* The deadlock check asks every source (this PE's network worker among them, whose progress may run
     * handlers that wake a VP here) and may send: so the reasons to stay awake are looked at again after
     * it (a rank left ready on a sleeping PE was the hang of pt2pt/halo over TCP). */
    if (wake_reason(pe) || (vmpi_cfg.deadlock_check && (check_deadlock(now), wake_reason(pe)))) {
        if (atomic_exchange(&pe->sleeping, 0))
            atomic_fetch_add(&job.sleepers, (1ull << 32) - 1);
        return;
    }
    unsigned long long t0 = job.measure ? vmpi_ticks() : 0;
    if (job.measure)
        vmpi_runwait_renew(pe, t0); /* idle: free; a wait before this was nobody's run */
    if (prog.sleeper)
        prog.sleeper->sleep(pe->id, &pe->sleeping);
    else
        while (atomic_load(&pe->sleeping))
            vmpi_futex_wait(&pe->sleeping, 1);
    if (job.measure)
        pe->slept += vmpi_ticks() - t0;
}

/* ---- stopping the world ---- */

/* A poll while the world is stopped, bracketed by counters the leader reads to tell that no handler ran. */
static void counted_poll(vmpi_pe *pe)
{
    atomic_fetch_add(&pe->polls_begun, 1);
    progress_poll(pe);
    atomic_fetch_add(&pe->polls_ended, 1);
}

/* Whether no record is in flight anywhere: during a stop only handlers send records, so if every channel
 * is empty between two readings of the poll counters that agree (and no poll was in progress at the
 * first), nothing can arrive any more. */
static bool quiescent(unsigned long *snap)
{
    for (int i = 0; i < job.npes; i++) {
        unsigned long e = atomic_load(&job.pes[i].polls_ended);
        if (atomic_load(&job.pes[i].polls_begun) != e)
            return false;
        snap[i] = e;
    }
    for (int i = 0; i < job.npes; i++)
        if (progress_ready(job.first + i) || progress_backlog(job.first + i))
            return false;
    if (progress_in_flight())
        return false;
    for (int i = 0; i < job.npes; i++)
        if (atomic_load(&job.pes[i].polls_begun) != snap[i])
            return false;
    return true;
}

static void stop_here(vmpi_pe *pe)
{
    unsigned req = atomic_load(&job.stop_req);
    pe->stop_seen = req;
    /* read before counting itself in: once every PE is in, this stop may end and the next one's requester
     * set another leader (found by TSan, adapt/shrink 7x2) */
    bool leader = pe->id == job.stop_leader;
    atomic_fetch_add(&job.stopped, 1);
    if (!leader) {
        for (unsigned i = 1; atomic_load_explicit(&job.stop_done, memory_order_acquire) != req; i++) {
            counted_poll(pe);
            if ((i & 255) == 0)
                sched_yield(); /* more PEs than cores: let the leader's thread run */
            else
                __builtin_ia32_pause();
        }
        vmpi_runwait_renew(pe, vmpi_ticks()); /* what a stop costs is nobody's run */
        return;
    }
    unsigned long snap[job.npes];
    for (unsigned i = 1; atomic_load(&job.stopped) < job.npes; i++) {
        counted_poll(pe);
        if ((i & 255) == 0)
            sched_yield();
    }
    while (!quiescent(snap))
        counted_poll(pe);
    job.stop_fn(job.stop_arg);
    if (job.stop_vp_left) { /* its stop ends here: it resumes in the process it moved to */
        job.stop_vp_left = false;
        atomic_store(&job.stop_busy, 0);
    } else {
        vmpi_vp_wake(job.stop_vp); /* unless a completion during the drain woke it already */
    }
    if (job.stop_then) { /* after the wake: what it lets run may wake the requester too (on another PE) */
        void (*then)(void) = job.stop_then;
        job.stop_then = NULL;
        then();
    }
    atomic_store(&job.stopped, 0);
    atomic_store_explicit(&job.stop_done, req, memory_order_release);
    vmpi_runwait_renew(pe, vmpi_ticks());
}

void vmpi_sched_stop_world(void (*fn)(void *), void *arg)
{
    vmpi_vp *vp = vmpi_vp_self();
    int free_ = 0;
    while (!atomic_compare_exchange_weak(&job.stop_busy, &free_, 1)) {
        free_ = 0;
        vmpi_vp_yield(); /* another stop is being requested or run: it takes this PE in when it starts */
    }
    job.stop_fn = fn;
    job.stop_arg = arg;
    job.stop_vp = vp;
    job.stop_leader = vp->pe->id;
    vp->state = VMPI_VP_BLOCKED;
    vp->blocked_in = "a stop of the world (migration)";
    atomic_fetch_add(&job.stop_req, 1);
    for (int i = 0; i < job.npes; i++)
        wake_pe(&job.pes[i]);
    switch_to_sched(vp, false);
    vp->blocked_in = NULL;
    if (job.stop_vp == vp) /* (not when it resumes in another process, which it moved to during the stop) */
        atomic_store(&job.stop_busy, 0);
}

void vmpi_sched_move(vmpi_vp *vp, int pe)
{
    vmpi_pe *from = vp->pe, *to = pe_of(pe);
    if (from == to || vp->state == VMPI_VP_DONE)
        return;
    if (vp->state == VMPI_VP_READY) {
        vmpi_list_remove(&vp->node);
        vmpi_list_push_back(&to->runq, &vp->node);
    }
    vp->pe = to;
    from->nvps--;
    to->nvps++;
}

void vmpi_sched_remove_vp(vmpi_vp *vp)
{
    /* (ready: it came into this process earlier in the same stop, and moves on) */
    vmpi_assert((vp->state == VMPI_VP_BLOCKED || vp->state == VMPI_VP_READY) && atomic_load(&job.live) > 1);
    if (vp->state == VMPI_VP_READY)
        vmpi_list_remove(&vp->node);
    for (int i = 0; i < job.nvps; i++)
        if (job.vps[i] == vp) {
            memmove(&job.vps[i], &job.vps[i + 1], sizeof *job.vps * (size_t)(job.nvps - i - 1));
            job.nvps--;
            break;
        }
    vmpi_ctx_fiber_destroy(vp->fiber);
    vp->fiber = NULL;
    vp->pe->nvps--;
    atomic_fetch_sub(&job.live, 1);
    if (vp == job.stop_vp)
        job.stop_vp_left = true;
}

void vmpi_sched_stop_then(void (*fn)(void)) { job.stop_then = fn; }

vmpi_vp **vmpi_sched_vps(int *n)
{
    *n = job.nvps;
    return job.vps;
}

double vmpi_sched_tick_seconds(void)
{
    double dt = vmpi_clock_now() - job.t0;
    unsigned long long dk = vmpi_ticks() - job.ticks0;
    return dk ? dt / (double)dk : 0;
}

void vmpi_sched_measure(bool on) { job.measure = on; }

void vmpi_vp_wait_begin(void)
{
    if (job.measure)
        vmpi_pe_self()->current->wait_since = vmpi_ticks();
}

void vmpi_vp_wait_end(void)
{
    vmpi_pe *pe = vmpi_pe_self();
    if (job.measure && pe->current->wait_since)
        pe->polled += vmpi_ticks() - pe->current->wait_since;
    pe->current->wait_since = 0;
}

unsigned long long vmpi_vp_busy_now(void)
{
    vmpi_pe *pe = vmpi_pe_self();
    if (!job.measure)
        return pe->current->busy;
    return pe->current->busy + run_so_far(pe, pe->current, vmpi_ticks());
}

double vmpi_sched_pe_cpu_seconds(int id)
{
    struct timespec ts;
    vmpi_pe *pe = pe_of(id);
    if (pe->cpu_clock == (clockid_t)-1 || clock_gettime(pe->cpu_clock, &ts) != 0)
        return -1;
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void vmpi_sched_reset_load(void)
{
    for (int i = 0; i < job.nvps; i++)
        job.vps[i]->busy = 0;
    for (int i = 0; i < job.npes; i++) {
        job.pes[i].slept = job.pes[i].waited = 0;
        job.pes[i].cpu0 = vmpi_sched_pe_cpu_seconds(job.first + i);
    }
    job.reset_at = vmpi_clock_now();
}

double vmpi_sched_load_period(void) { return vmpi_clock_now() - job.reset_at; }

/* ---- the loop ---- */

static void sched_loop(vmpi_pe *pe)
{
    for (;;) {
        if (stop_pending(pe))
            stop_here(pe);
        vmpi_pe_poll(pe);
        vmpi_list *n = vmpi_list_pop_front(&pe->runq);
        if (n) {
            run_vp(pe, vmpi_container_of(n, vmpi_vp, node));
            continue;
        }
        if (atomic_load_explicit(&job.done, memory_order_acquire))
            return;
        idle(pe);
    }
}

/* ---- crash reports ---- */

/* The stack pointer of the code a fault interrupted; 0 where this build cannot read it. */
static uintptr_t fault_sp(const void *uc)
{
#if defined(__x86_64__)
    return (uintptr_t)((const ucontext_t *)uc)->uc_mcontext.gregs[REG_RSP];
#elif defined(__aarch64__)
    return (uintptr_t)((const ucontext_t *)uc)->uc_mcontext.sp;
#else
    (void)uc;
    return 0;
#endif
}

/* A rank overflowed its stack when the fault is in its guard, or when its stack pointer is below its stack:
 * a frame larger than the guard, from code built without -fstack-clash-protection, moved it past the guard
 * and the first access faulted further down (in the previous slot's unused heap). */
static bool overflowed(const vmpi_vp *vp, uintptr_t addr, uintptr_t sp, size_t *below)
{
    uintptr_t lo = (uintptr_t)vmpi_stack_bottom(&vp->stack);
    bool over = vmpi_stack_in_guard(&vp->stack, (const void *)addr) ||
                (sp != 0 && sp < lo && lo - sp < ((uintptr_t)1 << 40));
    uintptr_t deepest = sp != 0 && sp < addr ? sp : addr;
    *below = deepest < lo ? (size_t)(lo - deepest) : 0;
    return over;
}

/* "SIGFPE (Floating-point exception)" */
static int sig_text(char *out, size_t n, int sig)
{
    const char *abbrev = sigabbrev_np(sig), *descr = sigdescr_np(sig);
    return snprintf(out, n, "SIG%s (%s)", abbrev ? abbrev : "?", descr ? descr : "unknown signal");
}

/* A signal that ends the job in a rank (a fault, abort, a signal sent to it): names the rank and the signal,
 * writes out what the ranks printed (the die hook), and lets the process die of the signal. */
static void on_fault(int sig, siginfo_t *si, void *uc)
{
    int saved_errno = errno;
    vmpi_pe *pe = self_pe;
    vmpi_vp *vp = pe ? pe->current : NULL;
    char msg[320], name[96];
    int n;
    size_t below = 0;
    sig_text(name, sizeof name, sig);
    bool fault = si->si_code > 0 && (sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE || sig == SIGILL);
    if (vp && (sig == SIGSEGV || sig == SIGBUS) && overflowed(vp, (uintptr_t)si->si_addr, fault_sp(uc), &below))
        n = snprintf(msg, sizeof msg,
                     "vmpi: rank %d overflowed its stack of %zu KiB (it reached %zu KiB below the stack's end); "
                     "give it more with --stack-size (or +tcharm_stacksize)\n",
                     vp->id, (vp->stack.size >> 12) << 2 /* whole pages: the header takes the rest */,
                     (below + 1023) >> 10);
    else if (vp && fault)
        n = snprintf(msg, sizeof msg, "vmpi: rank %d (PE %d) crashed: %s at address %p\n", vp->id, pe->id, name,
                     si->si_addr);
    else if (vp)
        n = snprintf(msg, sizeof msg, "vmpi: rank %d (PE %d) %s: %s\n", vp->id, pe->id,
                     sig == SIGABRT ? "aborted" : "crashed", name);
    else if (fault)
        n = snprintf(msg, sizeof msg, "vmpi: crashed outside any rank: %s at address %p\n", name, si->si_addr);
    else
        n = snprintf(msg, sizeof msg, "vmpi: %s outside any rank\n", name);
    ssize_t w = write(STDERR_FILENO, msg, (size_t)n);
    (void)w;
    vmpi_log_run_die_hook();
    signal(sig, SIG_DFL);
    if (!fault) /* a fault returns to its instruction and happens again; abort and sent signals come again */
        raise(sig);
    errno = saved_errno;
}

/* SIGTERM, SIGINT, SIGHUP (a job killed from outside, Ctrl-C, a closed terminal): the ranks' output is
 * written out, then the process dies of the signal as it would have. */
static void on_stop(int sig)
{
    vmpi_log_run_die_hook();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void catch_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    static const int faults[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
    for (size_t i = 0; i < sizeof faults / sizeof *faults; i++)
        sigaction(faults[i], &sa, NULL);
    static const int stops[] = {SIGTERM, SIGINT, SIGHUP};
    for (size_t i = 0; i < sizeof stops / sizeof *stops; i++) {
        struct sigaction old;
        if (sigaction(stops[i], NULL, &old) == 0 && !(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_DFL) {
            struct sigaction st;
            memset(&st, 0, sizeof st);
            st.sa_handler = on_stop;
            st.sa_flags = SA_ONSTACK;
            sigaction(stops[i], &st, NULL);
        }
    }
}

/* The thread's previous signal stack (ASan has its own), put back when the thread leaves its PE. */
static VMPI_TLS stack_t prev_altstack;

static void enter_pe(vmpi_pe *pe)
{
    self_pe = pe;
    if (pthread_getcpuclockid(pthread_self(), &pe->cpu_clock) != 0)
        pe->cpu_clock = (clockid_t)-1;
    pe->cpu0 = vmpi_sched_pe_cpu_seconds(pe->id); /* the first period starts now, not at boot */
    vmpi_runwait_open(pe);
    pe->eh = __cxa_get_globals ? __cxa_get_globals() : NULL;
    pe->errno_loc = &errno;
    stack_t ss = {.ss_sp = pe->altstack, .ss_size = 64 * 1024, .ss_flags = 0};
    sigaltstack(&ss, &prev_altstack);
    if (vmpi_cfg.pin)
        vmpi_pin_thread(pe->id - job.first, job.npes, job.pin_first, job.pin_threads);
}

static void leave_pe(void)
{
    vmpi_runwait_close(self_pe);
    if (prev_altstack.ss_sp != NULL && !(prev_altstack.ss_flags & SS_DISABLE)) {
        prev_altstack.ss_flags = 0;
        sigaltstack(&prev_altstack, NULL);
    } else {
        stack_t off = {.ss_flags = SS_DISABLE};
        sigaltstack(&off, NULL);
    }
    self_pe = NULL;
}

static void *pe_thread(void *arg)
{
    vmpi_pe *pe = arg;
    vmpi_tls_warm(); /* before any rank runs here */
    enter_pe(pe);
    sched_loop(pe);
    leave_pe();
    return NULL;
}

int vmpi_sched_run(void)
{
    catch_signals();
    for (int i = 0; i < job.npes; i++) {
        job.pes[i].altstack = malloc(64 * 1024);
        if (job.pes[i].altstack == NULL)
            vmpi_fatal("out of memory for PE %d", i);
    }
    for (int i = 1; i < job.npes; i++)
        if (pthread_create(&job.pes[i].thread, NULL, pe_thread, &job.pes[i]) != 0)
            vmpi_fatal("cannot start worker thread for PE %d", i);
    job.reset_at = vmpi_clock_now(); /* the first measurement period: from here */
    vmpi_tls_warm();
    enter_pe(&job.pes[0]);
    sched_loop(&job.pes[0]);
    for (int i = 1; i < job.npes; i++)
        pthread_join(job.pes[i].thread, NULL);
    leave_pe();
    return atomic_load(&job.exit_code);
}

void vmpi_sched_fini(void)
{
    prog.n = 0;
    for (int i = 0; i < job.npes; i++)
        free(job.pes[i].altstack);
    free(job.pes);
    free(job.vps);
    memset(&job, 0, sizeof job);
}
