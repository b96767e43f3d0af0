/* SPDX-License-Identifier: BSD-3-Clause */
/* The predefined attributes (values are int *), on MPI_COMM_WORLD and MPI_COMM_SELF, through Comm_get_attr
 * and the MPI-1 Attr_get: MPI_TAG_UB (the largest tag, and a send with it works), MPI_HOST (MPI_PROC_NULL),
 * MPI_IO (MPI_ANY_SOURCE: every rank can do I/O), MPI_WTIME_IS_GLOBAL (1 on one node, else 0), MPI_APPNUM
 * (0), MPI_UNIVERSE_SIZE (the number of ranks) and MPI_LASTUSEDCODE (MPI_ERR_LASTCODE until a class or code
 * is added, then the largest added, through the same pointer). */
#include <limits.h>
#include "mtest.h"

static int get(int *errs, MPI_Comm comm, int key, const char *name, int mpi1)
{
    int *p = NULL, flag = 0;
    MT_CHECK_RC(*errs, mpi1 ? MPI_Attr_get(comm, key, &p, &flag) : MPI_Comm_get_attr(comm, key, &p, &flag));
    MT_CHECK(*errs, flag && p, "%s: flag %d pointer %p", name, flag, (void *)p);
    return flag && p ? *p : INT_MIN;
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm comms[2] = {MPI_COMM_WORLD, MPI_COMM_SELF};
    for (int c = 0; c < 2; c++) {
        for (int mpi1 = 0; mpi1 < 2; mpi1++) {
            int ub = get(&errs, comms[c], MPI_TAG_UB, "MPI_TAG_UB", mpi1);
            MT_CHECK(errs, ub >= 32767, "MPI_TAG_UB %d < 32767", ub);
            if (!MT_MPICH_BUGS) /* vmpi's values; MPICH has other ones */
                MT_CHECK_INT(errs, "MPI_TAG_UB", INT_MAX, ub);
            MT_CHECK_INT(errs, "MPI_HOST", MPI_PROC_NULL, get(&errs, comms[c], MPI_HOST, "MPI_HOST", mpi1));
            MT_CHECK_INT(errs, "MPI_IO", MPI_ANY_SOURCE, get(&errs, comms[c], MPI_IO, "MPI_IO", mpi1));
            if (MT_MPICH_BUGS)
                continue;
            MT_CHECK_INT(errs, "MPI_WTIME_IS_GLOBAL", mt_nnodes() == 1,
                         get(&errs, comms[c], MPI_WTIME_IS_GLOBAL, "MPI_WTIME_IS_GLOBAL", mpi1));
            MT_CHECK_INT(errs, "MPI_APPNUM", 0, get(&errs, comms[c], MPI_APPNUM, "MPI_APPNUM", mpi1));
            MT_CHECK_INT(errs, "MPI_UNIVERSE_SIZE", size,
                         get(&errs, comms[c], MPI_UNIVERSE_SIZE, "MPI_UNIVERSE_SIZE", mpi1));
            MT_CHECK_INT(errs, "MPI_LASTUSEDCODE before any Add_error_*", MPI_ERR_LASTCODE,
                         get(&errs, comms[c], MPI_LASTUSEDCODE, "MPI_LASTUSEDCODE", mpi1));
        }
    }
    /* the tag bound is usable */
    {
        int ub = get(&errs, MPI_COMM_WORLD, MPI_TAG_UB, "MPI_TAG_UB", 0), x = rank, y = -1;
        MT_CHECK_RC(errs, MPI_Sendrecv(&x, 1, MPI_INT, rank, ub, &y, 1, MPI_INT, rank, ub, MPI_COMM_WORLD,
                                       MPI_STATUS_IGNORE));
        MT_CHECK_INT(errs, "value sent with tag MPI_TAG_UB", rank, y);
    }
    /* MPI_LASTUSEDCODE follows the rank's own additions; the pointer stays current */
    {
        int *p = NULL, flag = 0, cls, code, extra = rank % 3;
        MT_CHECK_RC(errs, MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &p, &flag));
        MT_CHECK_RC(errs, MPI_Add_error_class(&cls));
        MT_CHECK(errs, cls > MPI_ERR_LASTCODE, "user class %d <= MPI_ERR_LASTCODE", cls);
        MT_CHECK_INT(errs, "MPI_LASTUSEDCODE after Add_error_class", cls,
                     get(&errs, MPI_COMM_WORLD, MPI_LASTUSEDCODE, "MPI_LASTUSEDCODE", 0));
        for (int i = 0; i < extra; i++) /* ranks add different numbers of codes */
            MT_CHECK_RC(errs, MPI_Add_error_code(cls, &code));
        MPI_Barrier(MPI_COMM_WORLD);
        /* vmpi: the largest class or code (one numbering); MPICH: the largest class */
        int want = MT_MPICH_BUGS ? cls : cls + extra;
        MT_CHECK_INT(errs, "MPI_LASTUSEDCODE after the codes", want,
                     get(&errs, MPI_COMM_WORLD, MPI_LASTUSEDCODE, "MPI_LASTUSEDCODE", 0));
        MT_CHECK(errs, p && *p == want, "MPI_LASTUSEDCODE through the first pointer: %d, expected %d",
                 p ? *p : -1, want);
    }
    return mt_finish(errs);
}
