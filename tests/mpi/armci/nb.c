/* SPDX-License-Identifier: BSD-3-Clause */
/* Nonblocking forms: ARMCI_NbPut, NbGet, NbAcc, NbPutS, NbGetS, NbAccS, NbPutV, NbGetV, NbAccV and
 * NbPutValueInt / Long / Float / Double, to the right neighbour and to oneself:
 *   - with a handle per operation (ARMCI_INIT_HANDLE): ARMCI_Wait returns 0, ARMCI_Test returns 0 (complete) after it
 *     (vmpi: at once too, every operation being complete on return); a get's data is there after the Wait;
 *   - with NULL handles (implicit): completed by ARMCI_WaitProc(target), then by ARMCI_WaitAll;
 *   - with one aggregate handle (ARMCI_SET_AGGREGATE_HANDLE) for several operations to two targets, one Wait,
 *     ARMCI_UNSET_AGGREGATE_HANDLE;
 * and every target checks every byte after ARMCI_Barrier. */
#include "armci_test.h"

enum { SEG = 64, NS = 8, AREA = 4096 };

/* area a of a block: [a * AREA, (a + 1) * AREA); the layout of one round (each from a different call):
 * contiguous put 0..255, strided put 256.. (NS segments of SEG bytes, stride 2 * SEG), vector put 1536.. (NS
 * segments of 16 bytes, stride 32), accumulates on ints at 2048.. (contiguous 16, strided 4 x 4, vector
 * 4 x 4), values at 3072 (int, long, float, double). */
enum { P_CONT = 0, P_STR = 256, P_VEC = 1536, P_ACC = 2048, P_ACCS = 2048 + 64, P_ACCV = 2048 + 256, P_VAL = 3072 };

/* what area `a` of a block holds after a round of operations from origin o (id: the round) */
static void expected(unsigned char *e, int o, int id)
{
    memset(e, 0, AREA);
    mt_fill(e + P_CONT, 256, o, id);
    unsigned char s[NS * SEG];
    mt_fill(s, sizeof s, o, id + 1);
    for (int k = 0; k < NS; k++)
        memcpy(e + P_STR + 2 * SEG * k, s + SEG * k, SEG);
    mt_fill(s, NS * 16, o, id + 2);
    for (int k = 0; k < NS; k++)
        memcpy(e + P_VEC + 32 * k, s + 16 * k, 16);
    int *ai = (int *)(e + P_ACC), *as = (int *)(e + P_ACCS), *av = (int *)(e + P_ACCV);
    for (int i = 0; i < 16; i++) {
        ai[i] = 2 * (o + i);             /* scale 2 */
        as[(i / 4) * 8 + i % 4] = o - i; /* rows of 4 ints, target stride 8 ints */
        av[i * 3] = 3 * (o * 16 + i);    /* 16 segments of one int, every third int, scale 3 */
    }
    int iv = 7 * o + id;
    long lv = ((long)o << 36) + id;
    float fv = (float)o + 0.25f;
    double dv = o * 1.5 + id;
    memcpy(e + P_VAL, &iv, sizeof iv);
    memcpy(e + P_VAL + 8, &lv, sizeof lv);
    memcpy(e + P_VAL + 16, &fv, sizeof fv);
    memcpy(e + P_VAL + 24, &dv, sizeof dv);
}

enum { NOPS = 10 }; /* operations per round */

/* issues the round's NOPS operations from me to area `a` of target t, with local buffers in buf; h: NULL
 * (implicit handles), one handle (per_op 0, aggregate) or NOPS handles (per_op 1, one per operation) */
static int issue(char **ptr, int me, int t, int a, int id, armci_hdl_t *h, int per_op, unsigned char *buf)
{
    char *base = ptr[t] + (long)a * AREA;
    int rc = 0, op = 0;
#define H (h ? (per_op ? &h[op++] : h) : NULL)
    mt_fill(buf, 256, me, id);
    rc |= ARMCI_NbPut(buf, base + P_CONT, 256, t, H);
    unsigned char *s = buf + 256;
    mt_fill(s, NS * SEG, me, id + 1);
    int sst[1] = {SEG}, dst[1] = {2 * SEG}, count[2] = {SEG, NS};
    rc |= ARMCI_NbPutS(s, sst, base + P_STR, dst, count, 1, t, H);
    unsigned char *v = s + NS * SEG;
    mt_fill(v, NS * 16, me, id + 2);
    void *vs[NS], *vd[NS];
    for (int k = 0; k < NS; k++) {
        vs[k] = v + 16 * k;
        vd[k] = base + P_VEC + 32 * k;
    }
    armci_giov_t iov = {.src_ptr_array = vs, .dst_ptr_array = vd, .ptr_array_len = NS, .bytes = 16};
    rc |= ARMCI_NbPutV(&iov, 1, t, H);
    int *ai = (int *)(v + NS * 16), two = 2, three = 3, one = 1;
    for (int i = 0; i < 16; i++)
        ai[i] = me + i;
    rc |= ARMCI_NbAcc(ARMCI_ACC_INT, &two, ai, base + P_ACC, 16 * sizeof(int), t, H);
    int *as = ai + 16;
    for (int i = 0; i < 16; i++)
        as[i] = me - i;
    int asst[1] = {4 * sizeof(int)}, adst[1] = {8 * sizeof(int)}, acount[2] = {4 * sizeof(int), 4};
    rc |= ARMCI_NbAccS(ARMCI_ACC_INT, &one, as, asst, base + P_ACCS, adst, acount, 1, t, H);
    int *av = as + 16;
    void *avs[16], *avd[16];
    for (int i = 0; i < 16; i++) {
        av[i] = me * 16 + i;
        avs[i] = av + i;
        avd[i] = base + P_ACCV + 3 * i * sizeof(int);
    }
    armci_giov_t aiov = {.src_ptr_array = avs, .dst_ptr_array = avd, .ptr_array_len = 16, .bytes = sizeof(int)};
    rc |= ARMCI_NbAccV(ARMCI_ACC_INT, &three, &aiov, 1, t, H);
    rc |= ARMCI_NbPutValueInt(7 * me + id, base + P_VAL, t, H);
    rc |= ARMCI_NbPutValueLong(((long)me << 36) + id, base + P_VAL + 8, t, H);
    rc |= ARMCI_NbPutValueFloat((float)me + 0.25f, base + P_VAL + 16, t, H);
    rc |= ARMCI_NbPutValueDouble(me * 1.5 + id, base + P_VAL + 24, t, H);
#undef H
    return rc;
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    at_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    char **ptr = mt_malloc(sizeof(void *) * (size_t)size);
    /* areas: 0 from the left neighbour, 1 from myself */
    MT_CHECK_INT(errs, "ARMCI_Malloc", 0, ARMCI_Malloc((void **)ptr, 2 * AREA));
    char *mine = ptr[rank];
    unsigned char *buf = mt_malloc(8192), *e = mt_malloc(AREA), *g = mt_malloc(AREA);
    armci_hdl_t *h = mt_malloc(sizeof(armci_hdl_t) * NOPS);
    char what[100];

    for (int mode = 0; mode < 4; mode++) { /* 0: handles, 1: NULL + WaitProc, 2: NULL + WaitAll, 3: aggregate */
        int id = 10 * mode;
        memset(mine, 0, 2 * AREA);
        ARMCI_Barrier();
        for (int a = 0; a < 2; a++) {
            int t = a ? rank : right, rc;
            if (mode == 0) {
                for (int k = 0; k < NOPS; k++)
                    ARMCI_INIT_HANDLE(&h[k]);
                rc = issue(ptr, rank, t, a, id, h, 1, buf + 4096 * a);
                for (int k = 0; k < NOPS; k++) {
                    MT_CHECK_INT(errs, "ARMCI_Wait", 0, ARMCI_Wait(&h[k]));
                    MT_CHECK_INT(errs, "ARMCI_Test after ARMCI_Wait", 0, ARMCI_Test(&h[k]));
                }
            } else if (mode == 3) {
                if (a == 0) {
                    ARMCI_INIT_HANDLE(&h[0]);
                    ARMCI_SET_AGGREGATE_HANDLE(&h[0]);
                }
                rc = issue(ptr, rank, t, a, id, &h[0], 0, buf + 4096 * a);
                if (a == 1) {
                    MT_CHECK_INT(errs, "ARMCI_Wait (aggregate)", 0, ARMCI_Wait(&h[0]));
                    ARMCI_UNSET_AGGREGATE_HANDLE(&h[0]);
                }
            } else {
                rc = issue(ptr, rank, t, a, id, NULL, 0, buf + 4096 * a);
                if (mode == 1)
                    MT_CHECK_INT(errs, "ARMCI_WaitProc", 0, ARMCI_WaitProc(t));
                else if (a == 1)
                    MT_CHECK_INT(errs, "ARMCI_WaitAll", 0, ARMCI_WaitAll());
            }
            snprintf(what, sizeof what, "nonblocking calls (mode %d, %s) returned (or'ed)", mode, a ? "self" : "right");
            MT_CHECK_INT(errs, what, 0, rc);
        }
        ARMCI_Barrier();
        for (int a = 0; a < 2; a++) {
            expected(e, a ? rank : left, id);
            snprintf(what, sizeof what, "area written by %s with nonblocking calls (mode %d)",
                     a ? "myself" : "the left neighbour", mode);
            AT_CMP(errs, what, e, mine + a * AREA, AREA);
        }
        /* nonblocking gets of what I wrote at the right neighbour: contiguous, strided, vector */
        memset(g, 0xEE, AREA);
        armci_hdl_t *hg = mode == 1 || mode == 2 ? NULL : &h[0];
        if (hg)
            ARMCI_INIT_HANDLE(hg);
        if (mode == 3)
            ARMCI_SET_AGGREGATE_HANDLE(hg);
        MT_CHECK_INT(errs, "ARMCI_NbGet", 0, ARMCI_NbGet(ptr[right] + P_CONT, g + P_CONT, 256, right, hg));
        int st[1] = {2 * SEG}, count[2] = {SEG, NS};
        MT_CHECK_INT(errs, "ARMCI_NbGetS", 0, ARMCI_NbGetS(ptr[right] + P_STR, st, g + P_STR, st, count, 1, right, hg));
        void *vs[NS], *vd[NS];
        for (int k = 0; k < NS; k++) {
            vs[k] = ptr[right] + P_VEC + 32 * k;
            vd[k] = g + P_VEC + 32 * k;
        }
        armci_giov_t iov = {.src_ptr_array = vs, .dst_ptr_array = vd, .ptr_array_len = NS, .bytes = 16};
        MT_CHECK_INT(errs, "ARMCI_NbGetV", 0, ARMCI_NbGetV(&iov, 1, right, hg));
        if (hg) {
            MT_CHECK_INT(errs, "ARMCI_Wait (gets)", 0, ARMCI_Wait(hg));
            if (mode == 3)
                ARMCI_UNSET_AGGREGATE_HANDLE(hg);
        } else
            MT_CHECK_INT(errs, "ARMCI_WaitProc / WaitAll (gets)", 0, mode == 1 ? ARMCI_WaitProc(right) : ARMCI_WaitAll());
        expected(e, rank, id);
        for (int i = 0; i < AREA; i++)
            if (!(i < 256 || (i >= P_STR && i < P_STR + 2 * SEG * NS && (i - P_STR) % (2 * SEG) < SEG) ||
                  (i >= P_VEC && i < P_VEC + 32 * NS && (i - P_VEC) % 32 < 16)))
                e[i] = 0xEE;
        snprintf(what, sizeof what, "nonblocking gets (mode %d)", mode);
        AT_CMP(errs, what, e, g, AREA);
        ARMCI_Barrier();
        at_migrate();
    }

#ifdef ARMCI_VMPI
    /* vmpi: every operation is complete on return, so ARMCI_Test says so at once */
    ARMCI_INIT_HANDLE(&h[0]);
    int x = 5;
    MT_CHECK_INT(errs, "ARMCI_NbPut", 0, ARMCI_NbPut(&x, mine, sizeof x, rank, &h[0]));
    MT_CHECK_INT(errs, "ARMCI_Test before ARMCI_Wait (vmpi: complete)", 0, ARMCI_Test(&h[0]));
    MT_CHECK_INT(errs, "ARMCI_Wait", 0, ARMCI_Wait(&h[0]));
    MT_CHECK_INT(errs, "the put", 5, *(int *)mine);
#endif
    ARMCI_Barrier();
    MT_CHECK_INT(errs, "ARMCI_Free", 0, ARMCI_Free(mine));
    free(ptr);
    free(buf);
    free(e);
    free(g);
    free(h);
    return at_finish(errs);
}
