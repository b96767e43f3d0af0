/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_Bcast from every root, with MPI_BYTE / MPI_INT / MPI_DOUBLE / MPI_2INT at sizes of 0, 1, 7, 1000,
 * 64 KiB+3 and 1 MiB+5 bytes (typed counts straddling the same thresholds).  Large sizes use every root when
 * there are at most 16 ranks, else three roots.  The root's buffer is unchanged; every other rank gets
 * exactly the root's data and nothing beyond the count is written.  Also back-to-back broadcasts from
 * alternating roots, and a broadcast on MPI_COMM_SELF. */
#include "mtest.h"

#define NSIZES 6
static const int nbytes[NSIZES] = {0, 1, 7, 1000, 65536 + 3, 1048576 + 5};

static unsigned char val(int root, int id, size_t i) { return mt_pat(root, id, i); }

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const size_t maxb = 1048576 + 16 + 64;
    unsigned char *buf = mt_malloc(maxb);
    const MPI_Datatype types[4] = {MPI_BYTE, MPI_INT, MPI_DOUBLE, MPI_2INT};
    const int tsz[4] = {1, (int)sizeof(int), (int)sizeof(double), 2 * (int)sizeof(int)};
    const char *tname[4] = {"MPI_BYTE", "MPI_INT", "MPI_DOUBLE", "MPI_2INT"};

    for (int s = 0; s < NSIZES; s++)
        for (int t = 0; t < 4; t++) {
            int count = (nbytes[s] + tsz[t] - 1) / tsz[t]; /* at least that many bytes */
            size_t len = (size_t)count * tsz[t];
            for (int root = 0; root < size; root++) {
                if (size > 16 && nbytes[s] > 1000 && root != 0 && root != size / 2 && root != size - 1)
                    continue;
                int id = s * 4 + t + root;
                /* the data is a byte pattern; for INT/DOUBLE/2INT it is simply carried as such */
                if (rank == root)
                    for (size_t i = 0; i < len; i++)
                        buf[i] = val(root, id, i);
                else
                    memset(buf, 0xEE, len);
                memset(buf + len, 0xDD, 64);
                if (t == 2) /* keep doubles free of signalling-NaN patterns: use real values */
                    for (int i = 0; rank == root && i < count; i++)
                        ((double *)buf)[i] = root * 1e6 + id + i * 0.5;
                MT_CHECK_RC(errs, MPI_Bcast(buf, count, types[t], root, MPI_COMM_WORLD));
                long bad = -1;
                for (size_t i = 0; i < len && bad < 0 && t != 2; i++)
                    if (buf[i] != val(root, id, i))
                        bad = (long)i;
                for (int i = 0; i < count && bad < 0 && t == 2; i++)
                    if (((double *)buf)[i] != root * 1e6 + id + i * 0.5)
                        bad = i;
                MT_CHECK(errs, bad < 0, "Bcast %s count %d root %d: differs at %ld", tname[t], count, root, bad);
                for (size_t i = len; i < len + 64; i++)
                    if (buf[i] != 0xDD) {
                        MT_ERR(errs, "Bcast %s count %d root %d: wrote past the end", tname[t], count, root);
                        break;
                    }
            }
        }

    /* back-to-back small broadcasts from alternating roots, values checked */
    for (int i = 0; i < 200; i++) {
        int root = (i * 7) % size, v[3] = {-1, -1, -1};
        if (rank == root) {
            v[0] = i;
            v[1] = root;
            v[2] = i * root;
        }
        MPI_Bcast(v, 3, MPI_INT, root, MPI_COMM_WORLD);
        MT_CHECK(errs, v[0] == i && v[1] == root && v[2] == i * root, "broadcast %d from %d: got %d %d %d", i, root,
                 v[0], v[1], v[2]);
    }
    {
        int v = 5;
        MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_SELF);
        MT_CHECK_INT(errs, "Bcast on COMM_SELF", 5, v);
    }
    free(buf);
    return mt_finish(errs);
}
