/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_Comm_split_type: MPI_COMM_TYPE_SHARED groups the ranks that can make a shared-memory window, those of
 * one process (mt_proc_of); MPI-4's MPI_COMM_TYPE_HW_GUIDED with the info key mpi_hw_resource_type groups
 * them by process for "mpi_shared_memory" and by node for "host" and "machine" (mt_node_of: the nodes
 * vmpirun --emulate-nodes gives the processes, else one), and gives MPI_COMM_NULL for a resource vmpi does
 * not know, without the key, and with MPI_INFO_NULL; the new communicator's info holds the key.  Each
 * group is ordered by key (here the reverse of the world ranks), a reduction over it counts its members, and
 * MPI_Win_allocate_shared works on a process's communicator but fails with MPI_ERR_RMA_SHARED on a node's
 * that spans processes.  MPI_UNDEFINED gives MPI_COMM_NULL; an unknown split type fails with MPI_ERR_ARG. */
#include <stdbool.h>
#include "mtest.h"

typedef int (*place_fn)(int world_rank);

static int proc_of(int r) { return mt_proc_of(r, NULL); }

static void check_split(int *errs, int rank, int size, int type, const char *value, place_fn place)
{
    MPI_Info info = MPI_INFO_NULL;
    if (value) {
        MPI_Info_create(&info);
        MPI_Info_set(info, "mpi_hw_resource_type", value);
    }
    MPI_Comm c = MPI_COMM_NULL;
    MT_CHECK_RC(*errs, MPI_Comm_split_type(MPI_COMM_WORLD, type, -rank, info, &c));
    if (info != MPI_INFO_NULL)
        MPI_Info_free(&info);
    const char *what = value ? value : "MPI_COMM_TYPE_SHARED";
    if (place == NULL) {
        MT_CHECK(*errs, c == MPI_COMM_NULL, "%s: expected MPI_COMM_NULL", what);
        if (c != MPI_COMM_NULL)
            MPI_Comm_free(&c);
        return;
    }
    if (c == MPI_COMM_NULL) {
        MT_ERR(*errs, "%s: MPI_COMM_NULL", what);
        return;
    }
    int n = 0, above = 0, sum = 0, csize = -1, crank = -1, got = -1;
    for (int q = 0; q < size; q++)
        if (place(q) == place(rank))
            n++, sum += q, above += q > rank;
    MPI_Comm_size(c, &csize);
    MPI_Comm_rank(c, &crank);
    MT_CHECK(*errs, csize == n, "%s: size %d, expected %d", what, csize, n);
    MT_CHECK(*errs, crank == above, "%s: rank %d, expected %d (keys reverse the world order)", what, crank, above);
    MT_CHECK_RC(*errs, MPI_Allreduce(&rank, &got, 1, MPI_INT, MPI_SUM, c));
    MT_CHECK(*errs, got == sum, "%s: the members' world ranks sum to %d, expected %d", what, got, sum);
    if (value) { /* MPI-4: the new communicator's info names the resource */
        MPI_Info used;
        char v[MPI_MAX_INFO_VAL] = "";
        int flag = 0;
        MT_CHECK_RC(*errs, MPI_Comm_get_info(c, &used));
        MPI_Info_get(used, "mpi_hw_resource_type", sizeof v - 1, v, &flag);
        MT_CHECK(*errs, flag && !strcmp(v, value), "%s: the communicator's info has mpi_hw_resource_type '%s' (%d)",
                 what, v, flag);
        MPI_Info_free(&used);
    }
    /* a shared-memory window spans one process */
    bool one_proc = true;
    for (int q = 0; q < size; q++)
        if (place(q) == place(rank) && proc_of(q) != proc_of(rank))
            one_proc = false;
    MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
    int *base = NULL;
    MPI_Win win = MPI_WIN_NULL;
    int rc = MPI_Win_allocate_shared(sizeof(int), sizeof(int), MPI_INFO_NULL, c, &base, &win);
    if (one_proc) {
        MT_CHECK(*errs, rc == MPI_SUCCESS, "%s: Win_allocate_shared within a process returned %d", what, rc);
        if (rc == MPI_SUCCESS)
            MPI_Win_free(&win);
    } else {
        MT_CHECK_CLASS(*errs, rc, MPI_ERR_RMA_SHARED);
    }
    MPI_Comm_free(&c);
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check_split(&errs, rank, size, MPI_COMM_TYPE_SHARED, NULL, proc_of);
    check_split(&errs, rank, size, MPI_COMM_TYPE_HW_GUIDED, "mpi_shared_memory", proc_of);
    check_split(&errs, rank, size, MPI_COMM_TYPE_HW_GUIDED, "host", mt_node_of);
    check_split(&errs, rank, size, MPI_COMM_TYPE_HW_GUIDED, "machine", mt_node_of);
    check_split(&errs, rank, size, MPI_COMM_TYPE_HW_GUIDED, "no_such_resource", NULL);
    check_split(&errs, rank, size, MPI_COMM_TYPE_HW_GUIDED, NULL, NULL); /* MPI_INFO_NULL */
    {
        MPI_Info info;
        MPI_Comm c = MPI_COMM_WORLD;
        MPI_Info_create(&info);
        MPI_Info_set(info, "other_key", "host");
        MT_CHECK_RC(errs, MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, 0, info, &c));
        MT_CHECK(errs, c == MPI_COMM_NULL, "HW_GUIDED without mpi_hw_resource_type: expected MPI_COMM_NULL");
        MPI_Info_free(&info);
        c = MPI_COMM_WORLD;
        MT_CHECK_RC(errs, MPI_Comm_split_type(MPI_COMM_WORLD, MPI_UNDEFINED, 0, MPI_INFO_NULL, &c));
        MT_CHECK(errs, c == MPI_COMM_NULL, "MPI_UNDEFINED: expected MPI_COMM_NULL");
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        MT_CHECK_CLASS(errs, MPI_Comm_split_type(MPI_COMM_WORLD, 12345, 0, MPI_INFO_NULL, &c), MPI_ERR_ARG);
    }
    return mt_finish(errs);
}
