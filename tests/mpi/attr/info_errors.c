/* SPDX-License-Identifier: BSD-3-Clause */
/* Info errors under MPI_ERRORS_RETURN, each of its class: MPI_ERR_INFO_KEY (NULL, empty key, a key of
 * MPI_MAX_INFO_KEY characters), MPI_ERR_INFO_VALUE (NULL, a value of MPI_MAX_INFO_VAL characters),
 * MPI_ERR_INFO_NOKEY (deleting a missing key), MPI_ERR_INFO (MPI_INFO_NULL, a freed handle, a handle of another
 * kind, another rank's object, changing or freeing MPI_INFO_ENV), MPI_ERR_ARG (nthkey out of range, negative
 * valuelen, NULL outputs).  A failed call changes nothing. */
#include "mtest.h"

/* The longest key and value taken.  vmpi keeps them within buffers of MPI_MAX_INFO_KEY / MPI_MAX_INFO_VAL
 * characters with the null (as Open MPI and MS-MPI do); MPICH counts the maximum without the null. */
#define KEY_MAX (MT_MPICH_BUGS ? MPI_MAX_INFO_KEY : MPI_MAX_INFO_KEY - 1)
#define VAL_MAX (MT_MPICH_BUGS ? MPI_MAX_INFO_VAL : MPI_MAX_INFO_VAL - 1)

int main(int argc, char **argv)
{
    int errs = 0, flag, n;
    MPI_Init(&argc, &argv);
    MT_CHECK_RC(errs, MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    char *key = mt_malloc(MPI_MAX_INFO_KEY + 2), *val = mt_malloc(MPI_MAX_INFO_VAL + 2);
    MPI_Info info, freed, bad = (MPI_Info)MPI_COMM_WORLD, nul = MPI_INFO_NULL, env = MPI_INFO_ENV;
    MT_CHECK_RC(errs, MPI_Info_create(&info));
    MT_CHECK_RC(errs, MPI_Info_set(info, "a", "1"));
    MT_CHECK_RC(errs, MPI_Info_create(&freed));
    MT_CHECK_RC(errs, MPI_Info_dup(freed, &nul)); /* keeps a slot in use after `freed` */
    MPI_Info keep = nul;
    nul = MPI_INFO_NULL;
    MPI_Info stale = freed;
    MT_CHECK_RC(errs, MPI_Info_free(&freed));

    /* keys */
    memset(key, 'k', KEY_MAX + 1);
    key[KEY_MAX + 1] = '\0'; /* one character too long */
    MT_CHECK_CLASS(errs, MPI_Info_set(info, NULL, "v"), MPI_ERR_INFO_KEY);
    MT_CHECK_CLASS(errs, MPI_Info_set(info, "", "v"), MPI_ERR_INFO_KEY);
    MT_CHECK_CLASS(errs, MPI_Info_set(info, key, "v"), MPI_ERR_INFO_KEY);
    MT_CHECK_CLASS(errs, MPI_Info_get(info, key, 10, val, &flag), MPI_ERR_INFO_KEY);
    MT_CHECK_CLASS(errs, MPI_Info_get(info, "", 10, val, &flag), MPI_ERR_INFO_KEY);
    MT_CHECK_CLASS(errs, MPI_Info_get_valuelen(info, key, &n, &flag), MPI_ERR_INFO_KEY);
    MT_CHECK_CLASS(errs, MPI_Info_delete(info, key), MPI_ERR_INFO_KEY);
    MT_CHECK_CLASS(errs, MPI_Info_delete(info, ""), MPI_ERR_INFO_KEY);
    key[KEY_MAX] = '\0'; /* the longest allowed */
    MT_CHECK_RC(errs, MPI_Info_set(info, key, "longest key"));
    MT_CHECK_RC(errs, MPI_Info_delete(info, key));

    /* values */
    memset(val, 'v', VAL_MAX + 1);
    val[VAL_MAX + 1] = '\0';
    MT_CHECK_CLASS(errs, MPI_Info_set(info, "b", val), MPI_ERR_INFO_VALUE);
    if (!MT_MPICH_BUGS) /* MPICH 4.0 says MPI_ERR_ARG */
        MT_CHECK_CLASS(errs, MPI_Info_set(info, "b", NULL), MPI_ERR_INFO_VALUE);
    MT_CHECK_CLASS(errs, MPI_Info_set(info, "a", val), MPI_ERR_INFO_VALUE); /* the old value stays */
    MT_CHECK_RC(errs, MPI_Info_get(info, "a", 10, val, &flag));
    MT_CHECK(errs, flag && strcmp(val, "1") == 0, "failed set changed 'a' to '%s'", val);

    /* missing key */
    MT_CHECK_CLASS(errs, MPI_Info_delete(info, "b"), MPI_ERR_INFO_NOKEY);
    MT_CHECK_CLASS(errs, MPI_Info_delete(info, "A"), MPI_ERR_INFO_NOKEY);

    /* handles */
    MPI_Info h[] = {MPI_INFO_NULL, bad, stale};
    /* MPICH 4.0 says MPI_ERR_ARG for MPI_INFO_NULL and crashes on a freed handle */
    for (int i = MT_MPICH_BUGS ? 1 : 0; i < (MT_MPICH_BUGS ? 2 : 3); i++) {
        MPI_Info x = h[i], out;
        MT_CHECK_CLASS(errs, MPI_Info_set(x, "a", "1"), MPI_ERR_INFO);
        MT_CHECK_CLASS(errs, MPI_Info_get(x, "a", 10, val, &flag), MPI_ERR_INFO);
        MT_CHECK_CLASS(errs, MPI_Info_get_valuelen(x, "a", &n, &flag), MPI_ERR_INFO);
        MT_CHECK_CLASS(errs, MPI_Info_delete(x, "a"), MPI_ERR_INFO);
        MT_CHECK_CLASS(errs, MPI_Info_get_nkeys(x, &n), MPI_ERR_INFO);
        MT_CHECK_CLASS(errs, MPI_Info_get_nthkey(x, 0, key), MPI_ERR_INFO);
        MT_CHECK_CLASS(errs, MPI_Info_dup(x, &out), MPI_ERR_INFO);
        MT_CHECK_CLASS(errs, MPI_Info_free(&x), MPI_ERR_INFO);
    }
    /* another rank's object is not this rank's to use (as another process's would not be) */
    {
        int rank, size;
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        MPI_Comm_size(MPI_COMM_WORLD, &size);
        int peer = rank ^ 1;
        /* (processes, MPICH's or vmpi's between its OS processes: a number from another one may name one's own) */
        if (peer < size && !MT_MPICH_BUGS && mt_proc_of(peer, NULL) == mt_proc_of(rank, NULL)) {
            MPI_Info theirs = MPI_INFO_NULL;
            MT_CHECK_RC(errs, MPI_Sendrecv(&info, 1, MPI_INT, peer, 0, &theirs, 1, MPI_INT, peer, 0, MPI_COMM_WORLD,
                                           MPI_STATUS_IGNORE));
            MT_CHECK_CLASS(errs, MPI_Info_get_nkeys(theirs, &n), MPI_ERR_INFO);
            MT_CHECK_CLASS(errs, MPI_Info_set(theirs, "a", "from the peer"), MPI_ERR_INFO);
            MT_CHECK_CLASS(errs, MPI_Info_free(&theirs), MPI_ERR_INFO);
            MPI_Barrier(MPI_COMM_WORLD);
            MT_CHECK_RC(errs, MPI_Info_get(info, "a", 10, val, &flag));
            MT_CHECK(errs, flag && strcmp(val, "1") == 0, "the peer changed 'a' to '%s'", val);
        } else {
            MPI_Barrier(MPI_COMM_WORLD);
        }
    }
    /* MPI_INFO_ENV is predefined: read-only in vmpi (all ranks share it), never freed (MPICH lets it change) */
    if (!MT_MPICH_BUGS) {
        MT_CHECK_CLASS(errs, MPI_Info_set(MPI_INFO_ENV, "a", "1"), MPI_ERR_INFO);
        MT_CHECK_CLASS(errs, MPI_Info_delete(MPI_INFO_ENV, "command"), MPI_ERR_INFO);
        MT_CHECK_CLASS(errs, MPI_Info_free(&env), MPI_ERR_INFO);
        MT_CHECK(errs, env == MPI_INFO_ENV, "failed Info_free changed the handle");
    }
    MT_CHECK_RC(errs, MPI_Info_get(MPI_INFO_ENV, "command", MPI_MAX_INFO_VAL - 1, val, &flag));
    MT_CHECK(errs, flag || MT_MPICH_BUGS, "MPI_INFO_ENV lost 'command'");

    /* arguments */
    MT_CHECK_CLASS(errs, MPI_Info_get_nthkey(info, 1, key), MPI_ERR_ARG);
    MT_CHECK_CLASS(errs, MPI_Info_get_nthkey(info, -1, key), MPI_ERR_ARG);
    MT_CHECK_CLASS(errs, MPI_Info_get(info, "a", -1, val, &flag), MPI_ERR_ARG);
    MT_CHECK_CLASS(errs, MPI_Info_get(info, "a", 10, val, NULL), MPI_ERR_ARG);
    MT_CHECK_CLASS(errs, MPI_Info_get_nkeys(info, NULL), MPI_ERR_ARG);
    MT_CHECK_CLASS(errs, MPI_Info_create(NULL), MPI_ERR_ARG);
    MT_CHECK_CLASS(errs, MPI_Info_free(NULL), MPI_ERR_ARG);
    MT_CHECK_RC(errs, MPI_Info_get_nthkey(info, 0, key));
    MT_CHECK(errs, strcmp(key, "a") == 0, "key 0 is '%s'", key);
    MT_CHECK_RC(errs, MPI_Info_get_nkeys(info, &n));
    MT_CHECK_INT(errs, "nkeys after the failed calls", 1, n);

    MT_CHECK_RC(errs, MPI_Info_free(&info));
    MT_CHECK_RC(errs, MPI_Info_free(&keep));
    free(key);
    free(val);
    return mt_finish(errs);
}
