/* SPDX-License-Identifier: BSD-3-Clause */
/* Checkpoints that cannot be taken: every rank's AMPI_Migrate returns the error (MPI_ERRORS_RETURN), no
 * rank hangs, the job goes on, and the previous checkpoint stays the newest, whole:
 *   - a bad ampi_checkpoint value (MPI_ERR_INFO_VALUE), ranks that disagree (MPI_ERR_INFO_VALUE), a bad
 *     value on one rank only (MPI_ERR_INFO_VALUE on every rank, none hangs);
 *   - a directory that cannot be made (MPI_ERR_IO);
 *   - a rank holding a message matched by MPI_Mprobe, not received yet, is checkpointed (the checkpoint
 *     carries the message) and the message is still there to MPI_Mrecv;
 *   - a disk that fills up while writing (RLIMIT_FSIZE, MPI_ERR_IO) after a good checkpoint: the good one
 *     is still the only checkpoint in the directory, no temporary is left (in a job of several processes
 *     the limit is the last process's: the others' parts of the failed checkpoint are removed too);
 *   - in_memory works, and VMPIX_Restarted says 0 in a job that was not restarted; VMPIX_Restarted(NULL)
 *     is MPI_ERR_ARG.
 * In sanitizer builds every checkpoint is refused with MPI_ERR_UNSUPPORTED_OPERATION. */
#include <dirent.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>
#include "mtest.h"

static int migrate(const char *value)
{
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "ampi_checkpoint", value);
    int err = AMPI_Migrate(info);
    MPI_Info_free(&info);
    int cls = err;
    if (err != MPI_SUCCESS)
        MPI_Error_class(err, &cls);
    return cls;
}

/* The names of the entries of `dir` (but . and .. and the directory's lock), joined by spaces. */
static void listing(const char *dir, char *out, size_t len)
{
    out[0] = '\0';
    DIR *d = opendir(dir);
    if (d == NULL)
        return;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && strcmp(e->d_name, ".vmpi-ckpt.lock"))
            snprintf(out + strlen(out), len - strlen(out), "%s%s", out[0] ? " " : "", e->d_name);
    closedir(d);
}

/* Whether a listing is one checkpoint: vmpi-ckpt-N.ckpt, with a job of several processes' parts of it
 * (vmpi-ckpt-N.pK.part) beside it. */
static int one_checkpoint(const char *names)
{
    char copy[512], prefix[64] = "";
    int nckpt = 0;
    snprintf(copy, sizeof copy, "%s", names);
    for (char *save, *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        long seq;
        int len = 0;
        if (sscanf(w, "vmpi-ckpt-%ld.%n", &seq, &len) != 1 || len == 0)
            return 0;
        if (prefix[0] == '\0')
            snprintf(prefix, sizeof prefix, "%.*s", len, w);
        else if (strncmp(w, prefix, strlen(prefix)) != 0)
            return 0;
        nckpt += !strcmp(w + len, "ckpt");
    }
    return nckpt == 1;
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    char dir[64] = "";
    if (rank == 0 && mkdtemp(strcpy(dir, "/tmp/vmpi-ckpt-errors-XXXXXX")) == NULL)
        MT_CHECK(errs, 0, "mkdtemp failed");
    MPI_Bcast(dir, sizeof dir, MPI_CHAR, 0, MPI_COMM_WORLD);
    char to_dir[96];
    snprintf(to_dir, sizeof to_dir, "to_file=%s", dir);
    int unsupported = MT_SANITIZE ? MPI_ERR_UNSUPPORTED_OPERATION : MPI_SUCCESS;

    MT_CHECK_INT(errs, "migrate(\"to_disk\")", MPI_ERR_INFO_VALUE, migrate("to_disk"));
    MT_CHECK_INT(errs, "migrate(\"to_file=\")", MPI_ERR_INFO_VALUE, migrate("to_file="));
    MT_CHECK_INT(errs, "migrate(rank == 0 ? to_dir : \"in_memory\")", size > 1 && !MT_SANITIZE ? MPI_ERR_INFO_VALUE : unsupported, migrate(rank == 0 ? to_dir : "in_memory"));
    MT_CHECK_INT(errs, "migrate(rank == size - 1 ? \"to_disk\" : to_dir)",
                 MT_SANITIZE && rank != size - 1 ? unsupported : MPI_ERR_INFO_VALUE,
                 migrate(rank == size - 1 ? "to_disk" : to_dir));
    MT_CHECK_INT(errs, "migrate(\"to_file=/dev/null/sub\")", MT_SANITIZE ? unsupported : MPI_ERR_IO, migrate("to_file=/dev/null/sub"));
    MT_CHECK_INT(errs, "migrate(\"in_memory\")", unsupported, migrate("in_memory"));
    int flag = -1;
    MT_CHECK_INT(errs, "VMPIX_Restarted(&flag)", MPI_SUCCESS, VMPIX_Restarted(&flag));
    MT_CHECK_INT(errs, "flag", 0, flag);
    int cls = MPI_SUCCESS, e = VMPIX_Restarted(NULL);
    if (e != MPI_SUCCESS)
        MPI_Error_class(e, &cls);
    MT_CHECK_INT(errs, "cls", MPI_ERR_ARG, cls);

    /* each rank holds a matched message from its left neighbour */
    int out = 500 + rank, in = -1, left = (rank + size - 1) % size;
    MPI_Request sq;
    MPI_Message msg;
    MT_CHECK_RC(errs, MPI_Isend(&out, 1, MPI_INT, (rank + 1) % size, 9, MPI_COMM_WORLD, &sq));
    MT_CHECK_RC(errs, MPI_Mprobe(left, 9, MPI_COMM_WORLD, &msg, MPI_STATUS_IGNORE));
    MT_CHECK_RC(errs, MPI_Wait(&sq, MPI_STATUS_IGNORE));
    MT_CHECK_INT(errs, "migrate(to_dir) with a matched message", unsupported, migrate(to_dir));
    MT_CHECK_RC(errs, MPI_Mrecv(&in, 1, MPI_INT, &msg, MPI_STATUS_IGNORE));
    MT_CHECK_INT(errs, "the matched message", 500 + left, in);

    /* a good checkpoint, then one that fills the disk */
    MT_CHECK_INT(errs, "migrate(to_dir)", unsupported, migrate(to_dir));
    MPI_Barrier(MPI_COMM_WORLD); /* the older checkpoint is removed by each process's first rank, on its way out */
    char before[512], after[512];
    listing(dir, before, sizeof before);
    struct rlimit old;
    /* the limit is the process's: set once, while the others wait in the barrier (by the last rank: in a job
     * of several processes, the last process's write fails and every process's checkpoint with it) */
    if (rank == size - 1) {
        getrlimit(RLIMIT_FSIZE, &old);
        struct rlimit small = {4096 * 4, old.rlim_max};
        signal(SIGXFSZ, SIG_IGN);
        setrlimit(RLIMIT_FSIZE, &small);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MT_CHECK_INT(errs, "migrate(to_dir)", MT_SANITIZE ? unsupported : MPI_ERR_IO, migrate(to_dir));
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == size - 1) {
        setrlimit(RLIMIT_FSIZE, &old);
        signal(SIGXFSZ, SIG_DFL);
        listing(dir, after, sizeof after);
        MT_CHECK(errs, !strcmp(before, after), "after a failed checkpoint the directory holds '%s', before '%s'",
                 after, before);
        MT_CHECK(errs, MT_SANITIZE || one_checkpoint(before), "the directory holds '%s', not one checkpoint", before);
    }
    /* the job goes on: a collective on every rank */
    int one = 1, sum = 0;
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MT_CHECK_INT(errs, "sum", size, sum);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        char cmd[128];
        snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
        if (system(cmd) != 0)
            MT_CHECK(errs, 0, "cannot remove %s", dir);
    }
    return mt_finish(errs);
}
