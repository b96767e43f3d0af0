/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_Get_count / MPI_Get_elements / MPI_Get_elements_x, including MPI_UNDEFINED when the received bytes are
 * not a multiple of the type size, pair types (Get_elements counts basic elements), zero-length messages,
 * MPI_Status_set_elements and MPI_Status_set_cancelled.  Messages go around the ring (or to oneself). */
#include "mtest.h"

struct di {
    double d;
    int i;
};

int main(int argc, char **argv)
{
    int errs = 0, rank, size, cnt;
    MPI_Count xcnt;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    MPI_Status st;

    /* 7 bytes */
    unsigned char b[64];
    mt_fill(b, 7, rank, 1);
    MPI_Sendrecv(b, 7, MPI_BYTE, right, 1, b + 8, 56, MPI_BYTE, left, 1, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_BYTE, &cnt);
    MT_CHECK_INT(errs, "Get_count(7 bytes, MPI_BYTE)", 7, cnt);
    MPI_Get_count(&st, MPI_INT, &cnt);
    MT_CHECK_INT(errs, "Get_count(7 bytes, MPI_INT)", MPI_UNDEFINED, cnt);
    MPI_Get_elements(&st, MPI_INT, &cnt);
    MT_CHECK_INT(errs, "Get_elements(7 bytes, MPI_INT)", MPI_UNDEFINED, cnt);
    MPI_Get_elements(&st, MPI_BYTE, &cnt);
    MT_CHECK_INT(errs, "Get_elements(7 bytes, MPI_BYTE)", 7, cnt);
    MPI_Get_elements_x(&st, MPI_BYTE, &xcnt);
    MT_CHECK_INT(errs, "Get_elements_x(7 bytes, MPI_BYTE)", 7, xcnt);
    MPI_Get_elements_x(&st, MPI_INT, &xcnt);
    MT_CHECK_INT(errs, "Get_elements_x(7 bytes, MPI_INT)", MPI_UNDEFINED, xcnt);
    MT_CHECK(errs, mt_verify(b + 8, 7, left, 1) < 0, "7-byte message data differs");

    /* 12 ints */
    int iv[12], ir[20];
    for (int i = 0; i < 12; i++)
        iv[i] = rank * 100 + i;
    MPI_Sendrecv(iv, 12, MPI_INT, right, 2, ir, 20, MPI_INT, left, 2, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_INT, &cnt);
    MT_CHECK_INT(errs, "Get_count(12 ints, MPI_INT)", 12, cnt);
    MPI_Get_elements(&st, MPI_INT, &cnt);
    MT_CHECK_INT(errs, "Get_elements(12 ints, MPI_INT)", 12, cnt);
    MPI_Get_count(&st, MPI_BYTE, &cnt);
    MT_CHECK_INT(errs, "Get_count(12 ints, MPI_BYTE)", 12 * (int)sizeof(int), cnt);
    for (int i = 0; i < 12; i++)
        MT_CHECK_INT(errs, "12 ints data", left * 100 + i, ir[i]);

    /* pair type: 5 MPI_DOUBLE_INT are 5 items but 10 basic elements */
    struct di dv[5], dr[8];
    for (int i = 0; i < 5; i++) {
        dv[i].d = rank + i * 0.5;
        dv[i].i = -rank - i;
    }
    MPI_Sendrecv(dv, 5, MPI_DOUBLE_INT, right, 3, dr, 8, MPI_DOUBLE_INT, left, 3, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_DOUBLE_INT, &cnt);
    MT_CHECK_INT(errs, "Get_count(5 DOUBLE_INT)", 5, cnt);
    MPI_Get_elements(&st, MPI_DOUBLE_INT, &cnt);
    MT_CHECK_INT(errs, "Get_elements(5 DOUBLE_INT)", 10, cnt);
    MPI_Get_elements_x(&st, MPI_DOUBLE_INT, &xcnt);
    MT_CHECK_INT(errs, "Get_elements_x(5 DOUBLE_INT)", 10, xcnt);
    for (int i = 0; i < 5; i++)
        MT_CHECK(errs, dr[i].d == left + i * 0.5 && dr[i].i == -left - i, "DOUBLE_INT data %d: %g %d", i, dr[i].d,
                 dr[i].i);

    /* zero-length message */
    MPI_Sendrecv(iv, 0, MPI_INT, right, 4, ir, 20, MPI_INT, left, 4, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_INT, &cnt);
    MT_CHECK_INT(errs, "Get_count(0 ints)", 0, cnt);
    MPI_Get_elements(&st, MPI_INT, &cnt);
    MT_CHECK_INT(errs, "Get_elements(0 ints)", 0, cnt);
    MPI_Get_count(&st, MPI_DOUBLE_INT, &cnt);
    MT_CHECK_INT(errs, "Get_count(0 bytes, DOUBLE_INT)", 0, cnt);

    /* a large message */
    const int big = 1 << 20;
    int *bs = mt_malloc(big * sizeof(int)), *br = mt_malloc(big * sizeof(int));
    for (int i = 0; i < big; i++)
        bs[i] = i ^ rank;
    MPI_Sendrecv(bs, big, MPI_INT, right, 5, br, big, MPI_INT, left, 5, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_INT, &cnt);
    MT_CHECK_INT(errs, "Get_count(1M ints)", big, cnt);
    MPI_Get_elements_x(&st, MPI_BYTE, &xcnt);
    MT_CHECK_INT(errs, "Get_elements_x(1M ints, MPI_BYTE)", (MPI_Count)big * (MPI_Count)sizeof(int), xcnt);
    for (int i = 0; i < big; i++)
        if (br[i] != (i ^ left)) {
            MT_ERR(errs, "1M ints: element %d expected %d got %d", i, i ^ left, br[i]);
            break;
        }
    free(bs);
    free(br);

    /* Status_set_elements / Status_set_cancelled */
    MPI_Status s2;
    memset(&s2, 0, sizeof s2);
    MT_CHECK_RC(errs, MPI_Status_set_elements(&s2, MPI_INT, 5));
    MPI_Get_count(&s2, MPI_INT, &cnt);
    MT_CHECK_INT(errs, "Get_count after Status_set_elements(INT, 5)", 5, cnt);
    MPI_Get_elements(&s2, MPI_INT, &cnt);
    MT_CHECK_INT(errs, "Get_elements after Status_set_elements(INT, 5)", 5, cnt);
    MPI_Get_count(&s2, MPI_BYTE, &cnt);
    MT_CHECK_INT(errs, "Get_count(BYTE) after Status_set_elements(INT, 5)", 5 * (int)sizeof(int), cnt);
    MT_CHECK_RC(errs, MPI_Status_set_elements(&s2, MPI_DOUBLE, 0));
    MPI_Get_count(&s2, MPI_DOUBLE, &cnt);
    MT_CHECK_INT(errs, "Get_count after Status_set_elements(DOUBLE, 0)", 0, cnt);
    int f = -1;
    MT_CHECK_RC(errs, MPI_Status_set_cancelled(&s2, 1));
    MPI_Test_cancelled(&s2, &f);
    MT_CHECK_INT(errs, "Test_cancelled after Status_set_cancelled(1)", 1, f);
    MT_CHECK_RC(errs, MPI_Status_set_cancelled(&s2, 0));
    MPI_Test_cancelled(&s2, &f);
    MT_CHECK_INT(errs, "Test_cancelled after Status_set_cancelled(0)", 0, f);

    return mt_finish(errs);
}
