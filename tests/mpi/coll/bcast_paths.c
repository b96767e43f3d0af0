/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_Bcast across vmpi's paths and their edges:
 *  - sizes on both sides of every threshold (56/57 bytes: data inline in the mailbox or in a big buffer;
 *    2048/2049: eager or synchronized; 32767/32768: staged or copied in slices; 3 MiB: past the cache
 *    budget on 8 ranks and up, so partly streamed), from the first, a middle and the last root;
 *  - layouts that differ between ranks with matching signatures: the root sends a vector of ints and the
 *    others receive contiguous ints, and the other way round with every other reader using the vector (so
 *    some readers are filled in slices and the others copy their own);
 *  - 300 broadcasts in a row of sizes cycling over the eager classes from rotating roots (the mailbox ring
 *    and the big buffers wrap many times);
 *  - a reader whose count is smaller than the root's gets MPI_ERR_TRUNCATE (MPI_ERRORS_RETURN) and the part
 *    that fits, on each path (not checked against MPICH, which fails differently).
 * Every byte checked, and nothing written past the receive buffer or between a vector's blocks. */
#include "mtest.h"

static unsigned char pat(int root, int id, size_t i) { return mt_pat(root, id, i); }

/* Contiguous broadcast of `len` bytes from `root`; checks every byte and the guard after it. */
static int check_bytes(unsigned char *buf, size_t len, int root, int id, int rank)
{
    int errs = 0;
    for (size_t i = 0; i < len; i++)
        buf[i] = rank == root ? pat(root, id, i) : 0xEE;
    memset(buf + len, 0xDD, 64);
    MT_CHECK_RC(errs, MPI_Bcast(buf, (int)len, MPI_BYTE, root, MPI_COMM_WORLD));
    for (size_t i = 0; i < len; i++)
        if (buf[i] != pat(root, id, i)) {
            MT_ERR(errs, "Bcast of %zu bytes from %d: byte %zu is %d, expected %d", len, root, i, buf[i],
                   pat(root, id, i));
            break;
        }
    for (size_t i = len; i < len + 64; i++)
        if (buf[i] != 0xDD) {
            MT_ERR(errs, "Bcast of %zu bytes from %d: wrote past the end", len, root);
            break;
        }
    return errs;
}

/* n ints: the root uses layout `rootvec`, reader r uses `vec(r)`; a vector is n/2 blocks of 2 ints with a
 * gap of 2 ints between blocks (the gaps must stay untouched). */
static int check_layouts(int *buf, int n, int root, int id, int rank, int rootvec, int readervec)
{
    int errs = 0;
    MPI_Datatype vec;
    MPI_Type_vector(n / 2, 2, 4, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    int usevec = rank == root ? rootvec : readervec;
    for (int i = 0; i < 2 * n; i++)
        buf[i] = -1;
    for (int i = 0; i < n; i++) {
        int at = usevec ? (i / 2) * 4 + i % 2 : i;
        buf[at] = rank == root ? id * 1000003 + i : -2;
    }
    if (usevec)
        MT_CHECK_RC(errs, MPI_Bcast(buf, 1, vec, root, MPI_COMM_WORLD));
    else
        MT_CHECK_RC(errs, MPI_Bcast(buf, n, MPI_INT, root, MPI_COMM_WORLD));
    for (int i = 0, bad = 0; i < n && !bad; i++) {
        int at = usevec ? (i / 2) * 4 + i % 2 : i;
        if (buf[at] != id * 1000003 + i) {
            MT_ERR(errs, "Bcast of %d ints (root %s, this rank %s) from %d: element %d is %d", n,
                   rootvec ? "vector" : "contiguous", usevec ? "vector" : "contiguous", root, i, buf[at]);
            bad = 1;
        }
    }
    for (int i = 0; i < 2 * n; i++) {
        int in_data = usevec ? (i % 4 < 2 && i < 2 * n) : i < n;
        if (!in_data && buf[i] != -1) {
            MT_ERR(errs, "Bcast of %d ints from %d: int %d outside the data was written", n, root, i);
            break;
        }
    }
    MPI_Type_free(&vec);
    return errs;
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const size_t big = (size_t)3 << 20;
    unsigned char *buf = mt_malloc(2 * big + 256);
    int roots[3] = {0, size / 2, size - 1};

    static const size_t sizes[] = {56, 57, 2048, 2049, 32767, 32768, (size_t)3 << 20};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (int k = 0; k < 3; k++) {
            if (sizes[s] > 65536 && size > 16 && k != 1)
                continue; /* 64 ranks: one root at 3 MiB is enough */
            errs += check_bytes(buf, sizes[s], roots[k], (int)s * 3 + k, rank);
        }

    static const int nints[] = {8, 500, 1000, 100000};
    for (size_t s = 0; s < sizeof nints / sizeof nints[0]; s++)
        for (int k = 0; k < 3; k++) {
            int root = roots[k], id = (int)s * 10 + k;
            errs += check_layouts((int *)buf, nints[s], root, id, rank, 1, 0);
            errs += check_layouts((int *)buf, nints[s], root, id + 5, rank, 0, rank % 2);
        }

    /* eager broadcasts in a row: sizes over the inline and big classes, rotating roots */
    for (int i = 0; i < 300; i++) {
        static const int len[5] = {1, 56, 57, 700, 2048};
        int n = len[i % 5], root = (i * 5 + 3) % size;
        for (int j = 0; j < n; j++)
            buf[j] = rank == root ? pat(root, i, (size_t)j) : 0;
        MT_CHECK_RC(errs, MPI_Bcast(buf, n, MPI_BYTE, root, MPI_COMM_WORLD));
        for (int j = 0; j < n; j++)
            if (buf[j] != pat(root, i, (size_t)j)) {
                MT_ERR(errs, "broadcast %d (%d bytes from %d): byte %d differs", i, n, root, j);
                break;
            }
    }

    /* a reader with a smaller count (an erroneous program): MPI_ERR_TRUNCATE there, the part that fits
     * delivered, the others unaffected.  What vmpi guarantees; MPICH delivers nothing and fails other ranks. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    static const int tsize[3] = {100, 10000, 100000};
    for (int t = 0; t < 3 && size > 1 && !MT_MPICH_BUGS; t++) {
        int root = roots[t], shorty = (root + 1) % size, n = tsize[t];
        int mine = rank == shorty ? n / 2 : n;
        for (int j = 0; j < n; j++)
            buf[j] = rank == root ? pat(root, 77 + t, (size_t)j) : 0;
        memset(buf + mine, 0xDD, 64);
        int rc = MPI_Bcast(buf, mine, MPI_BYTE, root, MPI_COMM_WORLD), cls = -1;
        MPI_Error_class(rc, &cls);
        MT_CHECK_INT(errs, rank == shorty ? "truncated Bcast: error class" : "Bcast with a truncated reader",
                     rank == shorty ? MPI_ERR_TRUNCATE : MPI_SUCCESS, cls);
        for (int j = 0; j < mine; j++)
            if (buf[j] != pat(root, 77 + t, (size_t)j)) {
                MT_ERR(errs, "truncated Bcast of %d bytes: byte %d differs", n, j);
                break;
            }
        for (int j = mine; j < mine + 64; j++)
            if (buf[j] != 0xDD) {
                MT_ERR(errs, "truncated Bcast of %d bytes: wrote past the receive buffer", n);
                break;
            }
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    free(buf);
    return mt_finish(errs);
}
