/* SPDX-License-Identifier: BSD-3-Clause */
/* Output of ranks stays in whole lines: every rank prints each line of stdout and of stderr in pieces, with
 * MPI calls that switch ranks (barriers, a ring exchange) between the pieces.  Rank 0 first points fd 1
 * and 2 at a temporary file; at the end it checks that every line in the file is one complete line of one
 * rank and that every expected line is there exactly once.  Without per-rank line buffering the pieces of
 * different ranks interleave. */
#include <unistd.h>
#include "mtest.h"

#define K 3

static int parse(const char *line, int size, int *r, int *k, int *kind)
{
    int r2, k2, k3, n = 0;
    if (sscanf(line, "L %d %d x%d end %d %d%n", r, k, &k3, &r2, &k2, &n) == 5 && line[n] == '\n' &&
        *r == r2 && *k == k2 && *k == k3) {
        *kind = 0;
    } else if (sscanf(line, "E %d %d%n", r, k, &n) == 2 && line[n] == '\n') {
        *kind = 1;
    } else {
        return 0;
    }
    return *r >= 0 && *r < size && *k >= 0 && *k < K;
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size, save1 = -1, save2 = -1;
    FILE *tmp = NULL;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0) {
        fflush(NULL);
        tmp = tmpfile();
        save1 = dup(1);
        save2 = dup(2);
        if (!tmp || save1 < 0 || save2 < 0 || dup2(fileno(tmp), 1) < 0 || dup2(fileno(tmp), 2) < 0)
            MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    for (int k = 0; k < K; k++) {
        int in = -1, right = (rank + 1) % size, left = (rank + size - 1) % size;
        printf("L %d %d ", rank, k);
        fprintf(stderr, "E %d ", rank);
        MPI_Barrier(MPI_COMM_WORLD);
        printf("x%d ", k);
        MPI_Sendrecv(&k, 1, MPI_INT, right, 0, &in, 1, MPI_INT, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        fprintf(stderr, "%d\n", in);
        MPI_Barrier(MPI_COMM_WORLD);
        printf("end %d %d\n", rank, k);
    }
    fflush(stdout); /* each rank its own lines, as each process of an MPI job would */
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        fflush(NULL);
        dup2(save1, 1);
        dup2(save2, 2);
        close(save1);
        close(save2);
        char *seen = calloc((size_t)size * K * 2, 1);
        char line[256];
        int nlines = 0;
        rewind(tmp);
        while (fgets(line, sizeof line, tmp)) {
            int r, k, kind;
            nlines++;
            if (!parse(line, size, &r, &k, &kind)) {
                MT_ERR(errs, "line %d is not one whole line of one rank: '%.*s'", nlines,
                       (int)strcspn(line, "\n"), line);
                continue;
            }
            if (seen[(r * K + k) * 2 + kind]++)
                MT_ERR(errs, "line %d repeats rank %d's line %d", nlines, r, k);
        }
        for (int i = 0; i < size * K * 2; i++)
            if (!seen[i])
                MT_ERR(errs, "rank %d's %s line %d is missing", i / 2 / K, i % 2 ? "stderr" : "stdout", i / 2 % K);
        free(seen);
        fclose(tmp);
    }
    return mt_finish(errs);
}
