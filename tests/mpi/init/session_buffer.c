/* SPDX-License-Identifier: BSD-3-Clause */
/* A session's buffer (MPI-4.1 3.6) in the Sessions model, without MPI_Init: the buffered sends of a
 * communicator made from the session's group, and of one derived from it (MPI_Comm_dup), go through the
 * session's buffer (the rank has none: without it they fail with MPI_ERR_BUFFER, as they do after the
 * detach); a communicator's own buffer comes first (the session's is too small for its message then);
 * flush and iflush; detach returns the buffer and its size; MPI_BUFFER_AUTOMATIC; a migration point while a
 * buffered message is pending; a second attach fails; finalizing a session with a buffer attached; two
 * sessions, each with an mpi://WORLD group (vmpi shares one group object between them): a communicator made
 * from the second's group uses the second's buffer, not the first's.
 * Pairs (0,1), (2,3)...; a rank without a partner sends to itself. */
#include "mtest.h"

#define BIG 100000

/* Sends `n` bytes (pattern `seed`) by MPI_Bsend on `c` and receives them back from the partner. */
static void exchange(int *errs, MPI_Comm c, int rank, int partner, int n, int seed, unsigned char *buf,
                     unsigned char *rbuf, const char *what)
{
    mt_fill(buf, n, rank, seed);
    MT_CHECK_RC(*errs, MPI_Bsend(buf, n, MPI_BYTE, partner, seed, c));
    memset(buf, 0x5a, (size_t)n); /* copied by the Bsend */
    MPI_Recv(rbuf, n, MPI_BYTE, partner, seed, c, MPI_STATUS_IGNORE);
    long bad = mt_verify(rbuf, n, partner, seed);
    MT_CHECK(*errs, bad < 0, "%s: data differs at byte %ld", what, bad);
}

int main(void)
{
    int errs = 0, rank, size;
    MPI_Session s;
    MPI_Group g;
    MPI_Comm world, dup;
    MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s);
    MPI_Group_from_session_pset(s, "mpi://WORLD", &g);
    MPI_Comm_create_from_group(g, "session_buffer", MPI_INFO_NULL, MPI_ERRORS_RETURN, &world);
    MPI_Group_free(&g);
    MPI_Comm_rank(world, &rank);
    MPI_Comm_size(world, &size);
    MPI_Comm_dup(world, &dup);
    int partner = rank ^ 1;
    if (partner >= size)
        partner = rank;
    unsigned char *buf = mt_malloc(BIG), *rbuf = mt_malloc(BIG);

    /* no buffer anywhere: refused */
    MT_CHECK_CLASS(errs, MPI_Bsend(buf, 10, MPI_BYTE, partner, 1, world), MPI_ERR_BUFFER);

    int ssize = 3 * (BIG + MPI_BSEND_OVERHEAD); /* room for messages whose delivery the sender learns late */
    char *sbuf = mt_malloc((size_t)ssize);
    MT_CHECK_RC(errs, MPI_Session_attach_buffer(s, sbuf, ssize));
    MT_CHECK_CLASS(errs, MPI_Session_attach_buffer(s, sbuf, ssize), MPI_ERR_BUFFER);
    for (int round = 0; round < 3; round++) {
        exchange(&errs, world, rank, partner, BIG, 10 + round, buf, rbuf, "session's buffer");
        exchange(&errs, dup, rank, partner, 1000, 20 + round, buf, rbuf, "session's buffer, derived communicator");
        /* a pending (rendezvous) message across a migration point, then a flush */
        mt_fill(buf, BIG, rank, 30 + round);
        MT_CHECK_RC(errs, MPI_Bsend(buf, BIG, MPI_BYTE, partner, 30 + round, world));
        if (round == 1)
            mt_migrate();
        MPI_Recv(rbuf, BIG, MPI_BYTE, partner, 30 + round, world, MPI_STATUS_IGNORE);
        MT_CHECK(errs, mt_verify(rbuf, BIG, partner, 30 + round) < 0, "round %d: pending message differs", round);
        if (round % 2) {
            MT_CHECK_RC(errs, MPI_Session_flush_buffer(s));
        } else {
            MPI_Request r;
            MT_CHECK_RC(errs, MPI_Session_iflush_buffer(s, &r));
            MT_CHECK_RC(errs, MPI_Wait(&r, MPI_STATUS_IGNORE));
        }
    }

    /* the communicator's own buffer first: a message of 4 x BIG, which the session's could not hold */
    int csize = 4 * BIG + MPI_BSEND_OVERHEAD;
    char *cbuf = mt_malloc((size_t)csize);
    MT_CHECK_RC(errs, MPI_Comm_attach_buffer(dup, cbuf, csize));
    unsigned char *big = mt_malloc(4 * BIG), *rbig = mt_malloc(4 * BIG);
    mt_fill(big, 4 * BIG, rank, 41);
    MT_CHECK_RC(errs, MPI_Bsend(big, 4 * BIG, MPI_BYTE, partner, 41, dup));
    MPI_Recv(rbig, 4 * BIG, MPI_BYTE, partner, 41, dup, MPI_STATUS_IGNORE);
    MT_CHECK(errs, mt_verify(rbig, 4 * BIG, partner, 41) < 0, "communicator's buffer: data differs");
    MT_CHECK_CLASS(errs, MPI_Bsend(big, 4 * BIG, MPI_BYTE, partner, 42, world), MPI_ERR_BUFFER); /* session's */
    void *det = NULL;
    int dsize = -1;
    MT_CHECK_RC(errs, MPI_Comm_detach_buffer(dup, &det, &dsize));

    MT_CHECK_RC(errs, MPI_Session_detach_buffer(s, &det, &dsize));
    MT_CHECK(errs, det == (void *)sbuf && dsize == ssize, "session detach: %p/%d, attached %p/%d", det, dsize,
             (void *)sbuf, ssize);
    MT_CHECK_CLASS(errs, MPI_Bsend(buf, 10, MPI_BYTE, partner, 1, dup), MPI_ERR_BUFFER);

    /* automatic */
    MT_CHECK_RC(errs, MPI_Session_attach_buffer_c(s, MPI_BUFFER_AUTOMATIC, 0));
    exchange(&errs, dup, rank, partner, 4 * BIG, 50, big, rbig, "automatic session buffer");
    MPI_Count cdsize = -1;
    MT_CHECK_RC(errs, MPI_Session_detach_buffer_c(s, &det, &cdsize));
    MT_CHECK(errs, det == MPI_BUFFER_AUTOMATIC, "automatic detach returned %p", det);

    /* a second session: the first (no buffer now) holds a WORLD group too */
    MPI_Session s2;
    MPI_Group ga, gb;
    MPI_Comm wb;
    MT_CHECK_RC(errs, MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s2));
    MT_CHECK_RC(errs, MPI_Group_from_session_pset(s, "mpi://WORLD", &ga));
    MT_CHECK_RC(errs, MPI_Group_from_session_pset(s2, "mpi://WORLD", &gb));
    MT_CHECK_RC(errs, MPI_Session_attach_buffer(s2, sbuf, ssize));
    MT_CHECK_RC(errs, MPI_Comm_create_from_group(gb, "session_buffer_b", MPI_INFO_NULL, MPI_ERRORS_RETURN, &wb));
    exchange(&errs, wb, rank, partner, BIG, 60, buf, rbuf, "second session's buffer");
    MT_CHECK_RC(errs, MPI_Session_detach_buffer(s2, &det, &dsize));
    MPI_Comm_free(&wb);
    MPI_Group_free(&ga);
    MPI_Group_free(&gb);
    MT_CHECK_RC(errs, MPI_Session_finalize(&s2));

    MPI_Comm_free(&dup);
    int status = mt_verdict(errs, world);
    MPI_Comm_free(&world);
    MPI_Session_attach_buffer(s, sbuf, ssize); /* the finalize releases it */
    MPI_Session_finalize(&s);
    free(sbuf);
    free(cbuf);
    free(buf);
    free(rbuf);
    free(big);
    free(rbig);
    return status;
}
