/* SPDX-License-Identifier: BSD-3-Clause */
/* With MPI_ERRORS_RETURN on MPI_COMM_WORLD (and MPI_COMM_SELF), erroneous calls return error codes of the
 * right class: invalid rank -> MPI_ERR_RANK, negative count -> MPI_ERR_COUNT, MPI_DATATYPE_NULL ->
 * MPI_ERR_TYPE, invalid tag -> MPI_ERR_TAG, MPI_COMM_NULL -> MPI_ERR_COMM, NULL buffer with count > 0 ->
 * MPI_ERR_BUFFER, invalid request handle -> MPI_ERR_REQUEST, invalid root -> MPI_ERR_ROOT, invalid op ->
 * MPI_ERR_OP.  Every error class maps to itself under MPI_Error_class and has a nonempty MPI_Error_string.
 * Afterwards normal communication still works and nothing was sent by the failed calls. */
#include "mtest.h"

/* the code must be of class cls, and have a nonempty error string */
#define EXPECT(call, cls)                                                                                     \
    do {                                                                                                      \
        int rc_ = (call), len_ = -1;                                                                          \
        MT_CHECK_CLASS(errs, rc_, cls);                                                                       \
        if (rc_ != MPI_SUCCESS) {                                                                             \
            str[0] = '\0';                                                                                    \
            MT_CHECK_RC(errs, MPI_Error_string(rc_, str, &len_));                                             \
            MT_CHECK(errs, len_ > 0 && len_ < MPI_MAX_ERROR_STRING && (size_t)len_ == strlen(str),            \
                     "%s: Error_string of code %d: resultlen %d, strlen %zu", #call, rc_, len_, strlen(str)); \
        }                                                                                                     \
    } while (0)

int main(int argc, char **argv)
{
    int errs = 0, rank, size, x[4] = {0, 0, 0, 0}, flag;
    char *str = mt_malloc(MPI_MAX_ERROR_STRING);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MT_CHECK_RC(errs, MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MT_CHECK_RC(errs, MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    int right = (rank + 1) % size;
    MPI_Request req;
    MPI_Status st;

    /* ranks */
    EXPECT(MPI_Send(x, 1, MPI_INT, size, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
    EXPECT(MPI_Send(x, 1, MPI_INT, -5, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
    EXPECT(MPI_Send(x, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
    EXPECT(MPI_Isend(x, 1, MPI_INT, size + 100, 0, MPI_COMM_WORLD, &req), MPI_ERR_RANK);
    EXPECT(MPI_Recv(x, 1, MPI_INT, size, 0, MPI_COMM_WORLD, &st), MPI_ERR_RANK);
    EXPECT(MPI_Irecv(x, 1, MPI_INT, -7, 0, MPI_COMM_WORLD, &req), MPI_ERR_RANK);
    EXPECT(MPI_Send(x, 1, MPI_INT, 1, 0, MPI_COMM_SELF), MPI_ERR_RANK);
    EXPECT(MPI_Iprobe(size, 0, MPI_COMM_WORLD, &flag, &st), MPI_ERR_RANK);
    /* counts */
    EXPECT(MPI_Send(x, -1, MPI_INT, right, 0, MPI_COMM_WORLD), MPI_ERR_COUNT);
    EXPECT(MPI_Recv(x, -3, MPI_INT, right, 0, MPI_COMM_WORLD, &st), MPI_ERR_COUNT);
    EXPECT(MPI_Bcast(x, -1, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_COUNT);
    /* datatypes */
    EXPECT(MPI_Send(x, 1, MPI_DATATYPE_NULL, right, 0, MPI_COMM_WORLD), MPI_ERR_TYPE);
    EXPECT(MPI_Irecv(x, 1, MPI_DATATYPE_NULL, right, 0, MPI_COMM_WORLD, &req), MPI_ERR_TYPE);
    {
        int sz = 0;
        EXPECT(MPI_Type_size(MPI_DATATYPE_NULL, &sz), MPI_ERR_TYPE);
    }
    /* tags */
    EXPECT(MPI_Send(x, 1, MPI_INT, right, -3, MPI_COMM_WORLD), MPI_ERR_TAG);
    EXPECT(MPI_Send(x, 1, MPI_INT, right, MPI_ANY_TAG, MPI_COMM_WORLD), MPI_ERR_TAG);
    EXPECT(MPI_Isend(x, 1, MPI_INT, right, -100, MPI_COMM_WORLD, &req), MPI_ERR_TAG);
    EXPECT(MPI_Recv(x, 1, MPI_INT, right, -5, MPI_COMM_WORLD, &st), MPI_ERR_TAG);
    /* communicators */
    {
        int r = -1;
        EXPECT(MPI_Send(x, 1, MPI_INT, 0, 0, MPI_COMM_NULL), MPI_ERR_COMM);
        EXPECT(MPI_Recv(x, 1, MPI_INT, 0, 0, MPI_COMM_NULL, &st), MPI_ERR_COMM);
        EXPECT(MPI_Comm_rank(MPI_COMM_NULL, &r), MPI_ERR_COMM);
        EXPECT(MPI_Comm_size(MPI_COMM_NULL, &r), MPI_ERR_COMM);
        EXPECT(MPI_Barrier(MPI_COMM_NULL), MPI_ERR_COMM);
    }
    /* buffers */
    EXPECT(MPI_Send(NULL, 5, MPI_INT, right, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    EXPECT(MPI_Isend(NULL, 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &req), MPI_ERR_BUFFER);
    /* requests */
    {
        MPI_Request bad = (MPI_Request)MPI_COMM_WORLD; /* a valid handle of the wrong kind */
        MPI_Request nul = MPI_REQUEST_NULL;
        EXPECT(MPI_Wait(&bad, &st), MPI_ERR_REQUEST);
        bad = (MPI_Request)MPI_COMM_WORLD;
        EXPECT(MPI_Test(&bad, &flag, &st), MPI_ERR_REQUEST);
        EXPECT(MPI_Request_free(&nul), MPI_ERR_REQUEST);
        nul = MPI_REQUEST_NULL;
        EXPECT(MPI_Start(&nul), MPI_ERR_REQUEST);
    }
    /* collectives: every rank makes the same erroneous call */
    EXPECT(MPI_Bcast(x, 1, MPI_INT, size, MPI_COMM_WORLD), MPI_ERR_ROOT);
    EXPECT(MPI_Reduce(x, x + 1, 1, MPI_INT, MPI_SUM, -1, MPI_COMM_WORLD), MPI_ERR_ROOT);
    EXPECT(MPI_Reduce(x, x + 1, 1, MPI_INT, MPI_OP_NULL, 0, MPI_COMM_WORLD), MPI_ERR_OP);
    EXPECT(MPI_Allreduce(x, x + 1, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD), MPI_ERR_OP);
    { /* predefined operations on types they are not defined for */
        double d[2] = {1.0, 2.0}, dr[2];
        float f[2] = {1.0f, 2.0f}, fr[2];
        EXPECT(MPI_Allreduce(f, fr, 1, MPI_C_FLOAT_COMPLEX, MPI_MAX, MPI_COMM_WORLD), MPI_ERR_OP);
        EXPECT(MPI_Allreduce(f, fr, 1, MPI_FLOAT, MPI_BXOR, MPI_COMM_WORLD), MPI_ERR_OP);
        if (!MT_MPICH_BUGS) { /* MPICH 4.0 asserts on LAND/double, and skips the MAXLOC check with one rank */
            EXPECT(MPI_Allreduce(d, dr, 1, MPI_DOUBLE, MPI_LAND, MPI_COMM_WORLD), MPI_ERR_OP);
            EXPECT(MPI_Reduce(d, dr, 1, MPI_DOUBLE, MPI_MAXLOC, 0, MPI_COMM_WORLD), MPI_ERR_OP);
        }
    }

    /* every error class is its own class and has a string */
    static const int classes[] = {
        MPI_SUCCESS, MPI_ERR_BUFFER, MPI_ERR_COUNT, MPI_ERR_TYPE, MPI_ERR_TAG, MPI_ERR_COMM, MPI_ERR_RANK,
        MPI_ERR_ROOT, MPI_ERR_GROUP, MPI_ERR_OP, MPI_ERR_TOPOLOGY, MPI_ERR_DIMS, MPI_ERR_ARG, MPI_ERR_UNKNOWN,
        MPI_ERR_TRUNCATE, MPI_ERR_OTHER, MPI_ERR_INTERN, MPI_ERR_IN_STATUS, MPI_ERR_PENDING, MPI_ERR_REQUEST,
        MPI_ERR_ACCESS, MPI_ERR_AMODE, MPI_ERR_BAD_FILE, MPI_ERR_CONVERSION, MPI_ERR_DUP_DATAREP,
        MPI_ERR_FILE_EXISTS, MPI_ERR_FILE_IN_USE, MPI_ERR_FILE, MPI_ERR_INFO, MPI_ERR_INFO_KEY,
        MPI_ERR_INFO_VALUE, MPI_ERR_INFO_NOKEY, MPI_ERR_IO, MPI_ERR_NAME, MPI_ERR_NO_MEM, MPI_ERR_NOT_SAME,
        MPI_ERR_NO_SPACE, MPI_ERR_NO_SUCH_FILE, MPI_ERR_PORT, MPI_ERR_QUOTA, MPI_ERR_READ_ONLY, MPI_ERR_SERVICE,
        MPI_ERR_SPAWN, MPI_ERR_UNSUPPORTED_DATAREP, MPI_ERR_UNSUPPORTED_OPERATION, MPI_ERR_WIN, MPI_ERR_BASE,
        MPI_ERR_LOCKTYPE, MPI_ERR_KEYVAL, MPI_ERR_RMA_CONFLICT, MPI_ERR_RMA_SYNC, MPI_ERR_SIZE, MPI_ERR_DISP,
        MPI_ERR_ASSERT, MPI_ERR_RMA_RANGE, MPI_ERR_RMA_ATTACH, MPI_ERR_RMA_SHARED, MPI_ERR_RMA_FLAVOR,
        MPI_ERR_SESSION, MPI_T_ERR_CANNOT_INIT, MPI_T_ERR_NOT_ACCESSIBLE, MPI_T_ERR_NOT_INITIALIZED,
        MPI_T_ERR_NOT_SUPPORTED, MPI_T_ERR_MEMORY, MPI_T_ERR_INVALID, MPI_T_ERR_INVALID_INDEX,
        MPI_T_ERR_INVALID_ITEM, MPI_T_ERR_INVALID_SESSION, MPI_T_ERR_INVALID_HANDLE, MPI_T_ERR_INVALID_NAME,
        MPI_T_ERR_OUT_OF_HANDLES, MPI_T_ERR_OUT_OF_SESSIONS, MPI_T_ERR_CVAR_SET_NOT_NOW, MPI_T_ERR_CVAR_SET_NEVER,
        MPI_T_ERR_PVAR_NO_WRITE, MPI_T_ERR_PVAR_NO_STARTSTOP, MPI_T_ERR_PVAR_NO_ATOMIC};
    for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++) {
        int cls = -1, len = -1;
        MT_CHECK_RC(errs, MPI_Error_class(classes[i], &cls));
        MT_CHECK(errs, cls == classes[i], "Error_class(%d) = %d", classes[i], cls);
        str[0] = '\0';
        MT_CHECK_RC(errs, MPI_Error_string(classes[i], str, &len));
        MT_CHECK(errs, len > 0 && (size_t)len == strlen(str) && len < MPI_MAX_ERROR_STRING,
                 "Error_string(%d): resultlen %d strlen %zu", classes[i], len, strlen(str));
        MT_CHECK(errs, classes[i] <= MPI_ERR_LASTCODE, "class %d > MPI_ERR_LASTCODE", classes[i]);
    }

    /* normal communication still works, and the failed sends delivered nothing */
    x[0] = rank;
    x[1] = -1;
    MT_CHECK_RC(errs, MPI_Sendrecv(x, 1, MPI_INT, right, 0, x + 1, 1, MPI_INT, (rank + size - 1) % size, 0,
                                   MPI_COMM_WORLD, &st));
    MT_CHECK_INT(errs, "value from the left after the errors", (rank + size - 1) % size, x[1]);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
    MT_CHECK(errs, !flag, "a message (source %d tag %d) from a failed call arrived", st.MPI_SOURCE, st.MPI_TAG);
    free(str);
    return mt_finish(errs);
}
