/* SPDX-License-Identifier: BSD-3-Clause */
/* Remote search with active messages (docs/AM.md): each rank holds a dataset of short words in its window;
 * every rank sends queries to the next rank, whose handler returns the dataset's words that start with each
 * query's letter (up to MAXHITS), without the target calling MPI.  The answers are checked against the same
 * search done locally. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

enum { WORD = 8, NWORDS = 512, NQUERIES = 64, MAXHITS = 4 };

static void fill_dataset(char *data, int rank)
{
    for (int i = 0; i < NWORDS; i++)
        snprintf(data + i * WORD, WORD, "%c%05d", 'a' + (i * 7 + rank) % 26, i);
}

/* One segment: a 1-character query in, up to MAXHITS words out; counts[s] says how many characters. */
static void search(const void *in, int in_count, MPI_Datatype in_type, void *dataset, int dataset_count,
                   MPI_Datatype dataset_type, void *out, int out_count, MPI_Datatype out_type, int nseg,
                   int *counts, void *extra)
{
    const char *q = in, *data = dataset;
    char *o = out;
    for (int s = 0; s < nseg; s++) {
        int n = 0;
        for (int i = 0; i < dataset_count / WORD && n < MAXHITS; i++)
            if (data[i * WORD] == q[s * in_count])
                memcpy(o + s * out_count + n++ * WORD, data + i * WORD, WORD);
        counts[s] = n * WORD; /* in elements of the output datatype */
    }
}

int main(int argc, char **argv)
{
    int rank, size, errors = 0, hits = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char *data;
    MPI_Win win;
    MPI_Win_allocate(NWORDS * WORD, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &data, &win);
    fill_dataset(data, rank);
    MPIX_Am_op op;
    MPIX_Amv_op_create(search, NULL, &op);
    MPI_Barrier(MPI_COMM_WORLD); /* every dataset is filled and every handler registered */

    int target = (rank + 1) % size, counts[NQUERIES];
    char queries[NQUERIES], answers[NQUERIES][MAXHITS * WORD], theirs[NWORDS * WORD];
    for (int s = 0; s < NQUERIES; s++)
        queries[s] = 'a' + (s * 5 + rank) % 26;
    MPI_Win_lock(MPI_LOCK_SHARED, target, 0, win);
    MPIX_Amv(queries, 1, MPI_CHAR, answers, MAXHITS * WORD, MPI_CHAR, NQUERIES, target, MPI_CHAR, 0,
             NWORDS * WORD, MPI_CHAR, MPI_CHAR, counts, op, win);
    MPI_Win_unlock(target, win);

    fill_dataset(theirs, target); /* the same search, here */
    for (int s = 0; s < NQUERIES; s++) {
        char expect[MAXHITS * WORD];
        int n;
        search(&queries[s], 1, MPI_CHAR, theirs, NWORDS * WORD, MPI_CHAR, expect, MAXHITS * WORD, MPI_CHAR, 1, &n,
               NULL);
        errors += n != counts[s] || memcmp(expect, answers[s], (size_t)n) != 0;
        hits += counts[s] / WORD;
    }
    int all[2] = {errors, hits}, sum[2];
    MPI_Reduce(all, sum, 2, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("remote search with active messages on %d ranks: %d queries, %d words found, %d wrong answers\n",
               size, size * NQUERIES, sum[1], sum[0]);
    MPIX_Am_op_free(&op);
    MPI_Win_free(&win);
    MPI_Finalize();
    return sum[0] != 0 && rank == 0;
}
