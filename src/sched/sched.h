/* SPDX-License-Identifier: BSD-3-Clause */
/* The scheduler: PEs (worker threads, one per core by default) running VPs (user-level threads) and runtime
 * messages.  Execution is message-driven: a VP that waits blocks; the handler of the message it waits for
 * wakes it.  Each PE owns its run queue and its VPs' state; other PEs reach it only through messages, which
 * come from the progress sources registered here (the transports of xport/: the in-process channels, and a
 * network).  The scheduler knows no transport: it asks every source whether work waits or is in flight. */
#ifndef VMPI_SCHED_SCHED_H
#define VMPI_SCHED_SCHED_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <pthread.h>
#include <time.h>
#include "base/list.h"
#include "iso/iso.h"
#include "ult/ctx.h"
#include "ult/stack.h"

typedef enum { VMPI_VP_NEW, VMPI_VP_READY, VMPI_VP_RUNNING, VMPI_VP_BLOCKED, VMPI_VP_DONE } vmpi_vp_state;

struct vmpi_pe;

typedef struct vmpi_vp {
    vmpi_fctx ctx;
    vmpi_stack stack;        /* in its isomalloc slot */
    vmpi_iso_heap *heap;     /* its slot's heap: malloc while it runs */
    struct vmpi_pe *pe;      /* the PE this VP lives on */
    vmpi_list node;          /* in its PE's run queue */
    int id;                  /* global VP number (the MPI world rank) */
    vmpi_vp_state state;
    const char *blocked_in;  /* what it waits for, for the deadlock report */
    const void *blocked_on;  /* the request it waits for (an upper layer's, for the report), or NULL */
    const char *call;        /* the outermost call it is in, when blocked_in names a step of it, or NULL */
    void (*main)(struct vmpi_vp *);
    int exit_code;
    unsigned long long busy; /* ticks it ran since the last vmpi_sched_reset_load (not blocked or polling) */
    unsigned long long wait_since; /* in a spin-wait (vmpi_vp_wait_begin) since then, in this run; 0: not */
    unsigned long long last_run; /* ticks charged for its previous run (sched/runwait.h) */
    void *eh_caught;         /* its C++ exception state while it is switched out (sched.c) */
    unsigned eh_uncaught;
    int err;                 /* its errno while it is switched out */
    uint64_t guard;          /* the stack-protector canary its frames were made with, when not its PE thread's
                              * (0): a rank restarted from another process's part than the others of its
                              * process (mpi/adapt/restart.c) runs with its own */
    void *fiber;             /* its TSan fiber (ult/ctx.h; NULL outside TSan builds) */
    uint64_t switches;       /* times it was switched in (MPI_T's context switches) */
    uint64_t migrations;     /* times a balancing step moved it to another PE (mpi/adapt) */
} vmpi_vp;

typedef struct vmpi_pe {
    VMPI_ALIGNED_CL _Atomic uint32_t sleeping;
    VMPI_ALIGNED_CL _Atomic bool waiting; /* idle or polling for a blocked VP: free to help (a hint) */
    VMPI_ALIGNED_CL int id;
    vmpi_fctx sched_ctx;     /* the scheduler loop's context while a VP runs */
    vmpi_vp *current;
    vmpi_list runq;
    long nvps;               /* VPs living here, not yet done */
    unsigned backlog_waits;  /* idle passes spent waiting for room in a full channel */
    pthread_t thread;
    void *altstack;
    unsigned long long slept; /* ticks asleep (the thread used no CPU) since the last reset */
    _Atomic unsigned long long idle; /* ticks with nothing to run (polling or asleep), since the start: written
                                      * by its thread only, read by any (MPI_T) */
    clockid_t cpu_clock;     /* the PE thread's CPU-time clock */
    struct vmpi_cxa_eh_globals *eh; /* the thread's C++ exception state (NULL in a C program) */
    int *errno_loc;          /* the thread's errno */
    double cpu0;             /* its reading at the last reset */
    unsigned long long run_start; /* ticks when the running VP was switched in */
    unsigned long long polled; /* ticks the running VP spent polling for its own wake-up (block_in_place) */
    int runwait_fd;          /* the thread's run-delay reader (sched/runwait.h), or -1 */
    long long runwait_ref;   /* its last reading, and when (ticks): see runwait_check in sched.c */
    unsigned long long runwait_at;
    unsigned long long run_mark; /* ticks of the running VP's last reading (or its switch-in) */
    unsigned long long run_waited; /* ticks the running VP's PE has waited for its core in this run */
    unsigned long long waited; /* ticks taken off long runs for waiting for the core, since the last reset */
    unsigned stop_seen;      /* the last stop of the world this PE took part in */
    _Atomic unsigned long polls_begun, polls_ended; /* channel polls while the world is stopped */
} vmpi_pe;


/* Setup, from the process's main thread: this process runs PEs first .. first + npes - 1 of the job's
 * `job_npes` (PEs are numbered across the job's processes). */
void vmpi_sched_init(int first, int npes, int job_npes);
/* Places `vp` on PE `pe` with its stack and heap in isomalloc slot `vp->id` (vmpi_iso_init first), unless
 * the caller opened the slot already (vp->stack and vp->heap set: the VP itself may live in it);
 * `vp->id` and `vp->main` are set by the caller. */
void vmpi_sched_add_vp(vmpi_vp *vp, int pe);
/* Restart: a VP restored from a checkpoint (its stack, heap and saved context back at their addresses) is
 * placed on PE `pe`, ready to resume where it was switched out. */
void vmpi_sched_adopt_vp(vmpi_vp *vp, int pe);
/* Runs every PE until all VPs are done; PE 0 runs on the calling thread.  Returns the first non-zero exit
 * code of a VP, or 0. */
int vmpi_sched_run(void);
void vmpi_sched_fini(void);
/* When this process's last VP is done, `fn` runs (on its PE) instead of ending the PEs' loops: in a job of
 * several processes the others may still need this process's PEs (their operations on its memory); the
 * transport calls vmpi_sched_end once every process is done.  Without it the loops end at once. */
void vmpi_sched_set_local_done(void (*fn)(void));
/* More PE threads on this node than cores: waits give the core away (the PE sleeps) instead of spinning
 * on it, as the thread that would end them may be waiting for it, and a spin holds the core until the
 * kernel's tick (sched_yield does not hand it over on this project's kernels: measured, see PERFORMANCE). */
void vmpi_sched_set_oversubscribed(bool on); /* before vmpi_sched_run */
/* Where this process's PE threads are among the node's (its first one's place, how many the node runs),
 * for pinning (sched/pin.h); before vmpi_sched_run.  Default: the process is alone on the node. */
void vmpi_sched_set_pinning(int node_first, int node_threads);
bool vmpi_sched_oversubscribed(void);
/* Ends the PEs' loops (any thread). */
void vmpi_sched_end(void);
/* The job's PEs, over every process. */
int vmpi_sched_npes(void);
/* This process's PEs: first, count. */
int vmpi_sched_local_first(void);
int vmpi_sched_local_npes(void);
/* One of this process's PEs, by its number in the job. */
vmpi_pe *vmpi_sched_pe(int id);

/* From a running VP or handler.  The value is reloaded after every call (the compiler cannot assume an
 * opaque call leaves it unchanged), so it stays right when a VP resumes on another PE. */
extern VMPI_TLS vmpi_pe *vmpi_self_pe_;
static inline vmpi_pe *vmpi_pe_self(void) { return vmpi_self_pe_; }
static inline vmpi_vp *vmpi_vp_self(void)
{
    vmpi_pe *pe = vmpi_pe_self();
    return pe ? pe->current : (vmpi_vp *)0;
}
/* Blocks the calling VP until vmpi_vp_wake; `why` names the wait for diagnostics. */
void vmpi_vp_block(const char *why);
/* The same, waiting for `on` (an upper layer's request, which the wait describer reads in a deadlock report). */
void vmpi_vp_block_on(const char *why, const void *on);
/* The deadlock report's line for a blocked VP ("waits in MPI_Recv for ..."), from the layer that knows what
 * blocked_on is; without one it names blocked_in. */
void vmpi_sched_set_wait_describer(void (*fn)(const vmpi_vp *vp, char *out, size_t n));
/* Names the call the calling VP is in for the deadlock report, if no outer one is named (the waits inside a
 * collective or MPI_Finalize are receives and barriers); returns what vmpi_vp_call_leave takes. */
static inline const char *vmpi_vp_call_enter(const char *name)
{
    vmpi_vp *vp = vmpi_vp_self();
    if (vp == (vmpi_vp *)0 || vp->call != (const char *)0)
        return (const char *)0;
    vp->call = name;
    return name;
}
static inline void vmpi_vp_call_leave(const char **entered)
{
    if (*entered)
        vmpi_vp_self()->call = (const char *)0;
}
/* In a function that may block: names it (the outermost such function) until it returns. */
#define VMPI_VP_CALL(name) \
    __attribute__((cleanup(vmpi_vp_call_leave), unused)) const char *vmpi_vp_call_ = vmpi_vp_call_enter(name)
/* Puts the calling VP at the end of its PE's run queue and runs others (and the channels) meanwhile. */
void vmpi_vp_yield(void);
/* Makes a blocked VP runnable; only on the VP's own PE. */
void vmpi_vp_wake(vmpi_vp *vp);
/* Ends the calling VP. */
VMPI_NORETURN void vmpi_vp_exit(int code);
/* Whether PE `id` is only waiting for messages right now (a racy hint for offering it work). */
static inline bool vmpi_sched_pe_waiting(vmpi_pe *pe) { return atomic_load_explicit(&pe->waiting, memory_order_relaxed); }
/* Wakes PE `id` if it sleeps (after something was published for it). */
void vmpi_sched_wake(int id);
/* Runs the handlers of every record waiting for the calling PE. */
void vmpi_pe_poll(vmpi_pe *pe);

/* ---- progress sources ----
 * Whatever delivers work to PEs (a transport) registers a source.  The scheduler's loop polls every source;
 * a VP waiting alone on its PE, an idle PE before it sleeps, the deadlock check and a stop of the world ask
 * every source instead of looking at any transport's state:
 *   poll(pe)     runs the handlers of what arrived for PE `pe` (on that PE); returns how many ran;
 *   ready(pe)    something waits for PE `pe`'s poll (cheap: spin loops call it; any thread);
 *   backlog(pe)  PE `pe` has outgoing work that only its own polls move on (a full ring): it must not sleep;
 *   work(pe)     ready(pe) || backlog(pe) in one call (the spin loops' check: one call per pass; asked
 *                only by PE `pe` itself);
 *   in_flight()  optional (NULL: none): work started anywhere that no ready() shows yet and that will
 *                show later (a network's messages on the wire); a PE may sleep, but the job is not
 *                deadlocked and a stop of the world is not quiescent while it is true.
 * A source that wakes a sleeping PE when it delivers calls vmpi_sched_wake after publishing (with a full
 * fence between, as the PE fences between counting itself asleep and its last ready() check). */
typedef struct vmpi_progress_source {
    const char *name;
    int (*poll)(vmpi_pe *pe);
    bool (*ready)(int pe);
    bool (*backlog)(int pe);
    bool (*work)(int pe);
    bool (*in_flight)(void);
    /* optional: every PE of this process is asleep with nothing ready or queued (its ranks blocked or all
     * done), and only this source's in_flight() keeps the job from being declared deadlocked: the source
     * may find out job-wide (and report with vmpi_sched_report_blocked).  What it reads of its own state
     * to describe this idleness counts only if still_idle() says, after the reading, that no PE moved
     * meanwhile (a PE that a message woke just then would be active behind a report of idleness). */
    void (*idle)(bool (*still_idle)(void));
    /* optional, one source at most (a network's): how an idle PE sleeps, instead of on a futex of its
     * `sleeping` word, so that the source's own events can wake it directly.  sleep(pe, word) runs on PE
     * `pe` and returns once *word is 0 (cleared by vmpi_sched_wake, which the source calls itself for its
     * events); wake(pe) follows every clearing of a sleeping PE's word (any thread). */
    void (*sleep)(int pe, _Atomic uint32_t *word);
    void (*wake)(int pe);
} vmpi_progress_source;
/* The in-process transport's source, defined by that layer (xport/chan.c) and bound at link time, not through
 * the registry: the scheduler's spin loops call it on every pass, and through a pointer (not inlined) the
 * calls cost 12% of the cross-PE message latency.  Weak: a program without it (a unit test of the scheduler
 * alone) has only registered sources. */
extern const vmpi_progress_source vmpi_progress_builtin __attribute__((weak));
/* The deadlock report of this process's blocked ranks; with `job_live` > 0 first its header line ("deadlock:
 * all N live rank(s) ...", N = job_live).  A source's job-wide check calls it once the whole job is found
 * deadlocked. */
void vmpi_sched_report_blocked(long job_live);
/* This process's VPs not yet done. */
long vmpi_sched_live(void);
/* Adds a source (before the PEs run); at most VMPI_PROGRESS_MAX. */
#define VMPI_PROGRESS_MAX 4
void vmpi_sched_progress_add(const vmpi_progress_source *src);

/* ---- stopping the world, moving VPs (migration within the process) ----
 * vmpi_sched_stop_world, called by a VP, blocks it and brings every PE to its scheduler loop (a VP that
 * runs is waited for until it blocks or yields; one polling for its wake-up stops at once), then drains
 * the channels until no record is in flight anywhere, and runs fn(arg) on the caller's PE while nothing
 * else runs.  fn may move VPs with vmpi_sched_move and rewrite any state that depends on where VPs live.
 * The caller resumes afterwards, on whichever PE it was moved to.  One stop at a time: a second caller
 * waits for the first. */
void vmpi_sched_stop_world(void (*fn)(void *), void *arg);
/* Inside fn: VP `vp` lives on PE `pe` from now on (ready or blocked; a finished VP stays). */
void vmpi_sched_move(vmpi_vp *vp, int pe);
/* Inside fn: blocked VP `vp` leaves this process (it moves to another one, which adopts it): the scheduler
 * forgets it.  The process keeps at least one live VP (its PEs serve the job until every process's are done).
 * The VP that asked for the stop may leave too: it then returns from vmpi_sched_stop_world in the other
 * process, once that one runs its VPs again. */
void vmpi_sched_remove_vp(vmpi_vp *vp);
/* Inside fn: `then` runs when the stop ends, after the requester is woken, before the other PEs go on. */
void vmpi_sched_stop_then(void (*then)(void));
/* Inside fn: every VP (by id order of creation) and their number. */
vmpi_vp **vmpi_sched_vps(int *n);
/* Inside fn: seconds per tick of vmpi_ticks (calibrated since the start of the job). */
double vmpi_sched_tick_seconds(void);
/* Turns load measurement on (before the VPs run): about 10 ns per switch, so only when a balancer that uses
 * loads is chosen. */
void vmpi_sched_measure(bool on);
/* Brackets a spin-wait of the calling VP (polling for something, yielding now and then): that time counts
 * as idle, not as the VP's load. */
void vmpi_vp_wait_begin(void);
void vmpi_vp_wait_end(void);
/* The calling VP's busy ticks, its current run included. */
unsigned long long vmpi_vp_busy_now(void);
/* Inside fn: zeroes every VP's busy ticks and every PE's sleep ticks; a new measurement period starts. */
void vmpi_sched_reset_load(void);
/* Seconds since the period started. */
double vmpi_sched_load_period(void);
/* CPU seconds PE `id`'s thread has used (its thread CPU clock), or -1 when unavailable. */
double vmpi_sched_pe_cpu_seconds(int id);

#endif
