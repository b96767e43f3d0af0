/* SPDX-License-Identifier: BSD-3-Clause */
/* The Sessions model without MPI_Init (MPI-4.1 11.3): a session's process sets ("mpi://WORLD", "mpi://SELF":
 * names, sizes, groups), its info, communicators made from the sets' groups used for point-to-point and
 * collectives across migration points, two sessions at once, and sessions opened and closed several times.
 * MPI_Initialized stays false throughout (it is the World model's). */
#include <string.h>
#include "mtest.h"

/* A ring exchange and an allreduce on `comm` of `size` ranks, where the caller is `rank` (rank r holds
 * 1000 * round + r). */
static void use(int *errs, MPI_Comm comm, int rank, int size, int round)
{
    int mine = 1000 * round + rank, left = -1, sum = 0;
    MT_CHECK_RC(*errs, MPI_Sendrecv(&mine, 1, MPI_INT, (rank + 1) % size, round, &left, 1, MPI_INT,
                                    (rank + size - 1) % size, round, comm, MPI_STATUS_IGNORE));
    MT_CHECK_INT(*errs, "ring: the left neighbour's value", 1000 * round + (rank + size - 1) % size, left);
    MT_CHECK_RC(*errs, MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, comm));
    MT_CHECK_INT(*errs, "allreduce", 1000 * round * size + size * (size - 1) / 2, sum);
    int root = round % size, v = rank == root ? 77 + round : -1;
    MT_CHECK_RC(*errs, MPI_Bcast(&v, 1, MPI_INT, root, comm));
    MT_CHECK_INT(*errs, "bcast", 77 + round, v);
}

/* The process sets as the session lists them. */
static void psets(int *errs, MPI_Session s, int world_size)
{
    int n = -1, seen_world = 0, seen_self = 0;
    MT_CHECK_RC(*errs, MPI_Session_get_num_psets(s, MPI_INFO_NULL, &n));
    MT_CHECK(*errs, n >= 2, "%d process sets, expected at least 2", n);
    for (int i = 0; i < n; i++) {
        int len = 0;
        char name[MPI_MAX_PSET_NAME_LEN], cut[4];
        MT_CHECK_RC(*errs, MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, NULL)); /* the length only */
        MT_CHECK(*errs, len > 1 && len <= MPI_MAX_PSET_NAME_LEN, "pset %d: length %d", i, len);
        int full = MPI_MAX_PSET_NAME_LEN;
        MT_CHECK_RC(*errs, MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &full, name));
        MT_CHECK_INT(*errs, "pset_len of the whole name", len, full);
        MT_CHECK_INT(*errs, "strlen(name) + 1", len, (int)strlen(name) + 1);
        int short_len = (int)sizeof cut;
        MT_CHECK_RC(*errs, MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &short_len, cut));
        MT_CHECK(*errs, strncmp(cut, name, sizeof cut - 1) == 0 && cut[sizeof cut - 1] == '\0',
                 "a name cut to %d bytes: \"%s\" of \"%s\"", (int)sizeof cut, cut, name);
        MPI_Info info;
        char v[32];
        int flag = 0;
        MT_CHECK_RC(*errs, MPI_Session_get_pset_info(s, name, &info));
        MT_CHECK_RC(*errs, MPI_Info_get(info, "mpi_size", sizeof v - 1, v, &flag));
        MT_CHECK(*errs, flag, "%s: no mpi_size", name);
        MPI_Group g;
        int gsize = -1, grank = -1;
        MT_CHECK_RC(*errs, MPI_Group_from_session_pset(s, name, &g));
        MT_CHECK_RC(*errs, MPI_Group_size(g, &gsize));
        MT_CHECK_RC(*errs, MPI_Group_rank(g, &grank));
        MT_CHECK(*errs, grank != MPI_UNDEFINED, "%s: the caller is not in its group", name);
        if (flag)
            MT_CHECK_INT(*errs, "mpi_size vs the group's size", atoi(v), gsize);
        if (strcmp(name, "mpi://WORLD") == 0) {
            seen_world = 1;
            MT_CHECK_INT(*errs, "mpi://WORLD's size", world_size, gsize);
        }
        if (strcmp(name, "mpi://SELF") == 0) {
            seen_self = 1;
            MT_CHECK_INT(*errs, "mpi://SELF's size", 1, gsize);
        }
        MT_CHECK_RC(*errs, MPI_Group_free(&g));
        MT_CHECK_RC(*errs, MPI_Info_free(&info));
    }
    MT_CHECK(*errs, seen_world && seen_self, "mpi://WORLD listed: %d, mpi://SELF: %d", seen_world, seen_self);
}

/* A communicator over a process set, made with string tag `tag`. */
static MPI_Comm from_pset(int *errs, MPI_Session s, const char *pset, const char *tag)
{
    MPI_Group g;
    MPI_Comm c = MPI_COMM_NULL;
    MT_CHECK_RC(*errs, MPI_Group_from_session_pset(s, pset, &g));
    MT_CHECK_RC(*errs, MPI_Comm_create_from_group(g, tag, MPI_INFO_NULL, MPI_ERRORS_RETURN, &c));
    MT_CHECK_RC(*errs, MPI_Group_free(&g));
    return c;
}

int main(int argc, char **argv)
{
    (void)argc, (void)argv;
    int errs = 0, flag = -1, rank = -1, size = -1, wsize = -1;
    MPI_Session s, s2;
    MPI_Info hints, used;
    char v[MPI_MAX_INFO_VAL];

    /* info objects and a session's handler work before any initialization (MPI-4.1 11.4.1) */
    MT_CALL(MPI_Info_create(&hints));
    MT_CALL(MPI_Info_set(hints, "thread_level", "MPI_THREAD_FUNNELED"));
    MT_CALL(MPI_Session_init(hints, MPI_ERRORS_RETURN, &s));
    MT_CHECK_RC(errs, MPI_Info_free(&hints));
    MT_CHECK_RC(errs, MPI_Initialized(&flag));
    MT_CHECK_INT(errs, "MPI_Initialized with a session open", 0, flag);
    MT_CHECK_RC(errs, MPI_Session_get_info(s, &used));
    MT_CHECK_RC(errs, MPI_Info_get(used, "thread_level", sizeof v - 1, v, &flag));
    MT_CHECK(errs, flag && strcmp(v, "MPI_THREAD_FUNNELED") == 0, "thread_level: %s", flag ? v : "(none)");
    MT_CHECK_RC(errs, MPI_Info_free(&used));

    MPI_Comm world = from_pset(&errs, s, "mpi://WORLD", "org.vmpi.test.world");
    MT_CALL(MPI_Comm_rank(world, &rank));
    MT_CALL(MPI_Comm_size(world, &size));
    {
        MPI_Group g;
        MT_CALL(MPI_Group_from_session_pset(s, "mpi://WORLD", &g));
        MT_CHECK_RC(errs, MPI_Group_size(g, &wsize));
        MT_CHECK_RC(errs, MPI_Group_free(&g));
    }
    MT_CHECK_INT(errs, "size of the communicator of mpi://WORLD", wsize, size);
    psets(&errs, s, size);

    /* a second session at once, its own communicators; a SELF communicator sends to itself */
    MT_CALL(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s2));
    MT_CHECK(errs, s2 != s, "two sessions share handle 0x%x", (unsigned)s);
    MPI_Comm world2 = from_pset(&errs, s2, "mpi://world", "org.vmpi.test.world2"); /* names ignore case */
    MPI_Comm self = from_pset(&errs, s2, "mpi://SELF", "org.vmpi.test.self");
    int r2 = -1, sz = -1, out = rank, in = -1;
    MT_CHECK_RC(errs, MPI_Comm_rank(world2, &r2));
    MT_CHECK_INT(errs, "rank in the second session's world", rank, r2);
    MT_CHECK_RC(errs, MPI_Comm_size(self, &sz));
    MT_CHECK_INT(errs, "size of the SELF communicator", 1, sz);
    MT_CHECK_RC(errs, MPI_Sendrecv(&out, 1, MPI_INT, 0, 5, &in, 1, MPI_INT, 0, 5, self, MPI_STATUS_IGNORE));
    MT_CHECK_INT(errs, "message to self", rank, in);

    for (int round = 0; round < 4; round++) {
        use(&errs, round % 2 ? world2 : world, rank, size, round);
        mt_migrate(); /* the communicators and sessions move with the ranks */
    }
    MT_CHECK_RC(errs, MPI_Comm_free(&self));
    MT_CHECK_RC(errs, MPI_Comm_free(&world2));
    MT_CHECK_RC(errs, MPI_Session_finalize(&s2));
    MT_CHECK(errs, s2 == MPI_SESSION_NULL, "MPI_Session_finalize left the handle 0x%x", (unsigned)s2);

    /* sessions opened and closed again and again, a communicator from each, the same string tag each time */
    for (int round = 0; round < 5; round++) {
        MPI_Session t;
        MT_CALL(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &t));
        MPI_Comm c = from_pset(&errs, t, "mpi://WORLD", "org.vmpi.test.again");
        use(&errs, c, rank, size, 10 + round);
        if (round == 2)
            mt_migrate();
        MT_CHECK_RC(errs, MPI_Comm_free(&c));
        MT_CHECK_RC(errs, MPI_Session_finalize(&t));
    }
    MT_CHECK_RC(errs, MPI_Initialized(&flag));
    MT_CHECK_INT(errs, "MPI_Initialized at the end", 0, flag);
    int status = mt_verdict(errs, world);
    MT_CHECK_RC(errs, MPI_Comm_free(&world));
    MT_CHECK_RC(errs, MPI_Session_finalize(&s));
    return status;
}
