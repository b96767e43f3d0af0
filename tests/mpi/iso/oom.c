/* SPDX-License-Identifier: BSD-3-Clause */
/* Running out of memory from the system is reported as that, not as a full slot: rank 0 lowers the
 * process's data-size limit (RLIMIT_DATA, ulimit -d: what makes the system refuse to commit more of a slot)
 * to 48 MiB above what the process uses, then allocates 4 MiB blocks in its 4 GiB-or-larger slot until
 * malloc returns NULL with ENOMEM; the testlist expects the runtime's warning to say the system refused.
 * After the limit is back, allocation works again.  Not meaningful in sanitizer builds (make test-asan
 * leaves it out). */
#include <errno.h>
#include <sys/resource.h>
#include "mtest.h"

enum { BLK = 4 << 20, MAXB = 64 };

static long vm_data_kib(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kib = -1;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "VmData: %ld kB", &kib) == 1)
            break;
    if (f)
        fclose(f);
    return kib;
}

int main(int argc, char **argv)
{
    int errs = 0, rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        struct rlimit old, low;
        long kib = vm_data_kib();
        MT_CHECK(errs, kib > 0 && getrlimit(RLIMIT_DATA, &old) == 0, "cannot read VmData or RLIMIT_DATA");
        low = old;
        low.rlim_cur = ((rlim_t)kib << 10) + (48u << 20);
        MT_CHECK(errs, setrlimit(RLIMIT_DATA, &low) == 0, "setrlimit: %s", strerror(errno));
        void *b[MAXB];
        int n = 0;
        errno = 0;
        while (n < MAXB && (b[n] = malloc(BLK)) != NULL)
            n++;
        int e = errno;
        MT_CHECK(errs, setrlimit(RLIMIT_DATA, &old) == 0, "setrlimit back: %s", strerror(errno));
        MT_CHECK(errs, n >= 4 && n < MAXB, "%d blocks of 4 MiB under a limit of 48 MiB more", n);
        MT_CHECK_INT(errs, "errno of the failed malloc", ENOMEM, e);
        for (int i = 0; i < n; i++)
            free(b[i]);
        void *again = malloc(BLK);
        MT_CHECK(errs, again != NULL, "malloc after the limit is back: NULL");
        free(again);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    return mt_finish(errs);
}
