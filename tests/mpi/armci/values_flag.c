/* SPDX-License-Identifier: BSD-3-Clause */
/* Single values and flags:
 *   - ARMCI_PutValueInt / Long / Float / Double into the right neighbour and into oneself, read back with
 *     ARMCI_GetValueInt / Long / Float / Double from both, bit-exact (a long above 2^32, negative values, a
 *     float and a double that are not short binary fractions);
 *   - ARMCI_Put_flag: in ROUNDS rounds each rank puts a block of data into its right neighbour with the flag
 *     (an int in the target's memory) set to the round's value after it; the target polls its own flag with
 *     ARMCI_GetValueInt (an ARMCI call: under vmpi it lets a writer on the same PE run) until the value
 *     appears, and then must find the whole round's data;
 *   - the same with ARMCI_PutS_flag (a strided section) and, under vmpi, ARMCI_PutS_flag_dir. */
#include "armci_test.h"

enum { ROUNDS = 6, DATA = 4000, VALS = 0, FLAG = 64, DOFF = 128 };

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    at_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    char **ptr = mt_malloc(sizeof(void *) * (size_t)size);
    MT_CHECK_INT(errs, "ARMCI_Malloc", 0, ARMCI_Malloc((void **)ptr, DOFF + 2 * DATA));
    char *mine = ptr[rank];
    memset(mine, 0, DOFF + 2 * DATA);
    ARMCI_Barrier();

    /* ---- values: block bytes 0..31 from the left neighbour, 32..63 from myself ---- */
    for (int self = 0; self < 2; self++) {
        int t = self ? rank : right;
        char *b = ptr[t] + VALS + 32 * self;
        MT_CHECK_INT(errs, "ARMCI_PutValueInt", 0, ARMCI_PutValueInt(-123456 - rank, b, t));
        MT_CHECK_INT(errs, "ARMCI_PutValueLong", 0, ARMCI_PutValueLong(-((long)rank << 40) - 17, b + 8, t));
        MT_CHECK_INT(errs, "ARMCI_PutValueFloat", 0, ARMCI_PutValueFloat(0.1f * (float)(rank + 1), b + 16, t));
        MT_CHECK_INT(errs, "ARMCI_PutValueDouble", 0, ARMCI_PutValueDouble(1.0 / (rank + 3), b + 24, t));
    }
    ARMCI_Barrier();
    for (int self = 0; self < 2; self++) {
        int o = self ? rank : left;
        char *b = mine + VALS + 32 * self;
        int iv;
        long lv;
        float fv;
        double dv;
        memcpy(&iv, b, sizeof iv);
        memcpy(&lv, b + 8, sizeof lv);
        memcpy(&fv, b + 16, sizeof fv);
        memcpy(&dv, b + 24, sizeof dv);
        MT_CHECK_INT(errs, "int from ARMCI_PutValueInt", -123456 - o, iv);
        MT_CHECK_INT(errs, "long from ARMCI_PutValueLong", -((long)o << 40) - 17, lv);
        MT_CHECK(errs, fv == 0.1f * (float)(o + 1), "float from ARMCI_PutValueFloat: expected %.9g, got %.9g",
                 0.1f * (float)(o + 1), fv);
        MT_CHECK(errs, dv == 1.0 / (o + 3), "double from ARMCI_PutValueDouble: expected %.17g, got %.17g", 1.0 / (o + 3), dv);
    }
    for (int self = 0; self < 2; self++) {
        int t = self ? rank : right, o = rank; /* both hold my values: area 0 at the right one, area 1 at me */
        char *b = ptr[t] + VALS + 32 * self;
        MT_CHECK_INT(errs, "ARMCI_GetValueInt", -123456 - o, ARMCI_GetValueInt(b, t));
        MT_CHECK_INT(errs, "ARMCI_GetValueLong", -((long)o << 40) - 17, ARMCI_GetValueLong(b + 8, t));
        float fv = ARMCI_GetValueFloat(b + 16, t);
        double dv = ARMCI_GetValueDouble(b + 24, t);
        MT_CHECK(errs, fv == 0.1f * (float)(o + 1), "ARMCI_GetValueFloat: expected %.9g, got %.9g",
                 0.1f * (float)(o + 1), fv);
        MT_CHECK(errs, dv == 1.0 / (o + 3), "ARMCI_GetValueDouble: expected %.17g, got %.17g", 1.0 / (o + 3), dv);
    }
    ARMCI_Barrier();
    at_migrate();

    /* ---- flags: round r's flag value is r + 1; kinds: 0 Put_flag, 1 PutS_flag, 2 PutS_flag_dir (vmpi) ---- */
    unsigned char *src = mt_malloc(2 * DATA), *exp = mt_malloc(2 * DATA);
    int *myflag = (int *)(mine + FLAG);
#ifdef ARMCI_VMPI
    const int KINDS = 3;
#else
    const int KINDS = 2;
#endif
    for (int kind = 0; kind < KINDS; kind++)
        for (int r = 0; r < ROUNDS; r++) {
            int id = kind * ROUNDS + r, rc;
            mt_fill(src, 2 * DATA, rank, id);
            /* strided: 40 segments of 50 bytes from every 100 bytes of src into every 100 bytes of the data */
            int st[1] = {100}, count[2] = {50, DATA / 100};
            if (kind == 0)
                rc = ARMCI_Put_flag(src, ptr[right] + DOFF, DATA, (int *)(ptr[right] + FLAG), r + 1 + 100 * kind, right);
            else if (kind == 1)
                rc = ARMCI_PutS_flag(src, st, ptr[right] + DOFF, st, count, 1, (int *)(ptr[right] + FLAG),
                                     r + 1 + 100 * kind, right);
            else
#ifdef ARMCI_VMPI
                rc = ARMCI_PutS_flag_dir(src, st, ptr[right] + DOFF, st, count, 1, (int *)(ptr[right] + FLAG),
                                         r + 1 + 100 * kind, right);
#else
                rc = -1;
#endif
            if (!(MT_ARMCI_MPI && kind == 1)) /* armci-mpi 0.3.1's ARMCI_PutS_flag returns 1 */
                MT_CHECK_INT(errs, kind == 0 ? "ARMCI_Put_flag" : "ARMCI_PutS_flag", 0, rc);
            /* wait for my flag, polling with an ARMCI call */
            while (ARMCI_GetValueInt(myflag, rank) != r + 1 + 100 * kind)
                ;
            mt_fill(exp, 2 * DATA, left, id);
            if (kind == 0)
                AT_CMP(errs, "data when the flag of ARMCI_Put_flag is seen", exp, mine + DOFF, DATA);
            else
                for (int k = 0; k < DATA / 100; k++)
                    if (!AT_CMP(errs, "section when the flag of ARMCI_PutS_flag is seen", exp + 100 * k,
                                mine + DOFF + 100 * k, 50))
                        break;
            ARMCI_Barrier(); /* before the next round overwrites the data */
            if (r == ROUNDS - 1)
                at_migrate();
        }
    ARMCI_Barrier();
    MT_CHECK_INT(errs, "ARMCI_Free", 0, ARMCI_Free(mine));
    free(ptr);
    free(src);
    free(exp);
    return at_finish(errs);
}
