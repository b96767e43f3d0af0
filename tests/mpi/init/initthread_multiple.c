/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_Init_thread asking for MPI_THREAD_MULTIPLE: any valid level may be provided, but Query_thread must
 * agree, and a level above the requested one must not be returned. */
#include "mtest.h"

int main(int argc, char **argv)
{
    int errs = 0, provided = -1, q = -1, flag = -1, init = 0;

    MT_CHECK_RC(errs, MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    MT_CHECK_RC(errs, MPI_Initialized(&init));
    MT_CHECK_INT(errs, "Initialized after Init_thread", 1, init);
    MT_CHECK(errs, provided >= MPI_THREAD_SINGLE && provided <= MPI_THREAD_MULTIPLE, "provided = %d is not a level",
             provided);
    MT_CHECK_RC(errs, MPI_Query_thread(&q));
    MT_CHECK_INT(errs, "Query_thread vs provided", provided, q);
    MT_CHECK_RC(errs, MPI_Is_thread_main(&flag));
    MT_CHECK_INT(errs, "Is_thread_main", 1, flag);
    return mt_finish(errs);
}
