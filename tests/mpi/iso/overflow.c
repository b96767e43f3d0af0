/* SPDX-License-Identifier: BSD-3-Clause */
/* A stack overflow in one rank among many stops the job with "rank R overflowed its stack" and corrupts no
 * other rank's memory.  The last rank recurses through frames of a 300 KiB local array (MT_FRAME=big: one
 * 4 MiB array) on its 1 MiB stack, writing the start of each; the rank below it (whose slot ends just below the last rank's stack
 * guard) first fills its heap up to the end of its slot with a pattern (the testlist gives small slots:
 * VMPI_ISO_SLOT_SIZE=8M), which is where such a frame would write if nothing stopped it.  Every rank keeps a
 * patterned block too.  The testlist expects the job to die of the fault (exit 139) with the message; if the
 * overflowing rank ever returns, the others check their memory and the test fails either way.
 * overflow_noprobe.c is this program built without -fstack-clash-protection (as a library built elsewhere
 * would be): a 300 KiB frame still faults in the guard (with a one-page guard it wrote into the rank below
 * and the job went on), and a 4 MiB one, which skips the guard and faults far below it (MT_FILL=0: nothing
 * is committed there; what is, such a frame overwrites: the wrappers' probes are what prevents that), is
 * still reported as an overflow.
 * Not meaningful in sanitizer builds (make test-asan leaves it out). */
#include "mtest.h"

enum { SMALL_KB = 300, BIG_KB = 4096, BLK = 64 * 1024, MAXB = 256 };

/* Frames of one large local array each, of which only the first 4 KiB are written, as in a buffer sized for
 * the largest case: nothing touches the pages between the caller's frame and the start of the array. */
static __attribute__((noinline)) int frame_small(int depth)
{
    volatile char a[SMALL_KB * 1024];
    memset((char *)a, depth, 4096);
    int below = depth > 0 ? frame_small(depth - 1) : 0;
    return a[depth] + a[sizeof a - 1] + below;
}

static __attribute__((noinline)) int frame_big(int depth)
{
    volatile char a[BIG_KB * 1024];
    memset((char *)a, depth, 4096);
    return a[depth] + a[sizeof a - 1];
}

static int check_fill(unsigned char **b, int n, unsigned char pat)
{
    long bad = 0;
    for (int i = 0; i < n; i++)
        for (size_t k = 0; k < BLK; k++)
            bad += b[i][k] != pat;
    return bad != 0;
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *fr = getenv("MT_FRAME"), *fill = getenv("MT_FILL");
    int big = fr && strcmp(fr, "big") == 0, do_fill = !(fill && strcmp(fill, "0") == 0);
    unsigned char pat = (unsigned char)(rank * 7 + 1);
    unsigned char *mine = malloc(BLK);
    memset(mine, pat, BLK);
    unsigned char *b[MAXB];
    int n = 0;
    if (rank == size - 2 && do_fill) {
        /* blocks up to the end of the slot: the next block's end would be in the next rank's slot */
        while (n < MAXB && (b[n] = malloc(BLK)) != NULL) {
            memset(b[n], pat, BLK);
            if (MPIX_Iso_rank((char *)b[n] + 3 * BLK) != rank) {
                n++;
                break;
            }
            n++;
        }
        MT_CHECK(errs, MT_SANITIZE || MPIX_Iso_rank((char *)b[n - 1] + 3 * BLK) != rank,
                 "the heap did not reach the end of the slot (%d blocks)", n);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == size - 1) {
        int r = big ? frame_big(0) : frame_small(15);
        MT_CHECK(errs, 0, "the overflow was not caught (%d)", r);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MT_CHECK(errs, check_fill(&mine, 1, pat) == 0, "rank %d's block was overwritten", rank);
    MT_CHECK(errs, check_fill(b, n, pat) == 0, "rank %d's heap was overwritten", rank);
    for (int i = 0; i < n; i++)
        free(b[i]);
    free(mine);
    return mt_finish(errs);
}
