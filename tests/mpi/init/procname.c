/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_Get_processor_name names the host of the calling rank's process: this machine's name (gethostname) in
 * a job on one node; with vmpirun --emulate-nodes (MT_NODES, mtest.h) the name the launcher gives each
 * process's node, so ranks have one name per node: equal within a node, different between nodes.  The same
 * after a migration point (ranks move within their process: the name stays the host's). */
#include <stdbool.h>
#include <unistd.h>
#include "mtest.h"

#define LEN MPI_MAX_PROCESSOR_NAME

static void check_names(int *errs, int rank, int size, const char *when)
{
    char mine[LEN];
    int len = -1;
    memset(mine, 'X', sizeof mine);
    MT_CHECK_RC(*errs, MPI_Get_processor_name(mine, &len));
    MT_CHECK(*errs, len > 0 && len < LEN && (size_t)len == strnlen(mine, LEN), "%s: resultlen %d, strlen %zu", when,
             len, strnlen(mine, LEN));
    char *all = rank == 0 ? mt_malloc((size_t)size * LEN) : NULL;
    MPI_Gather(mine, LEN, MPI_CHAR, all, LEN, MPI_CHAR, 0, MPI_COMM_WORLD);
    if (rank != 0)
        return;
    char host[LEN] = "";
    gethostname(host, sizeof host - 1);
    for (int r = 0; r < size; r++) {
        const char *n = all + (size_t)r * LEN;
        if (mt_nnodes() == 1)
            MT_CHECK(*errs, !strcmp(n, host), "%s: rank %d names '%s', this host is '%s'", when, r, n, host);
        for (int q = 0; q < r; q++) {
            bool same_node = mt_node_of(q) == mt_node_of(r), same_name = !strcmp(n, all + (size_t)q * LEN);
            MT_CHECK(*errs, same_node == same_name, "%s: ranks %d (node %d) and %d (node %d) name '%s' and '%s'",
                     when, q, mt_node_of(q), r, mt_node_of(r), all + (size_t)q * LEN, n);
        }
    }
    free(all);
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check_names(&errs, rank, size, "at start");
    mt_migrate();
    check_names(&errs, rank, size, "after a migration point");
    return mt_finish(errs);
}
