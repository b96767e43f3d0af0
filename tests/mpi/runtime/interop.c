/* SPDX-License-Identifier: BSD-3-Clause */
/* C/Fortran conversions: every handle kind survives c2f then f2c; a status survives Status_c2f/f2c with a
 * received count above 2^32 bytes (Get_count and Get_elements_x read it back), and so through mpi_f08's
 * TYPE(MPI_Status) (Status_c2f08/f082c, f2f08/f082f: the same INTEGERs as the array); MPI_STATUS_IGNORE is
 * refused with MPI_ERR_ARG; MPI_Pcontrol returns MPI_SUCCESS. */
#include "mtest.h"

int main(int argc, char **argv)
{
    int errs = 0, rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm dup;
    MPI_Group g;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_group(dup, &g);
    if (MPI_Comm_f2c(MPI_Comm_c2f(dup)) != dup || MPI_Comm_f2c(MPI_Comm_c2f(MPI_COMM_WORLD)) != MPI_COMM_WORLD)
        MT_ERR(errs, "communicator c2f/f2c");
    if (MPI_Group_f2c(MPI_Group_c2f(g)) != g)
        MT_ERR(errs, "group c2f/f2c");
    if (MPI_Type_f2c(MPI_Type_c2f(MPI_DOUBLE)) != MPI_DOUBLE || MPI_Op_f2c(MPI_Op_c2f(MPI_MAXLOC)) != MPI_MAXLOC ||
        MPI_Errhandler_f2c(MPI_Errhandler_c2f(MPI_ERRORS_RETURN)) != MPI_ERRORS_RETURN ||
        MPI_Info_f2c(MPI_Info_c2f(MPI_INFO_NULL)) != MPI_INFO_NULL ||
        MPI_Request_f2c(MPI_Request_c2f(MPI_REQUEST_NULL)) != MPI_REQUEST_NULL ||
        MPI_Message_f2c(MPI_Message_c2f(MPI_MESSAGE_NO_PROC)) != MPI_MESSAGE_NO_PROC)
        MT_ERR(errs, "predefined handle c2f/f2c");
    MPI_Status s, back;
    MPI_Fint f[MPI_STATUS_SIZE];
    s.MPI_SOURCE = 3;
    s.MPI_TAG = 77;
    s.MPI_ERROR = MPI_ERR_TRUNCATE;
    MPI_Status_set_cancelled(&s, 1);
    MPI_Status_set_elements_x(&s, MPI_BYTE, (MPI_Count)5 << 32 | 8); /* as if 5 * 2^32 + 8 bytes had arrived */
    MPI_Status_c2f(&s, f);
    MPI_Status_f2c(f, &back);
    int canc;
    MPI_Count el;
    MPI_Test_cancelled(&back, &canc);
    MPI_Get_elements_x(&back, MPI_BYTE, &el);
    if (back.MPI_SOURCE != 3 || back.MPI_TAG != 77 || back.MPI_ERROR != MPI_ERR_TRUNCATE || !canc ||
        el != ((MPI_Count)5 << 32 | 8))
        MT_ERR(errs, "status round trip: %d %d %d %d %lld", back.MPI_SOURCE, back.MPI_TAG, back.MPI_ERROR, canc,
               (long long)el);
    /* through mpi_f08's status: C -> f08 -> INTEGER array -> f08 -> C */
    MPI_F08_status f08, f08b;
    MPI_Fint f2[MPI_STATUS_SIZE];
    MPI_Status back2;
    MT_CHECK_RC(errs, MPI_Status_c2f08(&s, &f08));
    MT_CHECK(errs, f08.MPI_SOURCE == 3 && f08.MPI_TAG == 77 && f08.MPI_ERROR == MPI_ERR_TRUNCATE,
             "Status_c2f08: source %d, tag %d, error %d", (int)f08.MPI_SOURCE, (int)f08.MPI_TAG, (int)f08.MPI_ERROR);
    MT_CHECK_RC(errs, MPI_Status_f082f(&f08, f2));
    MT_CHECK(errs, !memcmp(f2, f, sizeof f2), "Status_f082f differs from Status_c2f");
    MT_CHECK_RC(errs, MPI_Status_f2f08(f2, &f08b));
    MT_CHECK_RC(errs, MPI_Status_f082c(&f08b, &back2));
    MPI_Count c2 = -1;
    MPI_Test_cancelled(&back2, &canc);
    MPI_Get_count_c(&back2, MPI_BYTE, &c2);
    MT_CHECK(errs, back2.MPI_SOURCE == 3 && back2.MPI_TAG == 77 && back2.MPI_ERROR == MPI_ERR_TRUNCATE && canc &&
                       c2 == ((MPI_Count)5 << 32 | 8),
             "status round trip through f08: %d %d %d %d %lld", back2.MPI_SOURCE, back2.MPI_TAG, back2.MPI_ERROR, canc,
             (long long)c2);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (MPI_Status_c2f(MPI_STATUS_IGNORE, f) != MPI_ERR_ARG)
        MT_ERR(errs, "Status_c2f(MPI_STATUS_IGNORE) did not give MPI_ERR_ARG");
    MT_CHECK_CLASS(errs, MPI_Status_c2f08(MPI_STATUS_IGNORE, &f08), MPI_ERR_ARG);
    MT_CHECK_CLASS(errs, MPI_Status_f082c(&f08, MPI_STATUS_IGNORE), MPI_ERR_ARG);
    MT_CHECK_CLASS(errs, MPI_Status_f2f08(NULL, &f08), MPI_ERR_ARG);
    MT_CHECK_CLASS(errs, MPI_Status_f082f(&f08, NULL), MPI_ERR_ARG);
    if (MPI_Pcontrol(1) != MPI_SUCCESS)
        MT_ERR(errs, "MPI_Pcontrol");
    MPI_Group_free(&g);
    MPI_Comm_free(&dup);
    return mt_finish(errs);
}
