/* SPDX-License-Identifier: BSD-3-Clause */
/* The large-count forms of point-to-point (MPI-4.0, MPI_X_c: counts and sizes as MPI_Count):
 *  - each of the 21 moves its data as its int form does, around the ring (to the right, from the left; one rank
 *    talks to itself): Send/Ssend/Rsend/Bsend_c, Isend/Issend/Irsend/Ibsend_c, Recv_c, Irecv_c,
 *    Sendrecv(_replace)_c, Mrecv_c/Imrecv_c after Mprobe/Improbe, the persistent *_init_c started twice,
 *    Buffer_attach_c/Buffer_detach_c (the address and size given back);
 *  - their arguments are checked as the int forms' are, with the counts taken whole: a count of -2^32 + 1
 *    (1 if cut to an int) and -1 are MPI_ERR_COUNT in every one; a bad rank, tag, datatype, communicator or
 *    NULL buffer give their classes; a negative size or NULL buffer of Buffer_attach_c MPI_ERR_BUFFER;
 *  - a buffer of more than INT_MAX bytes attached by Buffer_attach_c (never touched: no memory used):
 *    MPI_Buffer_detach detaches it and gives its size as MPI_UNDEFINED (as MPI_Get_count does a count above
 *    INT_MAX), Buffer_detach_c gives it whole;
 *  - with MT_LARGE_COUNT=1 (the testlist's runs on one PE: 4 GiB of memory), a message of INT_MAX + 8
 *    MPI_BYTEs, more elements than an int counts, from rank 0 to rank 1 (to itself with one rank):
 *    MPI_Probe and MPI_Get_elements_x see its whole count, MPI_Get_count MPI_UNDEFINED, and the data
 *    arrives (every 4 KiB, and the first and last 64 KiB whole). */
#include <limits.h>
#include "mtest.h"

#define N 1000 /* ints per message */
#define BIG_NEG (-(MPI_Count)4294967295LL) /* -2^32 + 1: 1 as an int */
/* a negative size or NULL buffer given to MPI_Buffer_attach(_c): vmpi's class for them, MPICH's MPI_ERR_ARG */
#define MT_BUFFER_CLASS (MT_MPICH_BUGS ? MPI_ERR_ARG : MPI_ERR_BUFFER)

static void fill(int *b, int n, int src, int id)
{
    for (int i = 0; i < n; i++)
        b[i] = src * 100000 + id * 1000 + i;
}

static int check(int *b, int n, int src, int id, const char *what)
{
    int errs = 0;
    for (int i = 0; i < n; i++)
        if (b[i] != src * 100000 + id * 1000 + i) {
            MT_ERR(errs, "%s: element %d is %d, expected %d", what, i, b[i], src * 100000 + id * 1000 + i);
            break;
        }
    return errs;
}

static int check_count(const MPI_Status *st, int n, int src, int tag, const char *what)
{
    int errs = 0, cnt = -1;
    MPI_Count xcnt = -1;
    MPI_Get_count(st, MPI_INT, &cnt);
    MPI_Get_elements_x(st, MPI_INT, &xcnt);
    MT_CHECK(errs, cnt == n && xcnt == n, "%s: count %d, elements %lld, expected %d", what, cnt, (long long)xcnt, n);
    MT_CHECK(errs, st->MPI_SOURCE == src && st->MPI_TAG == tag, "%s: source %d tag %d, expected %d %d", what,
             st->MPI_SOURCE, st->MPI_TAG, src, tag);
    return errs;
}

/* the blocking sends, each to a receive posted before it (Rsend_c's precondition, and no ring deadlock) */
static int blocking_sends(int rank, int left, int right, int *sb, int *rb)
{
    int errs = 0;
    const char *names[] = {"MPI_Send_c", "MPI_Ssend_c", "MPI_Rsend_c", "MPI_Bsend_c"};
    int bsize = (int)(N * sizeof(int)) + MPI_BSEND_OVERHEAD;
    char *bbuf = mt_malloc((size_t)bsize);
    MT_CHECK_RC(errs, MPI_Buffer_attach_c(bbuf, (MPI_Count)bsize));
    for (int k = 0; k < 4; k++) {
        MPI_Request r;
        MPI_Status st;
        fill(sb, N, rank, k);
        memset(rb, 0, N * sizeof(int));
        MT_CHECK_RC(errs, MPI_Irecv_c(rb, (MPI_Count)N, MPI_INT, left, k, MPI_COMM_WORLD, &r));
        MPI_Barrier(MPI_COMM_WORLD); /* every receive is posted */
        int rc = k == 0   ? MPI_Send_c(sb, (MPI_Count)N, MPI_INT, right, k, MPI_COMM_WORLD)
                 : k == 1 ? MPI_Ssend_c(sb, (MPI_Count)N, MPI_INT, right, k, MPI_COMM_WORLD)
                 : k == 2 ? MPI_Rsend_c(sb, (MPI_Count)N, MPI_INT, right, k, MPI_COMM_WORLD)
                          : MPI_Bsend_c(sb, (MPI_Count)N, MPI_INT, right, k, MPI_COMM_WORLD);
        MT_CHECK(errs, rc == MPI_SUCCESS, "%s returned %d", names[k], rc);
        MT_CHECK_RC(errs, MPI_Wait(&r, &st));
        errs += check(rb, N, left, k, names[k]) + check_count(&st, N, left, k, names[k]);
    }
    void *det = NULL;
    MPI_Count detsize = -1;
    MT_CHECK_RC(errs, MPI_Buffer_detach_c(&det, &detsize));
    MT_CHECK(errs, det == bbuf && detsize == bsize, "Buffer_detach_c: %p %lld, expected %p %d", det, (long long)detsize,
             (void *)bbuf, bsize);
    free(bbuf);
    return errs;
}

static int nonblocking(int rank, int left, int right, int *sb, int *rb)
{
    int errs = 0;
    const char *names[] = {"MPI_Isend_c", "MPI_Issend_c", "MPI_Irsend_c", "MPI_Ibsend_c"};
    int bsize = (int)(N * sizeof(int)) + MPI_BSEND_OVERHEAD;
    char *bbuf = mt_malloc((size_t)bsize);
    MT_CHECK_RC(errs, MPI_Buffer_attach(bbuf, bsize));
    for (int k = 0; k < 4; k++) {
        MPI_Request r[2];
        MPI_Status st[2];
        int tag = 10 + k;
        fill(sb, N, rank, tag);
        memset(rb, 0, N * sizeof(int));
        MT_CHECK_RC(errs, MPI_Irecv_c(rb, (MPI_Count)N, MPI_INT, left, tag, MPI_COMM_WORLD, &r[1]));
        MPI_Barrier(MPI_COMM_WORLD);
        int rc = k == 0   ? MPI_Isend_c(sb, (MPI_Count)N, MPI_INT, right, tag, MPI_COMM_WORLD, &r[0])
                 : k == 1 ? MPI_Issend_c(sb, (MPI_Count)N, MPI_INT, right, tag, MPI_COMM_WORLD, &r[0])
                 : k == 2 ? MPI_Irsend_c(sb, (MPI_Count)N, MPI_INT, right, tag, MPI_COMM_WORLD, &r[0])
                          : MPI_Ibsend_c(sb, (MPI_Count)N, MPI_INT, right, tag, MPI_COMM_WORLD, &r[0]);
        MT_CHECK(errs, rc == MPI_SUCCESS, "%s returned %d", names[k], rc);
        MT_CHECK_RC(errs, MPI_Waitall(2, r, st));
        errs += check(rb, N, left, tag, names[k]) + check_count(&st[1], N, left, tag, names[k]);
    }
    /* Recv_c, its send nonblocking */
    MPI_Request r;
    MPI_Status st;
    fill(sb, N, rank, 20);
    MT_CHECK_RC(errs, MPI_Isend_c(sb, (MPI_Count)N, MPI_INT, right, 20, MPI_COMM_WORLD, &r));
    MT_CHECK_RC(errs, MPI_Recv_c(rb, (MPI_Count)N, MPI_INT, left, 20, MPI_COMM_WORLD, &st));
    MT_CHECK_RC(errs, MPI_Wait(&r, MPI_STATUS_IGNORE));
    errs += check(rb, N, left, 20, "MPI_Recv_c") + check_count(&st, N, left, 20, "MPI_Recv_c");
    void *det;
    int detsize;
    MT_CHECK_RC(errs, MPI_Buffer_detach(&det, &detsize));
    free(bbuf);
    return errs;
}

static int exchanges(int rank, int left, int right, int *sb, int *rb)
{
    int errs = 0;
    MPI_Status st;
    fill(sb, N, rank, 30);
    memset(rb, 0, N * sizeof(int));
    MT_CHECK_RC(errs, MPI_Sendrecv_c(sb, (MPI_Count)N, MPI_INT, right, 30, rb, (MPI_Count)N, MPI_INT, left, 30,
                                     MPI_COMM_WORLD, &st));
    errs += check(rb, N, left, 30, "MPI_Sendrecv_c") + check_count(&st, N, left, 30, "MPI_Sendrecv_c");
    fill(rb, N, rank, 31);
    MT_CHECK_RC(errs, MPI_Sendrecv_replace_c(rb, (MPI_Count)N, MPI_INT, right, 31, left, 31, MPI_COMM_WORLD, &st));
    errs += check(rb, N, left, 31, "MPI_Sendrecv_replace_c") + check_count(&st, N, left, 31, "MPI_Sendrecv_replace_c");

    /* matched receives */
    MPI_Request r, rr;
    MPI_Message msg;
    fill(sb, N, rank, 32);
    MT_CHECK_RC(errs, MPI_Isend_c(sb, (MPI_Count)N, MPI_INT, right, 32, MPI_COMM_WORLD, &r));
    MT_CHECK_RC(errs, MPI_Mprobe(left, 32, MPI_COMM_WORLD, &msg, &st));
    MT_CHECK_RC(errs, MPI_Mrecv_c(rb, (MPI_Count)N, MPI_INT, &msg, &st));
    MT_CHECK(errs, msg == MPI_MESSAGE_NULL, "Mrecv_c left the message handle 0x%x", (unsigned)msg);
    MT_CHECK_RC(errs, MPI_Wait(&r, MPI_STATUS_IGNORE));
    errs += check(rb, N, left, 32, "MPI_Mrecv_c") + check_count(&st, N, left, 32, "MPI_Mrecv_c");
    fill(sb, N, rank, 33);
    MT_CHECK_RC(errs, MPI_Isend_c(sb, (MPI_Count)N, MPI_INT, right, 33, MPI_COMM_WORLD, &r));
    int flag = 0;
    while (!flag)
        MT_CHECK_RC(errs, MPI_Improbe(left, 33, MPI_COMM_WORLD, &flag, &msg, &st));
    MT_CHECK_RC(errs, MPI_Imrecv_c(rb, (MPI_Count)N, MPI_INT, &msg, &rr));
    MT_CHECK_RC(errs, MPI_Wait(&rr, &st));
    MT_CHECK_RC(errs, MPI_Wait(&r, MPI_STATUS_IGNORE));
    errs += check(rb, N, left, 33, "MPI_Imrecv_c") + check_count(&st, N, left, 33, "MPI_Imrecv_c");
    /* MPI_MESSAGE_NO_PROC: the empty receive of MPI_PROC_NULL */
    msg = MPI_MESSAGE_NO_PROC;
    MT_CHECK_RC(errs, MPI_Mrecv_c(rb, (MPI_Count)N, MPI_INT, &msg, &st));
    MT_CHECK(errs, st.MPI_SOURCE == MPI_PROC_NULL, "Mrecv_c of MPI_MESSAGE_NO_PROC: source %d", st.MPI_SOURCE);
    return errs;
}

/* the persistent forms, each request started twice */
static int persistent(int rank, int left, int right, int *sb, int *rb)
{
    int errs = 0;
    const char *names[] = {"MPI_Send_init_c", "MPI_Ssend_init_c", "MPI_Rsend_init_c", "MPI_Bsend_init_c"};
    int bsize = (int)(N * sizeof(int)) + MPI_BSEND_OVERHEAD;
    char *bbuf = mt_malloc((size_t)bsize);
    MT_CHECK_RC(errs, MPI_Buffer_attach_c(bbuf, (MPI_Count)bsize));
    for (int k = 0; k < 4; k++) {
        MPI_Request r[2];
        MPI_Status st[2];
        int tag = 40 + k;
        int rc = k == 0   ? MPI_Send_init_c(sb, (MPI_Count)N, MPI_INT, right, tag, MPI_COMM_WORLD, &r[0])
                 : k == 1 ? MPI_Ssend_init_c(sb, (MPI_Count)N, MPI_INT, right, tag, MPI_COMM_WORLD, &r[0])
                 : k == 2 ? MPI_Rsend_init_c(sb, (MPI_Count)N, MPI_INT, right, tag, MPI_COMM_WORLD, &r[0])
                          : MPI_Bsend_init_c(sb, (MPI_Count)N, MPI_INT, right, tag, MPI_COMM_WORLD, &r[0]);
        MT_CHECK(errs, rc == MPI_SUCCESS, "%s returned %d", names[k], rc);
        MT_CHECK_RC(errs, MPI_Recv_init_c(rb, (MPI_Count)N, MPI_INT, left, tag, MPI_COMM_WORLD, &r[1]));
        for (int round = 0; round < 2; round++) {
            fill(sb, N, rank, tag + round);
            memset(rb, 0, N * sizeof(int));
            MT_CHECK_RC(errs, MPI_Start(&r[1]));
            MPI_Barrier(MPI_COMM_WORLD); /* the receives are posted (Rsend) */
            MT_CHECK_RC(errs, MPI_Start(&r[0]));
            MT_CHECK_RC(errs, MPI_Waitall(2, r, st));
            errs += check(rb, N, left, tag + round, names[k]) + check_count(&st[1], N, left, tag, names[k]);
            MPI_Barrier(MPI_COMM_WORLD); /* the send buffers are free before the next fill */
        }
        MPI_Request_free(&r[0]);
        MPI_Request_free(&r[1]);
    }
    void *det;
    MPI_Count detsize;
    MT_CHECK_RC(errs, MPI_Buffer_detach_c(&det, &detsize));
    free(bbuf);
    return errs;
}

/* argument errors under MPI_ERRORS_RETURN: nothing is sent, so the ranks need not agree */
static int arg_errors(int right, int *sb, int *rb)
{
    int errs = 0;
    const MPI_Count bad[] = {-1, BIG_NEG};
    MPI_Comm w = MPI_COMM_WORLD;
    MPI_Request r;
    MPI_Status st;
    MPI_Message msg;
    for (int i = 0; i < 2; i++) {
        MPI_Count c = bad[i];
        MT_CHECK_CLASS(errs, MPI_Send_c(sb, c, MPI_INT, right, 0, w), MPI_ERR_COUNT);
        MT_CHECK_CLASS(errs, MPI_Ssend_c(sb, c, MPI_INT, right, 0, w), MPI_ERR_COUNT);
        MT_CHECK_CLASS(errs, MPI_Rsend_c(sb, c, MPI_INT, right, 0, w), MPI_ERR_COUNT);
        MT_CHECK_CLASS(errs, MPI_Bsend_c(sb, c, MPI_INT, right, 0, w), MPI_ERR_COUNT);
        MT_CHECK_CLASS(errs, MPI_Recv_c(rb, c, MPI_INT, right, 0, w, &st), MPI_ERR_COUNT);
        MT_CHECK_CLASS(errs, MPI_Isend_c(sb, c, MPI_INT, right, 0, w, &r), MPI_ERR_COUNT);
        MT_CHECK_CLASS(errs, MPI_Issend_c(sb, c, MPI_INT, right, 0, w, &r), MPI_ERR_COUNT);
        MT_CHECK_CLASS(errs, MPI_Irsend_c(sb, c, MPI_INT, right, 0, w, &r), MPI_ERR_COUNT);
        MT_CHECK_CLASS(errs, MPI_Ibsend_c(sb, c, MPI_INT, right, 0, w, &r), MPI_ERR_COUNT);
        MT_CHECK_CLASS(errs, MPI_Irecv_c(rb, c, MPI_INT, right, 0, w, &r), MPI_ERR_COUNT);
        MT_CHECK_CLASS(errs, MPI_Sendrecv_c(sb, c, MPI_INT, right, 0, rb, 1, MPI_INT, right, 0, w, &st),
                       MPI_ERR_COUNT);
        MT_CHECK_CLASS(errs, MPI_Sendrecv_c(sb, 1, MPI_INT, right, 0, rb, c, MPI_INT, right, 0, w, &st),
                       MPI_ERR_COUNT);
        MT_CHECK_CLASS(errs, MPI_Sendrecv_replace_c(rb, c, MPI_INT, right, 0, right, 0, w, &st), MPI_ERR_COUNT);
        msg = MPI_MESSAGE_NO_PROC;
        MT_CHECK_CLASS(errs, MPI_Mrecv_c(rb, c, MPI_INT, &msg, &st), MPI_ERR_COUNT);
        MT_CHECK_CLASS(errs, MPI_Imrecv_c(rb, c, MPI_INT, &msg, &r), MPI_ERR_COUNT);
        MT_CHECK_CLASS(errs, MPI_Send_init_c(sb, c, MPI_INT, right, 0, w, &r), MPI_ERR_COUNT);
        MT_CHECK_CLASS(errs, MPI_Ssend_init_c(sb, c, MPI_INT, right, 0, w, &r), MPI_ERR_COUNT);
        MT_CHECK_CLASS(errs, MPI_Rsend_init_c(sb, c, MPI_INT, right, 0, w, &r), MPI_ERR_COUNT);
        MT_CHECK_CLASS(errs, MPI_Bsend_init_c(sb, c, MPI_INT, right, 0, w, &r), MPI_ERR_COUNT);
        MT_CHECK_CLASS(errs, MPI_Recv_init_c(rb, c, MPI_INT, right, 0, w, &r), MPI_ERR_COUNT);
        MT_CHECK_CLASS(errs, MPI_Buffer_attach_c(sb, c), MT_BUFFER_CLASS);
    }
    /* the other arguments: as the int forms' */
    int size;
    MPI_Comm_size(w, &size);
    MT_CHECK_CLASS(errs, MPI_Send_c(sb, 1, MPI_INT, size, 0, w), MPI_ERR_RANK);
    MT_CHECK_CLASS(errs, MPI_Recv_c(rb, 1, MPI_INT, -7, 0, w, &st), MPI_ERR_RANK);
    MT_CHECK_CLASS(errs, MPI_Isend_c(sb, 1, MPI_INT, right, -1, w, &r), MPI_ERR_TAG);
    MT_CHECK_CLASS(errs, MPI_Irecv_c(rb, 1, MPI_INT, right, -5, w, &r), MPI_ERR_TAG);
    MT_CHECK_CLASS(errs, MPI_Send_c(sb, 1, MPI_DATATYPE_NULL, right, 0, w), MPI_ERR_TYPE);
    MT_CHECK_CLASS(errs, MPI_Ssend_c(sb, 1, MPI_INT, right, 0, MPI_COMM_NULL), MPI_ERR_COMM);
    MT_CHECK_CLASS(errs, MPI_Send_c(NULL, 3, MPI_INT, right, 0, w), MPI_ERR_BUFFER);
    MT_CHECK_CLASS(errs, MPI_Isend_c(sb, 1, MPI_INT, right, 0, w, NULL), MPI_ERR_ARG);
    MT_CHECK_CLASS(errs, MPI_Mrecv_c(rb, 1, MPI_INT, NULL, &st), MPI_ERR_ARG);
    msg = MPI_MESSAGE_NULL;
    MT_CHECK_CLASS(errs, MPI_Mrecv_c(rb, 1, MPI_INT, &msg, &st), MPI_ERR_REQUEST);
    MT_CHECK_CLASS(errs, MPI_Buffer_attach_c(NULL, 16), MT_BUFFER_CLASS);
    MPI_Count sz;
    MT_CHECK_CLASS(errs, MPI_Buffer_detach_c(NULL, &sz), MPI_ERR_ARG);
    void *p;
    MT_CHECK_CLASS(errs, MPI_Buffer_detach_c(&p, NULL), MPI_ERR_ARG);
    /* zero counts with a NULL buffer are fine; to MPI_PROC_NULL nothing moves */
    MT_CHECK_RC(errs, MPI_Send_c(NULL, 0, MPI_INT, MPI_PROC_NULL, 0, w));
    MT_CHECK_RC(errs, MPI_Recv_c(NULL, 0, MPI_INT, MPI_PROC_NULL, 0, w, &st));
    MT_CHECK(errs, st.MPI_SOURCE == MPI_PROC_NULL, "Recv_c from MPI_PROC_NULL: source %d", st.MPI_SOURCE);
    return errs;
}

/* a buffer of more than INT_MAX bytes: only its address and size are kept (Bsend would write into it) */
static int big_attach(void)
{
    int errs = 0;
    const MPI_Count big = (MPI_Count)INT_MAX + 4096;
    char *huge = malloc((size_t)big); /* never touched: no memory used */
    if (huge == NULL) { /* the rank's memory slot is smaller (many ranks): nothing to test */
        fprintf(stderr, "large_count: no %lld-byte block; Buffer_attach_c above INT_MAX not tested\n", (long long)big);
        return 0;
    }
    void *det = NULL;
    int isize = -1;
    MT_CHECK_RC(errs, MPI_Buffer_attach_c(huge, big));
    MT_CHECK_RC(errs, MPI_Buffer_detach(&det, &isize));
    MT_CHECK(errs, det == huge && isize == MPI_UNDEFINED, "Buffer_detach of %lld bytes: %p, size %d, expected %p, "
             "MPI_UNDEFINED", (long long)big, det, isize, (void *)huge);
    MPI_Count size = -1;
    det = NULL;
    MT_CHECK_RC(errs, MPI_Buffer_attach_c(huge, big));
    MT_CHECK_RC(errs, MPI_Buffer_detach_c(&det, &size));
    MT_CHECK(errs, det == huge && size == big, "Buffer_detach_c: %p %lld, expected %p %lld", det, (long long)size,
             (void *)huge, (long long)big);
    free(huge);
    return errs;
}

/* The message of big_message, received from rank 0 and checked. */
static int recv_big(MPI_Count n, size_t edge)
{
    int errs = 0, cnt = 0;
    MPI_Status st;
    MPI_Count x = -1;
    unsigned char *d = mt_malloc((size_t)n);
    MT_CHECK_RC(errs, MPI_Probe(0, 7, MPI_COMM_WORLD, &st));
    MPI_Get_elements_x(&st, MPI_BYTE, &x);
    MT_CHECK_INT(errs, "Probe: elements of the big message", n, x);
    MT_CHECK_RC(errs, MPI_Recv_c(d, n, MPI_BYTE, 0, 7, MPI_COMM_WORLD, &st));
    MPI_Get_count(&st, MPI_BYTE, &cnt);
    MT_CHECK_INT(errs, "Get_count of INT_MAX + 8 bytes", MPI_UNDEFINED, cnt);
    MPI_Get_elements_x(&st, MPI_BYTE, &x);
    MT_CHECK_INT(errs, "Get_elements_x of the big message", n, x);
    for (size_t i = edge; i < (size_t)n - edge; i += 4096)
        if (d[i] != (unsigned char)(i >> 12)) {
            MT_ERR(errs, "big message: byte %zu is %d, expected %d", i, d[i], (unsigned char)(i >> 12));
            break;
        }
    MT_CHECK(errs, mt_verify(d, edge, 0, 1) < 0 && mt_verify(d + n - edge, edge, 0, 2) < 0,
             "big message: its first or last 64 KiB differ");
    free(d);
    return errs;
}

/* INT_MAX + 8 bytes from rank 0 to rank 1, or to itself with one rank */
static int big_message(int rank, int size)
{
    int errs = 0;
    const MPI_Count n = (MPI_Count)INT_MAX + 8;
    const size_t edge = 65536;
    if (rank == 0) {
        unsigned char *s = mt_malloc((size_t)n);
        memset(s, 0x5a, (size_t)n);
        for (size_t i = 0; i < (size_t)n; i += 4096)
            s[i] = (unsigned char)(i >> 12);
        mt_fill(s, edge, 0, 1);
        mt_fill(s + n - edge, edge, 0, 2);
        if (size == 1) {
            MPI_Request r;
            MT_CHECK_RC(errs, MPI_Isend_c(s, n, MPI_BYTE, 0, 7, MPI_COMM_WORLD, &r));
            errs += recv_big(n, edge);
            MT_CHECK_RC(errs, MPI_Wait(&r, MPI_STATUS_IGNORE));
        } else {
            MT_CHECK_RC(errs, MPI_Send_c(s, n, MPI_BYTE, 1, 7, MPI_COMM_WORLD));
        }
        free(s);
    } else if (rank == 1) {
        errs += recv_big(n, edge);
    }
    return errs;
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int *sb = mt_malloc(N * sizeof(int)), *rb = mt_malloc(N * sizeof(int));

    errs += blocking_sends(rank, left, right, sb, rb);
    errs += nonblocking(rank, left, right, sb, rb);
    errs += exchanges(rank, left, right, sb, rb);
    errs += persistent(rank, left, right, sb, rb);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    errs += arg_errors(right, sb, rb);
    if (rank == 0)
        errs += big_attach();
    MPI_Barrier(MPI_COMM_WORLD);
    const char *large = getenv("MT_LARGE_COUNT");
    if (large && strcmp(large, "1") == 0)
        errs += big_message(rank, size);
    free(sb);
    free(rb);
    return mt_finish(errs);
}
