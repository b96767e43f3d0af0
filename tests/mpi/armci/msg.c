/* SPDX-License-Identifier: BSD-3-Clause */
/* ARMCI's message-passing helpers (message.h):
 *   - armci_msg_igop / lgop / llgop / fgop / dgop with "+", "*", "max", "min", "absmax", "absmin" and, for the
 *     integer types, "or", on 4 elements whose values differ per rank and element (negative ones too, so
 *     that absmax/absmin differ from max/min); armci_msg_gop_scope(SCOPE_ALL) with each type constant; the
 *     results are exact;
 *   - armci_msg_bcast, armci_msg_brdcst and armci_msg_bcast_scope from different roots;
 *   - armci_msg_snd / armci_msg_rcv between pairs (0,1), (2,3)... (an odd last rank talks to itself), small
 *     and 100,000 bytes, with the received length; armci_msg_rcvany at rank 0 from every other rank (its
 *     result is the sender); armci_msg_barrier;
 *   - vmpi: armci_msg_reduce (the result at rank 0). */
#include "armci_test.h"

enum { N = 4, BIG = 100000 };
static const char *ops[] = {"+", "*", "max", "min", "absmax", "absmin", "or"};
enum { NOPS = 7 };

/* rank r's element i for op o (as a long; "or" for ints uses bits below 31) */
static long val(int o, int r, int i, int bits)
{
    if (o == 1)
        return ((r + i) % 5 == 0 ? 2 : 1) * ((r + i) % 3 == 0 ? -1 : 1);
    if (o == 6)
        return 1L << ((r * 3 + i) % bits);
    return (r % 2 ? -1 : 1) * (long)(r * 3 + i + 1);
}

static long combine(int o, long a, long b)
{
    switch (o) {
    case 0: return a + b;
    case 1: return a * b;
    case 2: return a > b ? a : b;
    case 3: return a < b ? a : b;
    case 4: return labs(a) > labs(b) ? labs(a) : labs(b);
    case 5: return labs(a) < labs(b) ? labs(a) : labs(b);
    default: return a | b;
    }
}

static long expect(int o, int size, int i, int bits)
{
    long e = val(o, 0, i, bits);
    if (o >= 4 && o <= 5)
        e = labs(e);
    for (int r = 1; r < size; r++)
        e = combine(o, e, val(o, r, i, bits));
    return e;
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    at_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char what[100];

    /* ---- reductions ---- */
    for (int o = 0; o < NOPS; o++) {
        int xi[N], xsi[N];
        long xl[N], xsl[N];
        long long xll[N];
        float xf[N];
        double xd[N], xsd[N];
        for (int i = 0; i < N; i++) {
            xi[i] = xsi[i] = (int)val(o, rank, i, 31);
            xl[i] = xsl[i] = val(o, rank, i, 63);
            xll[i] = val(o, rank, i, 63);
            xf[i] = (float)val(o, rank, i, 31);
            xd[i] = xsd[i] = (double)val(o, rank, i, 31);
        }
        char *op = (char *)ops[o];
        armci_msg_igop(xi, N, op);
        armci_msg_lgop(xl, N, op);
        armci_msg_llgop(xll, N, op);
        armci_msg_gop_scope(SCOPE_ALL, xsi, N, op, ARMCI_INT);
        armci_msg_gop_scope(SCOPE_ALL, xsl, N, op, ARMCI_LONG);
        if (o < 6) {
            armci_msg_fgop(xf, N, op);
            armci_msg_dgop(xd, N, op);
            armci_msg_gop_scope(SCOPE_ALL, xsd, N, op, ARMCI_DOUBLE);
        }
        for (int i = 0; i < N; i++) {
            long ei = expect(o, size, i, 31), el = expect(o, size, i, 63);
            snprintf(what, sizeof what, "armci_msg_igop \"%s\", element %d", op, i);
            MT_CHECK_INT(errs, what, ei, xi[i]);
            snprintf(what, sizeof what, "armci_msg_gop_scope ARMCI_INT \"%s\", element %d", op, i);
            MT_CHECK_INT(errs, what, ei, xsi[i]);
            snprintf(what, sizeof what, "armci_msg_lgop \"%s\", element %d", op, i);
            MT_CHECK_INT(errs, what, el, xl[i]);
            snprintf(what, sizeof what, "armci_msg_gop_scope ARMCI_LONG \"%s\", element %d", op, i);
            MT_CHECK_INT(errs, what, el, xsl[i]);
            snprintf(what, sizeof what, "armci_msg_llgop \"%s\", element %d", op, i);
            MT_CHECK_INT(errs, what, el, xll[i]);
            if (o < 6) {
                MT_CHECK(errs, xf[i] == (float)ei, "armci_msg_fgop \"%s\", element %d: expected %g, got %g", op, i,
                         (double)ei, xf[i]);
                MT_CHECK(errs, xd[i] == (double)ei, "armci_msg_dgop \"%s\", element %d: expected %g, got %g", op, i,
                         (double)ei, xd[i]);
                MT_CHECK(errs, xsd[i] == (double)ei,
                         "armci_msg_gop_scope ARMCI_DOUBLE \"%s\", element %d: expected %g, got %g", op, i,
                         (double)ei, xsd[i]);
            }
        }
    }

    at_migrate();

    /* ---- broadcasts ---- */
    long b[8];
    for (int k = 0; k < 3; k++) {
        int root = k == 0 ? size - 1 : k == 1 ? size / 2 : 0;
        for (int i = 0; i < 8; i++)
            b[i] = rank == root ? 1000L * root + i + k : -1;
        if (k == 0)
            armci_msg_bcast(b, sizeof b, root);
        else if (k == 1)
            armci_msg_brdcst(b, sizeof b, root);
        else
            armci_msg_bcast_scope(SCOPE_ALL, b, sizeof b, root);
        for (int i = 0; i < 8; i++) {
            snprintf(what, sizeof what, "%s from rank %d, element %d",
                     k == 0 ? "armci_msg_bcast" : k == 1 ? "armci_msg_brdcst" : "armci_msg_bcast_scope", root, i);
            MT_CHECK_INT(errs, what, 1000L * root + i + k, b[i]);
        }
    }

    /* ---- send and receive between pairs ---- */
    int peer = rank % 2 ? rank - 1 : rank + 1 < size ? rank + 1 : rank, len = -1;
    int small[3] = {rank, rank * 2, -rank}, in[4] = {-9, -9, -9, -9};
    unsigned char *big = mt_malloc(BIG), *bigin = mt_malloc(BIG + 8), *e = mt_malloc(BIG);
    mt_fill(big, BIG, rank, 3);
    if (rank % 2 == 0) {
        armci_msg_snd(11, small, sizeof small, peer);
        armci_msg_rcv(11, in, sizeof in, &len, peer);
        if (peer != rank) {
            armci_msg_snd(12, big, BIG, peer);
            armci_msg_rcv(12, bigin, BIG + 8, &len, peer);
        }
    } else {
        armci_msg_rcv(11, in, sizeof in, &len, peer);
        MT_CHECK_INT(errs, "armci_msg_rcv's length (small)", (int)sizeof small, len);
        armci_msg_snd(11, small, sizeof small, peer);
        armci_msg_rcv(12, bigin, BIG + 8, &len, peer);
        armci_msg_snd(12, big, BIG, peer);
    }
    for (int i = 0; i < 3; i++)
        MT_CHECK_INT(errs, "armci_msg_rcv (small)", (i == 0 ? 1 : i == 1 ? 2 : -1) * peer, in[i]);
    MT_CHECK_INT(errs, "armci_msg_rcv wrote past the message", -9, in[3]);
    if (peer != rank) {
        MT_CHECK_INT(errs, "armci_msg_rcv's length (100,000 bytes)", BIG, len);
        mt_fill(e, BIG, peer, 3);
        AT_CMP(errs, "armci_msg_rcv (100,000 bytes)", e, bigin, BIG);
    }
    armci_msg_barrier();

    /* ---- rcvany at rank 0 ---- */
    if (rank == 0) {
        char *seen = mt_malloc((size_t)size);
        memset(seen, 0, (size_t)size);
        for (int k = 1; k < size; k++) {
            int v = -1;
            len = -1;
            int from = armci_msg_rcvany(13, &v, sizeof v, &len);
            if (from < 1 || from >= size || seen[from]) {
                MT_ERR(errs, "armci_msg_rcvany returned %d (message %d)", from, v);
                continue;
            }
            seen[from] = 1;
            MT_CHECK_INT(errs, "armci_msg_rcvany's message", from * 7, v);
            MT_CHECK_INT(errs, "armci_msg_rcvany's length", (int)sizeof v, len);
        }
        free(seen);
    } else {
        int v = rank * 7;
        armci_msg_snd(13, &v, sizeof v, 0);
    }
    armci_msg_barrier();

#ifdef ARMCI_VMPI
    /* ---- armci_msg_reduce: "+" of ints, "max" of doubles, at rank 0 ---- */
    int ri[2] = {rank, 1};
    double rd[1] = {rank * 0.5};
    armci_msg_reduce(ri, 2, "+", ARMCI_INT);
    armci_msg_reduce(rd, 1, "max", ARMCI_DOUBLE);
    if (rank == 0) {
        MT_CHECK_INT(errs, "armci_msg_reduce + (element 0)", size * (size - 1) / 2, ri[0]);
        MT_CHECK_INT(errs, "armci_msg_reduce + (element 1)", size, ri[1]);
        MT_CHECK(errs, rd[0] == (size - 1) * 0.5, "armci_msg_reduce max: expected %g, got %g", (size - 1) * 0.5, rd[0]);
    }
#endif
    free(big);
    free(bigin);
    free(e);
    return at_finish(errs);
}
