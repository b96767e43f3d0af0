/* SPDX-License-Identifier: BSD-3-Clause */
/* The remote-address check gives the same answer whether or not the origin's last lookup found the same block
 * (vmpi keeps it in a one-entry cache): for every process's block, each access below is made twice, first
 * after an access to another process's block (nothing cached for this one), then right after a valid access
 * to the same block (cached):
 *   - a put of the whole block and of its last byte succeed;
 *   - a put of one byte past the end, and a 0-byte strided put whose address is one past the end, fail with
 *     MPI_ERR_RMA_RANGE (run with VMPI_ARMCI_ERRORS=return);
 *   - a put that starts inside and ends one byte past the end fails. */
#include "armci_test.h"

enum { N = 256 };

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    at_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char **p = mt_malloc(sizeof(char *) * (size_t)size), *buf = mt_malloc(N + 1);
    memset(buf, rank + 1, N + 1);
    MT_CHECK_INT(errs, "ARMCI_Malloc", 0, ARMCI_Malloc((void **)p, N));
    at_migrate();
    int zero[1] = {0};
    for (int t = 0; t < size; t++) {
        for (int cached = 0; cached < 2; cached++) {
            int other = (t + 1) % size;
            if (cached)
                ARMCI_Put(buf, p[t], 1, t);
            else if (size > 1)
                ARMCI_Put(buf, p[other], 1, other);
            char what[96];
#define AT_RC(name, expected, call)                                                                           \
    do {                                                                                                      \
        snprintf(what, sizeof what, "%s to process %d (%s)", name, t, cached ? "cached" : "not cached");     \
        MT_CHECK_INT(errs, what, expected, call);                                                             \
    } while (0)
            AT_RC("ARMCI_Put of the whole block", 0, ARMCI_Put(buf, p[t], N, t));
            AT_RC("ARMCI_Put of the last byte", 0, ARMCI_Put(buf, p[t] + N - 1, 1, t));
            if (cached)
                ARMCI_Put(buf, p[t], 1, t);
            else if (size > 1)
                ARMCI_Put(buf, p[other], 1, other);
#ifdef ARMCI_VMPI
            AT_RC("a 0-byte ARMCI_PutS one past the end", MPI_ERR_RMA_RANGE,
                  ARMCI_PutS(buf, NULL, p[t] + N, NULL, zero, 0, t));
            if (cached)
                ARMCI_Put(buf, p[t], 1, t);
            AT_RC("ARMCI_Put of a byte one past the end", MPI_ERR_RMA_RANGE, ARMCI_Put(buf, p[t] + N, 1, t));
            if (cached)
                ARMCI_Put(buf, p[t], 1, t);
            AT_RC("ARMCI_Put of the last byte and one more", MPI_ERR_RMA_RANGE, ARMCI_Put(buf, p[t] + N - 1, 2, t));
#endif
        }
    }
    (void)zero;
    ARMCI_Barrier();
    MT_CHECK_INT(errs, "ARMCI_Free", 0, ARMCI_Free(p[rank]));
    free(buf);
    free(p);
    return at_finish(errs);
}
