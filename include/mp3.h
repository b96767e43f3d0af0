/* SPDX-License-Identifier: BSD-3-Clause */
/* The message-passing macros ARMCI's example and benchmark programs use (Global Arrays' mp3.h), over MPI. */
#ifndef _MP3_H_
#define _MP3_H_

#include <mpi.h>

#define MP_BARRIER() MPI_Barrier(MPI_COMM_WORLD)
#define MP_FINALIZE() MPI_Finalize()
#define MP_INIT(argc, argv) MPI_Init(&(argc), &(argv))
#define MP_MYID(pid) MPI_Comm_rank(MPI_COMM_WORLD, (pid))
#define MP_PROCS(pproc) MPI_Comm_size(MPI_COMM_WORLD, (pproc))
#define MP_TIMER MPI_Wtime
#define MP_ASSERT(code)                                                                                         \
    do {                                                                                                        \
        if (MPI_SUCCESS != (code))                                                                              \
            MPI_Abort(MPI_COMM_WORLD, (code));                                                                  \
    } while (0)

#endif
