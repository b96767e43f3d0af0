/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_T's performance variables around communication and migration (MPI-4.1 15.3.7):
 *   - vmpi_msgs_sent / vmpi_bytes_sent (counters, not continuous): a handle counts nothing before its start
 *     nor after its stop, and exactly the K messages of B bytes each rank sends to its partner in between;
 *     two handles in two sessions count independently (one reset, one not); write, reset and readreset
 *     set what the handle counts from; MPI_T_PVAR_ALL_HANDLES starts and stops every handle of a session;
 *   - vmpi_unexpected (a level) and vmpi_comm_unexpected (bound to a communicator): once the last of M
 *     messages from the partner is probed, exactly M wait on the duplicate communicator they were sent on
 *     (at least M on all contexts: ranks ahead may have sent a collective's messages already) and none on
 *     MPI_COMM_WORLD; none on the duplicate once they are received;
 *   - across a migration point: vmpi_lb_steps grows by one (by none in a rank that moved to another process:
 *     it counts that process's steps from its arrival), vmpi_migrations by one and vmpi_pe becomes the
 *     next PE under Rotate with several PEs (by none, and the PE stays, with one), vmpi_context_switches
 *     grows, vmpi_lb_time does not shrink; vmpi_pe_idle_time has one value per PE of the process;
 *   - errors: a read-only variable refuses write and reset (MPI_T_ERR_PVAR_NO_WRITE), a continuous one
 *     start and stop (MPI_T_ERR_PVAR_NO_STARTSTOP), a non-atomic one readreset (MPI_T_ERR_PVAR_NO_ATOMIC);
 *     read with MPI_T_PVAR_ALL_HANDLES, a handle of another session or a freed one is
 *     MPI_T_ERR_INVALID_HANDLE; a freed session MPI_T_ERR_INVALID_SESSION; a bad communicator
 *     MPI_T_ERR_INVALID. */
#include "mtest.h"

#define CHECK_T(errs, call, cls) MT_CHECK_INT(errs, #call, cls, call)

enum { K = 7, B = 100, M = 5 };

static int pvar(const char *name, int cls)
{
    int i = -1;
    MT_CALL(MPI_T_pvar_get_index(name, cls, &i));
    return i;
}

static MPI_T_pvar_handle alloc(MPI_T_pvar_session s, const char *name, int cls, void *obj, int *count)
{
    MPI_T_pvar_handle h = MPI_T_PVAR_HANDLE_NULL;
    int n = 0;
    MT_CALL(MPI_T_pvar_handle_alloc(s, pvar(name, cls), obj, &h, &n));
    if (count)
        *count = n;
    return h;
}

static unsigned long long rd(MPI_T_pvar_session s, MPI_T_pvar_handle h)
{
    unsigned long long v = ~0ull;
    MT_CALL(MPI_T_pvar_read(s, h, &v));
    return v;
}

/* K messages of B bytes to the partner, and K from it (a rank without a partner talks to itself). */
static void exchange(int partner, MPI_Comm comm)
{
    char *sb = calloc(B, 1), *rb = malloc(B);
    MPI_Request rq[2 * K];
    for (int i = 0; i < K; i++) {
        MPI_Irecv(rb, B, MPI_BYTE, partner, i, comm, &rq[2 * i]);
        MPI_Isend(sb, B, MPI_BYTE, partner, i, comm, &rq[2 * i + 1]);
        MPI_Waitall(2, &rq[2 * i], MPI_STATUSES_IGNORE);
    }
    free(sb);
    free(rb);
}

static void counters(int *errs, int partner)
{
    MPI_T_pvar_session s1, s2;
    MT_CALL(MPI_T_pvar_session_create(&s1));
    MT_CALL(MPI_T_pvar_session_create(&s2));
    MPI_T_pvar_handle msgs = alloc(s1, "vmpi_msgs_sent", MPI_T_PVAR_CLASS_COUNTER, NULL, NULL);
    MPI_T_pvar_handle bytes = alloc(s1, "vmpi_bytes_sent", MPI_T_PVAR_CLASS_COUNTER, NULL, NULL);
    MPI_T_pvar_handle other = alloc(s2, "vmpi_msgs_sent", MPI_T_PVAR_CLASS_COUNTER, NULL, NULL);
    MT_CHECK_INT(*errs, "a handle not started", 0, rd(s1, msgs));
    exchange(partner, MPI_COMM_WORLD); /* not counted: not started */
    MT_CHECK_INT(*errs, "msgs before the start", 0, rd(s1, msgs));
    MT_CHECK_RC(*errs, MPI_T_pvar_start(s1, MPI_T_PVAR_ALL_HANDLES));
    MT_CHECK_RC(*errs, MPI_T_pvar_start(s2, other));
    MT_CHECK_RC(*errs, MPI_T_pvar_start(s2, other)); /* started already: nothing changes */
    exchange(partner, MPI_COMM_WORLD);
    MT_CHECK_INT(*errs, "msgs sent", K, rd(s1, msgs));
    MT_CHECK_INT(*errs, "bytes sent", K * B, rd(s1, bytes));
    MT_CHECK_RC(*errs, MPI_T_pvar_reset(s2, other));
    exchange(partner, MPI_COMM_WORLD);
    MT_CHECK_INT(*errs, "msgs sent, twice", 2 * K, rd(s1, msgs));
    MT_CHECK_INT(*errs, "msgs sent after the other session's reset", K, rd(s2, other));
    MT_CHECK_RC(*errs, MPI_T_pvar_stop(s1, MPI_T_PVAR_ALL_HANDLES));
    exchange(partner, MPI_COMM_WORLD); /* not counted: stopped */
    MT_CHECK_INT(*errs, "msgs sent, stopped", 2 * K, rd(s1, msgs));
    MT_CHECK_INT(*errs, "bytes sent, stopped", 2 * K * B, rd(s1, bytes));
    MT_CHECK_INT(*errs, "the other session, still started", 2 * K, rd(s2, other));

    unsigned long long v = 1000;
    MT_CHECK_RC(*errs, MPI_T_pvar_write(s1, msgs, &v));
    MT_CHECK_INT(*errs, "written while stopped", 1000, rd(s1, msgs));
    MT_CHECK_RC(*errs, MPI_T_pvar_start(s1, msgs));
    exchange(partner, MPI_COMM_WORLD);
    MT_CHECK_INT(*errs, "counted from the written value", 1000 + K, rd(s1, msgs));
    MT_CHECK_RC(*errs, MPI_T_pvar_readreset(s1, msgs, &v));
    MT_CHECK_INT(*errs, "readreset's value", 1000 + K, v);
    MT_CHECK_INT(*errs, "after readreset", 0, rd(s1, msgs));
    exchange(partner, MPI_COMM_WORLD);
    MT_CHECK_INT(*errs, "counted from the reset", K, rd(s1, msgs));

    /* errors */
    CHECK_T(*errs, MPI_T_pvar_read(s1, MPI_T_PVAR_ALL_HANDLES, &v), MPI_T_ERR_INVALID_HANDLE);
    CHECK_T(*errs, MPI_T_pvar_readreset(s1, MPI_T_PVAR_ALL_HANDLES, &v), MPI_T_ERR_INVALID_HANDLE);
    CHECK_T(*errs, MPI_T_pvar_read(s2, msgs, &v), MPI_T_ERR_INVALID_HANDLE);
    CHECK_T(*errs, MPI_T_pvar_read(MPI_T_PVAR_SESSION_NULL, msgs, &v), MPI_T_ERR_INVALID_SESSION);
    MPI_T_pvar_handle dead = bytes;
    MT_CHECK_RC(*errs, MPI_T_pvar_handle_free(s1, &bytes));
    MT_CHECK(*errs, bytes == MPI_T_PVAR_HANDLE_NULL, "handle not nulled");
    CHECK_T(*errs, MPI_T_pvar_read(s1, dead, &v), MPI_T_ERR_INVALID_HANDLE);
    CHECK_T(*errs, MPI_T_pvar_handle_free(s1, &dead), MPI_T_ERR_INVALID_HANDLE);
    int n;
    MPI_T_pvar_handle h;
    CHECK_T(*errs, MPI_T_pvar_handle_alloc(s1, -1, NULL, &h, &n), MPI_T_ERR_INVALID_INDEX);
    MPI_T_pvar_session gone = s2;
    MT_CHECK_RC(*errs, MPI_T_pvar_session_free(&s2));
    MT_CHECK(*errs, s2 == MPI_T_PVAR_SESSION_NULL, "session not nulled");
    CHECK_T(*errs, MPI_T_pvar_read(gone, other, &v), MPI_T_ERR_INVALID_SESSION);
    CHECK_T(*errs, MPI_T_pvar_session_free(&gone), MPI_T_ERR_INVALID_SESSION);
    CHECK_T(*errs, MPI_T_pvar_handle_alloc(gone, 0, NULL, &h, &n), MPI_T_ERR_INVALID_SESSION);
    MT_CHECK_RC(*errs, MPI_T_pvar_session_free(&s1));
}

static void queue(int *errs, int rank, int partner)
{
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_T_pvar_session s;
    MT_CALL(MPI_T_pvar_session_create(&s));
    MPI_Comm world = MPI_COMM_WORLD, null = MPI_COMM_NULL;
    MPI_T_pvar_handle all = alloc(s, "vmpi_unexpected", MPI_T_PVAR_CLASS_LEVEL, NULL, NULL);
    MPI_T_pvar_handle on_dup = alloc(s, "vmpi_comm_unexpected", MPI_T_PVAR_CLASS_LEVEL, &dup, NULL);
    MPI_T_pvar_handle on_world = alloc(s, "vmpi_comm_unexpected", MPI_T_PVAR_CLASS_LEVEL, &world, NULL);
    MPI_T_pvar_handle h;
    int n;
    CHECK_T(*errs, MPI_T_pvar_handle_alloc(s, pvar("vmpi_comm_unexpected", MPI_T_PVAR_CLASS_LEVEL), &null, &h, &n),
            MPI_T_ERR_INVALID);
    unsigned long long v = 5;
    CHECK_T(*errs, MPI_T_pvar_write(s, all, &v), MPI_T_ERR_PVAR_NO_WRITE);
    CHECK_T(*errs, MPI_T_pvar_reset(s, all), MPI_T_ERR_PVAR_NO_WRITE);
    CHECK_T(*errs, MPI_T_pvar_start(s, all), MPI_T_ERR_PVAR_NO_STARTSTOP);
    MT_CHECK_RC(*errs, MPI_T_pvar_reset(s, MPI_T_PVAR_ALL_HANDLES)); /* read-only ones are left out */
    MPI_Barrier(MPI_COMM_WORLD);
    /* M messages to the partner, which receives none before the last has arrived (messages from one rank
     * arrive in order): then all M are unexpected */
    int one = 1, buf;
    for (int i = 0; i < M; i++)
        MPI_Send(&one, 1, MPI_INT, partner, i, dup);
    MPI_Probe(partner, M - 1, dup, MPI_STATUS_IGNORE);
    /* (the count on every context includes what ranks that went on to the next collective sent already) */
    MT_CHECK(*errs, rd(s, all) >= M, "unexpected messages: %llu, fewer than %d", rd(s, all), M);
    MT_CHECK_INT(*errs, "unexpected on the duplicate", M, rd(s, on_dup));
    MT_CHECK_INT(*errs, "unexpected on MPI_COMM_WORLD", 0, rd(s, on_world));
    for (int i = 0; i < M; i++)
        MPI_Recv(&buf, 1, MPI_INT, partner, i, dup, MPI_STATUS_IGNORE);
    MT_CHECK_INT(*errs, "unexpected on the duplicate once received", 0, rd(s, on_dup));
    MPI_Comm_free(&dup);
    CHECK_T(*errs, MPI_T_pvar_read(s, on_dup, &v), MPI_T_ERR_INVALID_HANDLE); /* its communicator is gone */
    MT_CHECK_RC(*errs, MPI_T_pvar_session_free(&s));
    (void)rank;
}

static void migration(int *errs, int rank)
{
    MPI_T_pvar_session s;
    MT_CALL(MPI_T_pvar_session_create(&s));
    int npes_here = 0;
    MPI_T_pvar_handle steps = alloc(s, "vmpi_lb_steps", MPI_T_PVAR_CLASS_COUNTER, NULL, NULL);
    MPI_T_pvar_handle moves = alloc(s, "vmpi_migrations", MPI_T_PVAR_CLASS_COUNTER, NULL, NULL);
    MPI_T_pvar_handle pe = alloc(s, "vmpi_pe", MPI_T_PVAR_CLASS_GENERIC, NULL, NULL);
    MPI_T_pvar_handle sw = alloc(s, "vmpi_context_switches", MPI_T_PVAR_CLASS_COUNTER, NULL, NULL);
    MPI_T_pvar_handle lbt = alloc(s, "vmpi_lb_time", MPI_T_PVAR_CLASS_TIMER, NULL, NULL);
    MPI_T_pvar_handle idle = alloc(s, "vmpi_pe_idle_time", MPI_T_PVAR_CLASS_TIMER, NULL, &npes_here);
    MPI_T_pvar_handle bytes = alloc(s, "vmpi_migrated_bytes", MPI_T_PVAR_CLASS_COUNTER, NULL, NULL);
    CHECK_T(*errs, MPI_T_pvar_stop(s, moves), MPI_T_ERR_PVAR_NO_STARTSTOP); /* continuous */
    int npes = mt_world_attr(AMPI_NUM_WTHS);
    MT_CHECK(*errs, npes_here >= 1 && npes_here <= npes, "idle time of %d PEs of %d", npes_here, npes);
    double *t = calloc((size_t)npes_here, sizeof(double));
    CHECK_T(*errs, MPI_T_pvar_readreset(s, idle, t), MPI_T_ERR_PVAR_NO_ATOMIC);
    MT_CHECK_RC(*errs, MPI_T_pvar_start(s, idle));
    unsigned long long pe0 = rd(s, pe), sw0 = rd(s, sw);
    MT_CHECK_INT(*errs, "vmpi_pe", mt_world_attr(AMPI_MY_WTH), pe0);
    MT_CHECK_INT(*errs, "steps before", 0, rd(s, steps));
    MT_CHECK_INT(*errs, "migrations before", 0, rd(s, moves));
    const char *lb = getenv("VMPI_BALANCER");
    int rotate = lb && strcmp(lb, "Rotate") == 0 && mt_proc_npes(npes) > 1;
    int proc0 = mt_proc_of(rank, NULL);
    mt_migrate();
    /* (the process's count: a rank that moved to another process counts that one's from its arrival) */
    MT_CHECK_INT(*errs, "balancing steps", mt_proc_of(rank, NULL) == proc0, rd(s, steps));
    MT_CHECK_INT(*errs, "migrations", rotate, rd(s, moves));
    MT_CHECK_INT(*errs, "vmpi_pe after", rotate ? mt_rotate_next((int)pe0, npes) : (int)pe0, rd(s, pe));
    MT_CHECK_INT(*errs, "vmpi_pe and AMPI_MY_WTH", mt_world_attr(AMPI_MY_WTH), rd(s, pe));
    MT_CHECK(*errs, rd(s, sw) > sw0, "context switches: %llu, then %llu", sw0, rd(s, sw));
    double lt = -1;
    MT_CALL(MPI_T_pvar_read(s, lbt, &lt));
    MT_CHECK(*errs, lt >= 0, "lb time %g", lt);
    MT_CALL(MPI_T_pvar_read(s, idle, t));
    for (int i = 0; i < npes_here; i++)
        MT_CHECK(*errs, t[i] >= 0, "PE %d idle %g s", i, t[i]);
    if (mt_nprocs() == 1)
        MT_CHECK_INT(*errs, "bytes migrated in one process", 0, rd(s, bytes));
    free(t);
    MT_CHECK_RC(*errs, MPI_T_pvar_session_free(&s));
    (void)rank;
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size, provided;
    MPI_Init(&argc, &argv);
    MT_CALL(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int partner = (rank ^ 1) < size ? rank ^ 1 : rank;
    counters(&errs, partner);
    queue(&errs, rank, partner);
    migration(&errs, rank);
    MT_CHECK_RC(errs, MPI_T_finalize());
    return mt_finish(errs);
}
