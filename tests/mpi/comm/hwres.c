/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI-4.1's hardware resources: MPI_Get_hw_resource_info lists the resources the rank runs on, each key a
 * value MPI_COMM_TYPE_HW_GUIDED takes ("machine": the node, mt_node_of; "mpi_shared_memory": the process,
 * mt_proc_of; then hwloc's levels, which only the CPU of the rank's PE decides), the process's value agrees
 * with where the rank is, and a guided split by every listed resource gives a communicator whose info names
 * it, within a node (and a process, for mpi_shared_memory).  MPI_COMM_TYPE_HW_UNGUIDED splits by the largest resource the ranks do not all share: the node
 * when they span nodes, else the process when they span processes, else a level of the machine (or, when
 * all share every one, MPI_COMM_NULL everywhere); the resource is in the new communicator's info and in the
 * info the program passed (as MPICH does).  Again after a migration point.  Errors: a NULL hw_info. */
#include <stdbool.h>
#include "mtest.h"

/* The value of key `k` in info `in` as an int before any '/', or -1 when absent. */
static int value_of(MPI_Info in, const char *k)
{
    char v[MPI_MAX_INFO_VAL];
    int flag = 0;
    MPI_Info_get(in, k, sizeof v - 1, v, &flag);
    return flag ? atoi(v) : -1;
}

/* Whether all ranks of `c` have the same `v`. */
static bool same(MPI_Comm c, int v)
{
    int in[2] = {v, -v}, out[2];
    MPI_Allreduce(in, out, 2, MPI_INT, MPI_MAX, c);
    return out[0] == -out[1];
}

static void check_round(int *errs, int rank, int size)
{
    MPI_Info hw = MPI_INFO_NULL;
    MT_CHECK_RC(*errs, MPI_Get_hw_resource_info(&hw));
    int nkeys = 0;
    MPI_Info_get_nkeys(hw, &nkeys);
    MT_CHECK(*errs, nkeys >= 2, "hw_resource_info: %d keys, expected machine and mpi_shared_memory at least", nkeys);
    int node = value_of(hw, "machine"), proc = value_of(hw, "mpi_shared_memory");
    MT_CHECK_INT(*errs, "process index in hw_resource_info", mt_proc_of(rank, NULL), proc);
    MT_CHECK(*errs, node >= 0, "no machine key in hw_resource_info");

    /* every listed resource is a guided split: its members share the node and process where it implies so */
    for (int i = 0; i < nkeys; i++) {
        char key[MPI_MAX_INFO_KEY + 1];
        MPI_Info_get_nthkey(hw, i, key);
        MPI_Info in;
        MPI_Info_create(&in);
        MPI_Info_set(in, "mpi_hw_resource_type", key);
        MPI_Comm c = MPI_COMM_NULL;
        MT_CHECK_RC(*errs, MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, rank, in, &c));
        MPI_Info_free(&in);
        /* a rank knows only its own keys: ranks on other machines could list others (not here) */
        MT_CHECK(*errs, c != MPI_COMM_NULL, "guided split by %s: MPI_COMM_NULL", key);
        if (c == MPI_COMM_NULL)
            continue;
        MPI_Info used;
        MPI_Comm_get_info(c, &used);
        char v[MPI_MAX_INFO_VAL];
        int flag = 0;
        MPI_Info_get(used, "mpi_hw_resource_type", sizeof v - 1, v, &flag);
        MT_CHECK(*errs, flag && !strcmp(v, key), "guided split by %s: its info says '%s'", key, flag ? v : "");
        MPI_Info_free(&used);
        MT_CHECK(*errs, same(c, node), "guided split by %s spans nodes", key);
        if (!strcmp(key, "mpi_shared_memory")) /* hwloc's levels may hold ranks of several processes */
            MT_CHECK(*errs, same(c, proc), "guided split by %s spans processes", key);
        MPI_Comm_free(&c);
    }

    /* unguided */
    MPI_Info in;
    MPI_Info_create(&in);
    MPI_Comm c = MPI_COMM_NULL;
    MT_CHECK_RC(*errs, MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_UNGUIDED, rank, in, &c));
    bool spans_nodes = !same(MPI_COMM_WORLD, node), spans_procs = !same(MPI_COMM_WORLD, proc);
    int got = c != MPI_COMM_NULL;
    MT_CHECK(*errs, same(MPI_COMM_WORLD, got), "unguided: MPI_COMM_NULL on some ranks only");
    if (spans_procs)
        MT_CHECK(*errs, got, "unguided: MPI_COMM_NULL, though the ranks span %s", spans_nodes ? "nodes" : "processes");
    if (got) {
        int n;
        MPI_Comm_size(c, &n);
        MT_CHECK(*errs, n < size, "unguided: %d ranks of %d, not a strict subset", n, size);
        char v[MPI_MAX_INFO_VAL], w[MPI_MAX_INFO_VAL];
        int flag = 0, wflag = 0;
        MPI_Info used;
        MPI_Comm_get_info(c, &used);
        MPI_Info_get(used, "mpi_hw_resource_type", sizeof v - 1, v, &flag);
        MPI_Info_free(&used);
        MPI_Info_get(in, "mpi_hw_resource_type", sizeof w - 1, w, &wflag);
        MT_CHECK(*errs, flag && wflag && !strcmp(v, w), "unguided: resource '%s' in the info, '%s' in the program's",
                 flag ? v : "", wflag ? w : "");
        const char *expect = spans_nodes ? "machine" : spans_procs ? "mpi_shared_memory" : NULL;
        if (expect)
            MT_CHECK(*errs, flag && !strcmp(v, expect), "unguided: split by '%s', expected %s", flag ? v : "", expect);
        else
            MT_CHECK(*errs, flag && value_of(hw, v) >= 0, "unguided: split by '%s', not a listed resource",
                     flag ? v : "");
        MT_CHECK(*errs, same(c, node), "unguided split spans nodes");
        if (!spans_nodes)
            MT_CHECK(*errs, same(c, proc), "unguided split spans processes");
        MPI_Comm_free(&c);
    }
    MPI_Info_free(&in);
    MPI_Info_free(&hw);
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check_round(&errs, rank, size);
    mt_migrate();
    check_round(&errs, rank, size);

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MT_CHECK_CLASS(errs, MPI_Get_hw_resource_info(NULL), MPI_ERR_ARG);
    return mt_finish(errs);
}
