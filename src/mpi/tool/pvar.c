/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_T's performance variables: counters the runtime keeps anyway or at the cost of a plain increment in
 * the state of the rank or PE that owns them (a send: vmpi_ep's; a switch: vmpi_vp's; an idle pass: the PE's),
 * and the balancer's (mpi/adapt).  A rank's own variables are read by the rank itself, on its PE, where
 * nothing else writes them meanwhile (atomic); the PEs' idle time is written by each PE's thread while others
 * read it (not atomic: a read and a reset are two steps). */
#include <string.h>
#include "mpi/adapt/adapt.h"
#include "mpi/core/comm.h"
#include "mpi/core/rank.h"
#include "mpi/tool/tool.h"
#include "msg/msg.h"
#include "sched/sched.h"

static vmpi_rank *self(void) { return vmpi_rank_self(); }

static void msgs_sent(const void *obj, void *out, int count)
{
    (void)obj, (void)count;
    *(uint64_t *)out = self()->ep.nsent;
}

static void bytes_sent(const void *obj, void *out, int count)
{
    (void)obj, (void)count;
    *(uint64_t *)out = self()->ep.bytes_sent;
}

static void unexpected(const void *obj, void *out, int count)
{
    (void)obj, (void)count;
    *(uint64_t *)out = vmpi_msg_unexpected_count(&self()->ep, -1);
}

/* bound to a communicator: the messages that arrived on it (its point-to-point context) before their
 * receive */
static void comm_unexpected(const void *obj, void *out, int count)
{
    (void)count;
    *(uint64_t *)out = vmpi_msg_unexpected_count(&self()->ep, ((const vmpi_comm *)obj)->ctx);
}

static void switches(const void *obj, void *out, int count)
{
    (void)obj, (void)count;
    *(uint64_t *)out = self()->vp.switches;
}

static void migrations(const void *obj, void *out, int count)
{
    (void)obj, (void)count;
    *(uint64_t *)out = self()->vp.migrations;
}

static void current_pe(const void *obj, void *out, int count)
{
    (void)obj, (void)count;
    *(uint64_t *)out = (uint64_t)self()->vp.pe->id;
}

static void lb_steps(const void *obj, void *out, int count)
{
    (void)obj, (void)count;
    unsigned steps;
    double secs;
    uint64_t bytes;
    vmpi_adapt_stats(&steps, &secs, &bytes);
    *(uint64_t *)out = steps;
}

static void lb_time(const void *obj, void *out, int count)
{
    (void)obj, (void)count;
    unsigned steps;
    uint64_t bytes;
    vmpi_adapt_stats(&steps, (double *)out, &bytes);
}

static void migrated_bytes(const void *obj, void *out, int count)
{
    (void)obj, (void)count;
    unsigned steps;
    double secs;
    vmpi_adapt_stats(&steps, &secs, (uint64_t *)out);
}

static int local_pes(const void *obj)
{
    (void)obj;
    return vmpi_sched_local_npes();
}

/* (count: the PEs of the process where the handle was made; a rank that moved reads as many of its new one's) */
static void pe_idle(const void *obj, void *out, int count)
{
    (void)obj;
    int first = vmpi_sched_local_first(), n = vmpi_sched_local_npes();
    for (int i = 0; i < count; i++)
        ((uint64_t *)out)[i] = i < n ? atomic_load_explicit(&vmpi_sched_pe(first + i)->idle, memory_order_relaxed) : 0;
}

#define ULL MPI_UNSIGNED_LONG_LONG
#define COUNTER MPI_T_PVAR_CLASS_COUNTER
#define USER MPI_T_VERBOSITY_USER_BASIC
#define TUNER MPI_T_VERBOSITY_TUNER_BASIC
#define NOOBJ MPI_T_BIND_NO_OBJECT

/* name, description, category, class, verbosity, binding, type, readonly, continuous, atomic, count, read,
 * ticks, process */
static const vmpi_pvar table[] = {
    {"vmpi_msgs_sent", "messages this rank sent while the handle was started (point-to-point, and those of the "
     "collectives and migration points that go by messages)", "msg", COUNTER, USER, NOOBJ, ULL, false, false,
     true, NULL, msgs_sent},
    {"vmpi_bytes_sent", "bytes of the messages this rank sent while the handle was started", "msg", COUNTER, USER,
     NOOBJ, ULL, false, false, true, NULL, bytes_sent},
    {"vmpi_unexpected", "messages that arrived for this rank before a receive matched them, queued now", "msg",
     MPI_T_PVAR_CLASS_LEVEL, USER, NOOBJ, ULL, true, true, true, NULL, unexpected},
    {"vmpi_comm_unexpected", "messages that arrived on the communicator for this rank before a receive matched "
     "them, queued now", "msg", MPI_T_PVAR_CLASS_LEVEL, USER, MPI_T_BIND_MPI_COMM, ULL, true, true, true, NULL,
     comm_unexpected},
    {"vmpi_context_switches", "times this rank was switched in on its PE (it runs as a user-level thread)", "sched",
     COUNTER, TUNER, NOOBJ, ULL, false, true, true, NULL, switches},
    {"vmpi_pe", "the PE (worker thread) this rank runs on now", "sched", MPI_T_PVAR_CLASS_GENERIC, USER, NOOBJ,
     ULL, true, true, true, NULL, current_pe},
    {"vmpi_pe_idle_time", "seconds each PE of this process had nothing to run (polling or asleep) while the "
     "handle was started, one element per PE", "sched", MPI_T_PVAR_CLASS_TIMER, TUNER, NOOBJ, MPI_DOUBLE, false,
     false, false, local_pes, pe_idle, true, true},
    {"vmpi_migrations", "times a load-balancing step moved this rank to another PE", "lb", COUNTER, USER, NOOBJ,
     ULL, false, true, true, NULL, migrations},
    {"vmpi_lb_steps", "load-balancing steps this process took part in (AMPI_Migrate calls that balanced)", "lb",
     COUNTER, USER, NOOBJ, ULL, false, true, true, NULL, lb_steps, false, true},
    {"vmpi_lb_time", "seconds this process spent in load-balancing steps (measuring, placing, moving ranks)",
     "lb", MPI_T_PVAR_CLASS_TIMER, USER, NOOBJ, MPI_DOUBLE, false, true, true, NULL, lb_time, false, true},
    {"vmpi_migrated_bytes", "bytes of rank state this process sent to other processes with the ranks that left "
     "it (moves within a process copy nothing)", "lb", COUNTER, TUNER, NOOBJ, ULL, false, true, true, NULL,
     migrated_bytes, false, true},
};

int vmpi_pvar_count(void) { return (int)(sizeof table / sizeof table[0]); }

const vmpi_pvar *vmpi_pvar_get(int i) { return &table[i]; }

int vmpi_pvar_index(const char *name, int cls)
{
    for (int i = 0; i < vmpi_pvar_count(); i++)
        if (table[i].cls == cls && strcmp(table[i].name, name) == 0)
            return i;
    return -1;
}

int vmpi_pvar_bind(const vmpi_pvar *v, const void *obj_handle, int *obj)
{
    *obj = 0;
    if (v->bind == MPI_T_BIND_NO_OBJECT)
        return MPI_SUCCESS;
    /* MPI_T_BIND_MPI_COMM, the only other binding here */
    if (obj_handle == NULL || vmpi_comm_get(*(const MPI_Comm *)obj_handle) == NULL)
        return MPI_T_ERR_INVALID;
    *obj = *(const MPI_Comm *)obj_handle;
    return MPI_SUCCESS;
}

/* The object `obj` names now, or NULL when it is gone (a communicator freed since). */
static const void *object(const vmpi_pvar *v, int obj)
{
    static const char none;
    return v->bind == MPI_T_BIND_NO_OBJECT ? (const void *)&none : (const void *)vmpi_comm_get(obj);
}

int vmpi_pvar_elems(const vmpi_pvar *v, int obj) { return v->count ? v->count(object(v, obj)) : 1; }

int vmpi_pvar_read_now(const vmpi_pvar *v, int obj, void *out, int count)
{
    const void *o = object(v, obj);
    if (o == NULL)
        return MPI_T_ERR_INVALID_HANDLE;
    v->read(o, out, count);
    return MPI_SUCCESS;
}
