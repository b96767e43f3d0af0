/* SPDX-License-Identifier: BSD-3-Clause */
/* A job of several OS processes: loads the network plugin (xport/net.h), gives it the host's functions, and
 * plugs its transport and progress source in. */
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/log.h"
#include "sched/sched.h"
#include "xport/emul.h"
#include "xport/net.h"
#include "xport/netjob.h"
#include "xport/procs.h"

static const vmpi_net *net;
static vmpi_net_job job;
static bool started;

/* The plugin, and UCX and PMIx under it, allocate with malloc, which from a rank's context is the rank's own
 * slot heap (iso's malloc): memory that a rank takes along when it moves to another process, while the
 * transport's pools here still point into it.  So every call into the plugin runs with the system allocator
 * (PLUGIN), and what it calls back (handlers, on the thread that called in) with the caller's heap again. */
static VMPI_TLS vmpi_iso_heap *caller_heap;
#define PLUGIN(call)                                                                                          \
    do {                                                                                                      \
        vmpi_iso_heap *h_ = vmpi_iso_cur_, *o_ = caller_heap;                                                 \
        caller_heap = h_;                                                                                     \
        vmpi_iso_cur_ = NULL;                                                                                 \
        call;                                                                                                 \
        vmpi_iso_cur_ = h_;                                                                                   \
        caller_heap = o_;                                                                                     \
    } while (0)
#define PLUGIN_R(type, call)                                                                                  \
    ({                                                                                                        \
        type r_;                                                                                              \
        PLUGIN(r_ = call);                                                                                    \
        r_;                                                                                                   \
    })

static int host_self_pe(void)
{
    vmpi_pe *pe = vmpi_pe_self();
    return pe ? pe->id : -1;
}

static void host_deliver(int pe, int src_pe, uint32_t id, void *msg, size_t len)
{
    vmpi_iso_heap *h = vmpi_iso_cur_;
    vmpi_iso_cur_ = caller_heap;
    vmpi_xport_am_table[id](vmpi_sched_pe(pe), src_pe, msg, len);
    vmpi_iso_cur_ = h;
}

static void (*ranks_of_fn)(int proc, char *buf, size_t n);
void vmpi_xport_net_on_ranks_of(void (*fn)(int proc, char *buf, size_t n)) { ranks_of_fn = fn; }

static void host_ranks_of(int proc, char *buf, size_t n)
{
    if (ranks_of_fn) {
        ranks_of_fn(proc, buf, n);
        return;
    }
    int a = vmpi_xport_first_pe(proc), b = vmpi_xport_first_pe(proc + 1) - 1;
    snprintf(buf, n, a == b ? "PE %d" : "PEs %d-%d", a, b);
}

static const vmpi_net_host host = {
    .abi = VMPI_NET_ABI,
    .fatal = vmpi_fatal,
    .warn = vmpi_warn,
    .self_pe = host_self_pe,
    .deliver = host_deliver,
    .wake = vmpi_sched_wake,
    .local_atomic = vmpi_xport_local_atomic,
    .end = vmpi_sched_end,
    .report_blocked = vmpi_sched_report_blocked,
    .live = vmpi_sched_live,
    .die = vmpi_die,
    .ranks_of = host_ranks_of,
};

/* UCX's defaults that would take over what vmpi does itself: its handlers of fatal signals (vmpi's crash
 * reports), its malloc hooks (the start object's malloc).  libucs reads them when it loads, so they are set
 * before the plugin is opened, unless the user set them. */
static void ucx_defaults(void)
{
    setenv("UCX_ERROR_SIGNALS", "", 0);
    setenv("UCX_MEM_MALLOC_HOOKS", "n", 0);
    setenv("UCX_WARN_UNUSED_ENV_VARS", "n", 0);
}

/* This process ends the job (a fatal error, MPI_Abort, a deadlock report): the launcher stops the others. */
static void on_exit_code(int code)
{
    if (code != 0 && net)
        net->abort(code, NULL);
}

/* The plugin is installed beside libvmpi. */
static void *load(char *path, size_t n)
{
    Dl_info di;
    const char *dir = ".";
    char buf[4096];
    if (dladdr((void *)&vmpi_xport_net_open, &di) && di.dli_fname) {
        snprintf(buf, sizeof buf, "%s", di.dli_fname);
        char *slash = strrchr(buf, '/');
        if (slash) {
            *slash = '\0';
            dir = buf;
        }
    }
    snprintf(path, n, "%s/%s", dir, VMPI_NET_LIB);
    return dlopen(path, RTLD_NOW | RTLD_LOCAL);
}

bool vmpi_xport_net_open(void)
{
    if (getenv("PMIX_NAMESPACE") == NULL)
        return false; /* not started by a PMIx launcher: one process */
    ucx_defaults();
    char path[4200], why[512];
    void *lib = load(path, sizeof path);
    if (lib == NULL)
        vmpi_fatal("this process was started by a PMIx launcher (PMIX_NAMESPACE is set), but the network plugin "
                   "%s cannot be loaded: %s", path, dlerror());
    vmpi_net_entry_fn entry = (vmpi_net_entry_fn)dlsym(lib, VMPI_NET_ENTRY);
    if (entry == NULL || (net = entry(&host)) == NULL)
        vmpi_fatal("the network plugin %s does not match this libvmpi (rebuild or reinstall vmpi)", path);
    if (!net->open(&job, why, sizeof why))
        vmpi_fatal("%s", why);
    vmpi_log_set_exit_hook(on_exit_code);
    return true;
}

const vmpi_net_job *vmpi_xport_net_job(void) { return net ? &job : NULL; }

static int *node_of;  /* [job.nprocs], after the start */
static bool one_node = true;

int vmpi_xport_net_node_of(int proc) { return node_of ? node_of[proc] : 0; }

bool vmpi_xport_net_one_node(void) { return one_node; }

static vmpi_progress_source source;

static void local_done(void) { PLUGIN(net->local_done()); }

/* The progress source and the transport's operations, through PLUGIN. */
static int src_poll(vmpi_pe *pe) { return PLUGIN_R(int, net->poll(pe)); }
static bool src_ready(int pe) { return PLUGIN_R(bool, net->ready(pe)); }
static bool src_backlog(int pe) { return PLUGIN_R(bool, net->backlog(pe)); }
static bool src_work(int pe) { return PLUGIN_R(bool, net->work(pe)); }
static bool src_in_flight(void) { return PLUGIN_R(bool, net->in_flight()); }
static void src_idle(bool (*still_idle)(void)) { PLUGIN(net->idle(still_idle)); }
static void src_sleep(int pe, _Atomic uint32_t *word) { PLUGIN(net->sleep(pe, word)); }
static void src_wake(int pe) { PLUGIN(net->wake(pe)); }

#define X net->xport
static size_t op_am_max(const vmpi_xport *x) { return (void)x, PLUGIN_R(size_t, X->ops->am_max(X)); }
static void op_am_send(vmpi_xport *x, int dst_pe, uint32_t id, size_t len, vmpi_xport_pack_fn pack, void *arg)
{
    (void)x;
    PLUGIN(X->ops->am_send(X, dst_pe, id, len, pack, arg));
}
static void op_get(vmpi_xport *x, int dst_pe, void *local, uint64_t remote, size_t len, vmpi_xport_comp *c)
{
    (void)x;
    PLUGIN(X->ops->get(X, dst_pe, local, remote, len, c));
}
static void op_put(vmpi_xport *x, int dst_pe, const void *local, uint64_t remote, size_t len, vmpi_xport_comp *c)
{
    (void)x;
    PLUGIN(X->ops->put(X, dst_pe, local, remote, len, c));
}
static void op_atomic(vmpi_xport *x, int dst_pe, vmpi_xport_aop op, uint64_t remote, int size, uint64_t operand,
                      uint64_t compare, uint64_t *result, vmpi_xport_comp *c)
{
    (void)x;
    PLUGIN(X->ops->atomic(X, dst_pe, op, remote, size, operand, compare, result, c));
}
static void op_flush(vmpi_xport *x, int pe)
{
    (void)x;
    PLUGIN(X->ops->flush(X, pe));
}
static bool op_expose(vmpi_xport *x, uint64_t addr, size_t len, void **key, size_t *klen)
{
    return (void)x, PLUGIN_R(bool, X->ops->expose(X, addr, len, key, klen));
}
static void op_unexpose(vmpi_xport *x, uint64_t addr, size_t len)
{
    (void)x;
    PLUGIN(X->ops->unexpose(X, addr, len));
}
static void op_remote_add(vmpi_xport *x, int proc, uint64_t addr, size_t len, const void *key, size_t klen)
{
    (void)x;
    PLUGIN(X->ops->remote_add(X, proc, addr, len, key, klen));
}
static void op_remote_remove(vmpi_xport *x, int proc, uint64_t addr, size_t len)
{
    (void)x;
    PLUGIN(X->ops->remote_remove(X, proc, addr, len));
}
#undef X

static vmpi_xport_ops wrapped_ops = {
    .am_max = op_am_max, .am_send = op_am_send, .get = op_get, .put = op_put, .atomic = op_atomic,
    .flush = op_flush, .expose = op_expose, .unexpose = op_unexpose, .remote_add = op_remote_add,
    .remote_remove = op_remote_remove};
static vmpi_xport wrapped;

void vmpi_xport_net_start(int first, int npes, int job_npes, const void *geometry, size_t glen)
{
    PLUGIN(net->start(first, npes, job_npes, geometry, glen));
    if ((node_of = malloc(sizeof *node_of * (size_t)job.nprocs)) == NULL)
        vmpi_fatal("out of memory");
    for (int k = 0; k < job.nprocs; k++)
        one_node &= (node_of[k] = net->node_of(k)) == job.node;
    source = (vmpi_progress_source){"network", src_poll,      src_ready, src_backlog, src_work,
                                    src_in_flight, src_idle, src_sleep, src_wake};
    wrapped_ops.name = net->xport->ops->name;
    wrapped = (vmpi_xport){&wrapped_ops, net->xport->name};
    vmpi_sched_progress_add(&source);
    vmpi_sched_set_local_done(local_done);
    started = true;
}

vmpi_xport *vmpi_xport_net(void) { return started ? &wrapped : NULL; }

vmpi_xport_counts vmpi_xport_net_counts(void)
{
    return started ? PLUGIN_R(vmpi_xport_counts, net->counts()) : (vmpi_xport_counts){0};
}

static unsigned long gather_seq; /* keys of the all-gathers: the same sequence in every process */

void vmpi_xport_net_allgather(const void *blob, size_t len, void **out, size_t *lens)
{
    char key[64];
    snprintf(key, sizeof key, "vmpi.g.%lu", gather_seq++);
    PLUGIN(net->allgather(key, blob, len, out, lens));
}

void vmpi_xport_net_allgather_fixed(const void *mine, size_t len, void *all)
{
    if (net == NULL) {
        memcpy(all, mine, len);
        return;
    }
    int K = job.nprocs;
    void **out = malloc(sizeof(void *) * (size_t)K);
    size_t *lens = malloc(sizeof(size_t) * (size_t)K);
    if (out == NULL || lens == NULL)
        vmpi_fatal("out of memory for an all-gather of %d processes", K);
    vmpi_xport_net_allgather(mine, len, out, lens);
    for (int k = 0; k < K; k++) {
        if (lens[k] != len)
            vmpi_fatal("internal error: process %d's record in an all-gather has %zu bytes, not %zu", k, lens[k], len);
        memcpy((char *)all + (size_t)k * len, out[k], len);
        free(out[k]);
    }
    free(out);
    free(lens);
}

bool vmpi_xport_net_quiesce(bool flag)
{
    uint64_t prev[2] = {UINT64_MAX, UINT64_MAX};
    bool any = false;
    int K = job.nprocs;
    void **out = malloc(sizeof(void *) * (size_t)K);
    size_t *lens = malloc(sizeof(size_t) * (size_t)K);
    if (out == NULL || lens == NULL)
        vmpi_fatal("out of memory");
    for (;;) {
        uint64_t t[3] = {0, 0, flag}, sum[2] = {0, 0};
        PLUGIN(net->traffic(&t[0], &t[1]));
        char key[64];
        snprintf(key, sizeof key, "vmpi.g.%lu", gather_seq++);
        _Atomic int done = 0;
        PLUGIN(net->allgather_nb(key, t, sizeof t, &done));
        while (!atomic_load(&done)) /* the PEs keep serving the network meanwhile */
            vmpi_vp_yield();
        PLUGIN(net->allgather_get(key, out, lens));
        any = false; /* the last round's: every process reads the same rounds, so all break at the same one */
        for (int k = 0; k < K; k++) {
            uint64_t u[3] = {0, 0, 0};
            memcpy(u, out[k], lens[k] < sizeof u ? lens[k] : sizeof u);
            sum[0] += u[0];
            sum[1] += u[1];
            any |= u[2] != 0;
            free(out[k]);
        }
        /* every message sent before the last round was received by this one, and none was sent since */
        if (sum[0] == sum[1] && sum[0] == prev[0] && sum[1] == prev[1])
            break;
        prev[0] = sum[0];
        prev[1] = sum[1];
    }
    free(out);
    free(lens);
    return any;
}

void vmpi_xport_net_hold(bool on)
{
    if (net && started)
        PLUGIN(net->hold(on));
}

void vmpi_xport_net_bulk(const vmpi_net_bulk *sends, int ns, const vmpi_net_bulk *recvs, int nr)
{
    if (!net || !started || !net->bulk)
        vmpi_fatal("internal error: a bulk exchange between processes without the network's transport");
    PLUGIN(net->bulk(sends, ns, recvs, nr));
}

void vmpi_xport_net_abort(int status, const char *msg)
{
    if (net)
        PLUGIN(net->abort(status, msg));
}

void vmpi_xport_net_finish(void)
{
    if (net)
        PLUGIN(net->finish());
    net = NULL;
    started = false;
}
