/* SPDX-License-Identifier: BSD-3-Clause */
/* With MPI_ERRORS_RETURN, bad arguments give the right error class; a user handler is called. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

/* per-rank counters: ranks share the program's globals until privatization (its own issue) */
#define MAXR 1024
static int called_n[MAXR], called_code_n[MAXR];
static void handler(MPI_Comm *comm, int *code, ...)
{
    int r;
    MPI_Comm_rank(*comm, &r);
    called_n[r % MAXR]++, called_code_n[r % MAXR] = *code;
}
#define called called_n[rank % MAXR]
#define called_code called_code_n[rank % MAXR]

static int check(int rc, int expect, const char *what)
{
    int cls = -1, len = 0;
    char s[MPI_MAX_ERROR_STRING];
    MPI_Error_class(rc, &cls);
    MPI_Error_string(rc, s, &len);
    if (cls != expect || len <= 0 || (int)strlen(s) != len) {
        printf("%s: got class %d, expected %d (%s)\n", what, cls, expect, s);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    int rank, size, errs = 0, v = 0;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Errhandler eh;
    MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh);
    errs += eh != MPI_ERRORS_RETURN;
    errs += check(MPI_Send(&v, 1, MPI_INT, size, 0, MPI_COMM_WORLD), MPI_ERR_RANK, "bad rank");
    errs += check(MPI_Send(&v, -1, MPI_INT, 0, 0, MPI_COMM_WORLD), MPI_ERR_COUNT, "negative count");
    errs += check(MPI_Send(&v, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_WORLD), MPI_ERR_TYPE, "null type");
    errs += check(MPI_Send(&v, 1, MPI_INT, 0, -5, MPI_COMM_WORLD), MPI_ERR_TAG, "negative tag");
    errs += check(MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_NULL), MPI_ERR_COMM, "null comm");
    errs += check(MPI_Send(NULL, 3, MPI_INT, 0, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER, "null buffer");
    errs += check(MPI_Recv(&v, 1, MPI_INT, size + 3, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE), MPI_ERR_RANK, "recv rank");
    req = (MPI_Request)12345;
    errs += check(MPI_Wait(&req, MPI_STATUS_IGNORE), MPI_ERR_REQUEST, "bad request");
    errs += check(MPI_Allreduce(&v, &v, 1, MPI_C_FLOAT_COMPLEX, MPI_MAX, MPI_COMM_WORLD), MPI_ERR_OP, "max on complex");
    char big[8] = {0};
    errs += check(MPI_Sendrecv(big, 8, MPI_BYTE, rank, 1, big, 4, MPI_BYTE, rank, 1, MPI_COMM_WORLD,
                               MPI_STATUS_IGNORE),
                  MPI_ERR_TRUNCATE, "truncation");
    MPI_Errhandler user;
    MPI_Comm_create_errhandler(handler, &user);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, user);
    MPI_Send(&v, 1, MPI_INT, -7, 0, MPI_COMM_WORLD);
    errs += called != 1 || called_code != MPI_ERR_RANK;
    MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_OTHER);
    errs += called != 2 || called_code != MPI_ERR_OTHER;
    MPI_Errhandler_free(&user);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    int total;
    MPI_Allreduce(&errs, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf(total ? " Found %d errors\n" : " No Errors\n", total);
    MPI_Finalize();
    return 0;
}
