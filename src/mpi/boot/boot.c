/* SPDX-License-Identifier: BSD-3-Clause */
/* Starting a job: read the settings, create the ranks (block-mapped onto PEs) and run them; and a rank's
 * end.  Above every other area of mpi/: boot is where they are all set up and torn down. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/layout.h"
#include "base/log.h"
#include "base/tunables.h"
#include "img/img.h"
#include "iso/iso.h"
#include "mpi/adapt/adapt.h"
#include "mpi/boot/boot.h"
#include "mpi/coll/coll.h"
#include "mpi/coll/hier.h"
#include "mpi/comm/topo.h"
#include "mpi/core/attr.h"
#include "mpi/core/errcode.h"
#include "mpi/core/group.h"
#include "mpi/core/rank.h"
#include "mpi/core/session.h"
#include "mpi/core/waits.h"
#include "mpi/pt2pt/pt2pt.h"
#include "mpi/rma/am.h"
#include "mpi/rma/remote.h"
#include "mpi/rma/win.h"
#include "msg/loc.h"
#include "sched/pin.h"
#include "xport/netjob.h"

extern char **environ;

static struct {
    vmpi_rank **ranks;       /* each in its own isomalloc slot (core's table: vmpi_rank_get) */
    int n;
    vmpi_main_fn main;
    vmpi_priv_method priv;   /* how the program's globals are made per rank (img.h) */
} R;

static long plus_value(const char *opt, const char *text)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (end == text || *end != '\0' || errno || v < 1)
        vmpi_fatal("bad value '%s' for %s: expected a positive integer", text, opt);
    return v;
}

/* AMPI/Charm++ spelling of runtime options after the program name: +pN, +vpN, +tcharm_stacksize N,
 * +balancer NAME.
 * They are consumed, as Charm++ does, so the program never sees them. */
static void take_plus_args(int *argc, char **argv)
{
    int out = 1;
    for (int i = 1; i < *argc; i++) {
        const char *a = argv[i];
        if (strncmp(a, "+vp", 3) == 0) {
            const char *v = a[3] ? a + 3 : (i + 1 < *argc ? argv[++i] : "");
            vmpi_cfg.nranks = plus_value("+vp", v);
            vmpi_tunable_given("ranks", v);
        } else if (strncmp(a, "+p", 2) == 0 && (a[2] == '\0' || (a[2] >= '0' && a[2] <= '9'))) {
            const char *v = a[2] ? a + 2 : (i + 1 < *argc ? argv[++i] : "");
            vmpi_cfg.npes = plus_value("+p", v);
            vmpi_tunable_given("pes", v);
        } else if (strcmp(a, "+balancer") == 0 && i + 1 < *argc) {
            vmpi_cfg.balancer = argv[++i];
            vmpi_tunable_given("balancer", vmpi_cfg.balancer);
        } else if (strncmp(a, "+balancer=", 10) == 0) {
            vmpi_cfg.balancer = a + 10;
            vmpi_tunable_given("balancer", vmpi_cfg.balancer);
        } else if (strncmp(a, "+tcharm_stacksize", 17) == 0) {
            const char *v = a[17] == '=' ? a + 18 : (a[17] ? "" : (i + 1 < *argc ? argv[++i] : ""));
            if (!vmpi_parse_size(v, &vmpi_cfg.stack_size))
                vmpi_fatal("bad value '%s' for +tcharm_stacksize: expected a size such as 1M", v);
            vmpi_tunable_require("stack-size", vmpi_cfg.stack_size, "+tcharm_stacksize");
            vmpi_tunable_given("stack-size", v);
        } else {
            argv[out++] = argv[i];
        }
    }
    argv[out] = NULL;
    *argc = out;
}

static void rank_main(vmpi_vp *vp)
{
    vmpi_rank *rk = vmpi_container_of(vp, vmpi_rank, vp);
    vmpi_main_fn main = R.main;
    if (R.priv != VMPI_PRIV_NONE) {
        /* the rank's copy of the program: made and constructed here, on the rank, the upper layers' setup
         * between the two (the copy's constructors may call them).  No rank starts main before every copy is
         * ready, as no process of a process-based MPI would: a program timing its first messages must not be
         * timing the loading of the ranks after it. */
        vmpi_img_rank_make(vp->heap);
        vmpi_rank_run_start(rk);
        main = vmpi_img_rank_construct(vp->heap, rk->argc, rk->argv, environ);
        vmpi_coll_barrier(&rk->world, NULL);
    } else {
        vmpi_rank_run_start(rk);
    }
    vmpi_rank_exit(main(rk->argc, rk->argv, environ));
}

void vmpi_rank_exit(int code)
{
    vmpi_rank *rk = vmpi_rank_self();
    if (code != 0 && rk->live) { /* between MPI_Init and MPI_Finalize, or with a session open */
        vmpi_log_run_die_hook(); /* the ranks' output first, then the message */
        vmpi_warn("rank %d exited with status %d before %s; stopping the job", rk->world_rank, code,
                  rk->initialized && !rk->finalized ? "MPI_Finalize" : "MPI_Session_finalize");
        vmpi_die(code);
    }
    if (R.priv != VMPI_PRIV_NONE) /* the destructors of its copy, while its output is still its own */
        vmpi_img_rank_exit(rk->vp.heap);
    vmpi_stdio_rank_done(rk);
    vmpi_win_release_all();
    vmpi_comm_release_all();
    vmpi_hier_release(&rk->world); /* the predefined communicators' per-rank state between processes */
    vmpi_hier_release(&rk->self);
    vmpi_vp_exit(code);
}

void vmpi_start_exit(int code)
{
    if (vmpi_rank_self() != NULL)
        vmpi_rank_exit(code);
}

/* The environment is copied into the job heap, and `environ` (what getenv reads, what main gets as envp)
 * points at the copy: the strings a rank got before a checkpoint come back with the job heap in a job
 * restarted from it, where they would otherwise point into the old process's stack.  A restarted job
 * copies its own environment again, after the checkpoint is read (the old copy stays for old pointers).
 * Last of the job heap's boot allocations: the tls method's copy must be its first block in every run. */
static void environ_to_job_heap(void)
{
    size_t n = 0, bytes = 0;
    for (char **e = environ; *e; e++, n++)
        bytes += strlen(*e) + 1;
    char **copy = vmpi_iso_job_malloc(sizeof(char *) * (n + 1) + bytes);
    if (copy == NULL)
        return; /* the process's own, as before */
    char *str = (char *)(copy + n + 1);
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(environ[i]) + 1;
        copy[i] = memcpy(str, environ[i], len);
        str += len;
    }
    copy[n] = NULL;
    environ = copy;
}

/* Rank r's state lives at the bottom of its slot's heap, with everything the rank allocates later: what
 * is copied with the slot is the rank, whole. */
static vmpi_rank *rank_new(int r)
{
    vmpi_stack st;
    vmpi_iso_heap *h = vmpi_iso_slot_open(r, &st);
    vmpi_rank *rk = vmpi_iso_heap_calloc(h, sizeof *rk);
    if (rk == NULL)
        vmpi_fatal("no room for rank %d's state in its slot; raise --iso-slot-size", r);
    rk->vp.stack = st;
    rk->vp.heap = h;
    return rk;
}

static void rank_init(vmpi_rank *rk, int r, int n, int pe, int argc, char **argv)
{
    rk->world_rank = r;
    rk->world = (vmpi_comm){.ctx = VMPI_CTX_WORLD, .rank = r, .size = n, .peer_size = n, .world_base = 0,
                            .errh = MPI_ERRORS_ARE_FATAL, .handle = MPI_COMM_WORLD, .name = "MPI_COMM_WORLD",
                            .info = MPI_INFO_NULL};
    rk->self = (vmpi_comm){.ctx = VMPI_CTX_SELF, .rank = 0, .size = 1, .peer_size = 1, .world_base = r,
                           .errh = MPI_ERRORS_ARE_FATAL, .handle = MPI_COMM_SELF, .name = "MPI_COMM_SELF",
                           .info = MPI_INFO_NULL};
    rk->sess = rk->world;
    rk->sess.ctx = VMPI_CTX_SESSION;
    rk->sess.handle = MPI_COMM_NULL; /* never given to the program */
    snprintf(rk->sess.name, sizeof rk->sess.name, "the sessions' internal communicator");
    vmpi_req_table_init(&rk->reqs);
    /* each rank gets its own argv (MPI_Init may rewrite it), strings included, in its slot: a rank
     * restarted from a checkpoint in another process finds it where it was */
    size_t bytes = sizeof(char *) * (size_t)(argc + 1);
    for (int i = 0; i < argc; i++)
        bytes += strlen(argv[i]) + 1;
    rk->argc = argc;
    rk->argv = vmpi_iso_heap_malloc(rk->vp.heap, bytes);
    if (rk->argv == NULL)
        vmpi_fatal("no room for rank %d's arguments in its slot; raise --iso-slot-size", r);
    char *str = (char *)(rk->argv + argc + 1);
    for (int i = 0; i < argc; i++) {
        size_t len = strlen(argv[i]) + 1;
        rk->argv[i] = memcpy(str, argv[i], len);
        str += len;
    }
    rk->argv[argc] = NULL;
    rk->vp.id = r;
    rk->vp.main = rank_main;
    vmpi_sched_add_vp(&rk->vp, pe);
    vmpi_msg_ep_init(&rk->ep, r, &rk->vp, pe);
}

/* Whether waiting PEs sleep at once (--pe-wait): by default when `threads` PE threads share this node's
 * cores, as a spinning thread holds a core another PE's thread needs until the kernel's tick. */
static bool pe_wait_sleeps(long threads)
{
    if (vmpi_cfg.pe_wait != VMPI_PE_WAIT_AUTO)
        return vmpi_cfg.pe_wait == VMPI_PE_WAIT_SLEEP;
    return threads > vmpi_pin_ncores();
}

int vmpi_boot_image(int argc, char **argv, vmpi_main_fn main, int method)
{
    R.priv = method == 2 ? VMPI_PRIV_TLS : VMPI_PRIV_AUTO;
    return vmpi_boot(argc, argv, main);
}

int vmpi_boot(int argc, char **argv, vmpi_main_fn main)
{
    vmpi_tunables_load();
    if (!vmpi_cfg.aslr)
        vmpi_layout_fix(argv);
    vmpi_tunables_warn_unknown(); /* once: after the layout's re-execution */
    vmpi_adapt_ckpt_boot();
    take_plus_args(&argc, argv);
    bool restart = vmpi_cfg.restart[0] != '\0';
    /* a job of several OS processes (started by a PMIx launcher): -p PEs in each */
    const vmpi_net_job *net = vmpi_xport_net_open() ? vmpi_xport_net_job() : NULL;
    long K = net ? net->nprocs : 1, nprocs = K > 1 ? K : vmpi_cfg.emulate_procs;
    if (restart) /* the checkpoint says how many ranks, and where their slots are (this process's part) */
        vmpi_adapt_restart_open(vmpi_cfg.restart, (int)K, net ? net->self : 0);
    long n = vmpi_cfg.nranks, p = vmpi_cfg.npes;
    if (n > (1 << 24))
        vmpi_fatal("%ld ranks requested; at most %d are supported", n, 1 << 24);
    if (K > 1) {
        if (vmpi_cfg.emulate_procs > 1)
            vmpi_fatal("--emulate-procs (VMPI_EMULATE_PROCS) emulates several processes in one: not in a job of %ld "
                       "processes", K);
        if (n < K)
            vmpi_fatal("%ld ranks (-n) in %ld processes: every process needs at least one rank", n, K);
        if (vmpi_cfg.pes_active)
            vmpi_fatal("--pes-active (VMPI_PES_ACTIVE) is not supported in a job of several processes");
        if (p == 0) /* the cores of the node, shared by its processes */
            p = vmpi_pin_ncores() / (net->local_size > 0 ? net->local_size : 1);
        if (p < 1)
            p = 1;
        if (p > n / K)
            p = n / K; /* the same in every process: the process with the fewest ranks decides */
        p *= K;    /* the job's PEs */
    } else {
        if (p == 0)
            p = vmpi_pin_ncores();
        if (p > n)
            p = n; /* a PE without ranks would only idle */
        if (nprocs > p)
            vmpi_fatal("--emulate-procs %ld (VMPI_EMULATE_PROCS) needs at least %ld PEs, one per process group; "
                       "the job has %ld (-p)", nprocs, nprocs, p);
    }
    if (vmpi_cfg.pes_active > p)
        vmpi_fatal("VMPI_PES_ACTIVE=%ld (--pes-active) is more than the job's %ld PEs: expected 0 (all) to %ld",
                   vmpi_cfg.pes_active, p, p);
    R.n = (int)n;
    vmpi_ranks_set(NULL, R.n); /* the count first: the set-up below reads it */
    R.main = main;
    vmpi_iso_init((int)n, vmpi_cfg.stack_size, vmpi_cfg.iso_base, vmpi_cfg.iso_slot_size);
    if (R.priv != VMPI_PRIV_NONE) {
        vmpi_img_open(R.priv, main, (int)n, argc, argv, restart);
    } else if (n > 1) {
        size_t bytes, globals = vmpi_img_shared_globals(&bytes);
        if (globals)
            vmpi_warn("the program was built with -privatize=none: its %zu mutable globals and statics (%zu "
                      "bytes) are shared by all %ld ranks (vmpi-globals %s lists them)", globals, bytes, n, argv[0]);
    }
    if (K > 1) {
        int self = net->self, per = (int)(p / K);
        vmpi_sched_init(self * per, per, (int)p);
        int local = net->local_size > 0 ? net->local_size : 1;
        vmpi_sched_set_oversubscribed(pe_wait_sleeps((long)per * local));
        vmpi_sched_set_pinning(net->local_rank * per, local * per);
        /* what must be the same in every process: compared at the wire-up */
        struct {
            long n, p, iso_base, slot_size, stack_size, eager_max, channel_size;
            int priv;
        } g;
        memset(&g, 0, sizeof g);
        g.n = n, g.p = p, g.iso_base = (long)vmpi_cfg.iso_base, g.slot_size = (long)vmpi_cfg.iso_slot_size;
        g.stack_size = (long)vmpi_cfg.stack_size, g.eager_max = (long)vmpi_cfg.eager_max;
        g.channel_size = (long)vmpi_cfg.channel_size, g.priv = (int)R.priv;
        vmpi_xport_set_geometry(&g, sizeof g);
    } else {
        vmpi_sched_init(0, (int)p, (int)p);
        vmpi_sched_set_oversubscribed(pe_wait_sleeps(p));
        vmpi_sched_set_pinning(0, (int)p);
    }
    vmpi_sched_set_wait_describer(vmpi_waits_describe);
    vmpi_msg_init((int)n, (int)p, (int)nprocs);
    vmpi_rma_remote_init(); /* active-message handlers: after the transports, the same order everywhere */
    vmpi_group_init((int)n);
    vmpi_coll_init();
    vmpi_topo_init();
    vmpi_bsend_init();
    vmpi_adapt_init();
    R.ranks = calloc((size_t)n, sizeof *R.ranks);
    if (R.ranks == NULL)
        vmpi_fatal("out of memory creating %ld ranks", n);
    vmpi_ranks_set(R.ranks, (int)n);
    if (restart) {
        vmpi_adapt_restart_load(R.ranks, (int)n);
    } else {
        /* this process's ranks (in a job of several processes, the others' are elsewhere: NULL here) */
        int self = K > 1 ? net->self : -1;
        for (long r = 0; r < n; r++)
            if (self < 0 || vmpi_loc_start_proc((int)r, (int)n) == self)
                R.ranks[r] = rank_new((int)r);
        long act = vmpi_cfg.pes_active > 0 && vmpi_cfg.pes_active < p ? vmpi_cfg.pes_active : p;
        vmpi_adapt_set_active((int)act);
        for (long r = 0; r < n; r++) { /* block mapping over the PEs active at the start */
            int pe = vmpi_loc_start_pe((int)r, (int)n, (int)act);
            if (R.ranks[r])
                rank_init(R.ranks[r], (int)r, (int)n, pe, argc, argv);
            else
                vmpi_loc_set((int)r, pe); /* another process's */
        }
    }
    environ_to_job_heap();
    vmpi_adapt_count_ranks();
    vmpi_stdio_init(restart);
    if (restart)
        vmpi_img_restarted(); /* after stdio: the C++ streams write to the ranks' line buffers */
    int code = vmpi_sched_run();
    if (restart)
        vmpi_adapt_restart_done();
    vmpi_stdio_fini();
    vmpi_img_close();
    fflush(NULL);
    for (long r = 0; r < n; r++) {
        vmpi_rank *rk = R.ranks[r];
        if (rk == NULL)
            continue;
        vmpi_req_table_fini(&rk->reqs);
        vmpi_iso_free_any(rk->argv); /* in its slot, also in sanitizer builds */
        free(rk->errh_user);
        if (rk->adapt)
            free(rk->adapt->ckpt_dir);
        free(rk->adapt);
        vmpi_attr_rank_fini(rk);
        vmpi_am_rank_fini(rk);
        vmpi_errcode_rank_fini(rk);
        vmpi_session_rank_fini(rk);
    }
    vmpi_group_fini();
    vmpi_msg_fini();
    vmpi_sched_fini();
    free(R.ranks);
    return code;
}
