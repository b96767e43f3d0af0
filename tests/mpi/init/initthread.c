/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_Init_thread + MPI_Query_thread + MPI_Is_thread_main: the provided level is a valid level, the same on
 * every query, and the calling thread is the main thread; their NULL result pointers, and those of the other
 * environment queries, are argument errors. */
#include "mtest.h"

int main(int argc, char **argv)
{
    int errs = 0, provided = -1, q = -1, flag = -1, rank;

    MT_CHECK_RC(errs, MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided));
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MT_CHECK(errs, provided >= MPI_THREAD_SINGLE && provided <= MPI_THREAD_MULTIPLE, "provided = %d is not a level",
             provided);
    MT_CHECK(errs, MPI_THREAD_SINGLE < MPI_THREAD_FUNNELED && MPI_THREAD_FUNNELED < MPI_THREAD_SERIALIZED &&
                       MPI_THREAD_SERIALIZED < MPI_THREAD_MULTIPLE,
             "thread level constants are not monotonic");

    for (int i = 0; i < 3; i++) {
        MT_CHECK_RC(errs, MPI_Query_thread(&q));
        MT_CHECK_INT(errs, "Query_thread vs provided", provided, q);
        flag = -1;
        MT_CHECK_RC(errs, MPI_Is_thread_main(&flag));
        MT_CHECK_INT(errs, "Is_thread_main", 1, flag);
        MPI_Barrier(MPI_COMM_WORLD); /* lets other ranks run (and maybe migrate us) between queries */
    }

    /* a NULL result pointer is an argument error, reported through MPI_COMM_WORLD's handler (not a crash) */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int len, v;
    MT_CHECK_CLASS(errs, MPI_Query_thread(NULL), MPI_ERR_ARG);
    MT_CHECK_CLASS(errs, MPI_Is_thread_main(NULL), MPI_ERR_ARG);
    MT_CHECK_CLASS(errs, MPI_Initialized(NULL), MPI_ERR_ARG);
    MT_CHECK_CLASS(errs, MPI_Get_version(&v, NULL), MPI_ERR_ARG);
    MT_CHECK_CLASS(errs, MPI_Get_processor_name(NULL, &len), MPI_ERR_ARG);
    MT_CHECK_CLASS(errs, MPI_Init_thread(&argc, &argv, MPI_THREAD_SINGLE, &provided), MPI_ERR_OTHER); /* again */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);

    /* all ranks got the same level */
    int lo = -1, hi = -1;
    MPI_Allreduce(&provided, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&provided, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MT_CHECK(errs, lo == hi, "provided differs between ranks: min %d max %d", lo, hi);

    return mt_finish(errs);
}
