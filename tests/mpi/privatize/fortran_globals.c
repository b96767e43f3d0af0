/* SPDX-License-Identifier: BSD-3-Clause */
/* Privatization of Fortran globals (fortran_globals.f90; driver and variants: privtest.h): module
 * variables, an allocatable module array, a module pointer, COMMON blocks (one initialized by BLOCK DATA),
 * SAVE variables.  Under tls they are all shared (Fortran has no thread_local).  Built without a Fortran
 * compiler, it says so and passes. */
#include "privtest.h"

#if MT_FORTRAN
extern void privf_set(int v);
extern int privf_get(int what);
extern int privf_modvar;

enum { MODVAR, MODZERO, CB1, CB2, CZ, SAVED, MARR_SIZE, MARR_LAST, MPTR, MPTR_TGT2, TGT, SAVED_IMPLIED, SAVED_ZERO };

void priv_announce(void) {} /* Fortran objects without FINAL procedures: no destructors */
const void *priv_addr(void) { return MT_PRIVATIZE_TLS ? NULL : &privf_modvar; }
int priv_probe(int *per_rank)
{
    *per_rank = !MT_PRIVATIZE_TLS;
    return privf_get(CB2);
}

#define CK(what, e, g) PRIV_CK(*errs, when, what, e, g)

void priv_check_initial(int *errs)
{
    const char *when = "initial";
    CK("module variable", 2, privf_get(MODVAR));
    CK("zero module variable", 0, privf_get(MODZERO));
    CK("COMMON /privblk/ cb1 (BLOCK DATA)", 3, privf_get(CB1));
    CK("COMMON /privblk/ cb2 (BLOCK DATA)", 4, privf_get(CB2));
    CK("COMMON /privzero/", 0, privf_get(CZ));
    CK("SAVE variable", 6, privf_get(SAVED));
    CK("SAVE implied by an initializer", 7, privf_get(SAVED_IMPLIED));
    CK("zero SAVE variable", 0, privf_get(SAVED_ZERO));
    CK("allocatable module array allocated", 0, privf_get(MARR_SIZE));
    CK("module pointer's target", 5, privf_get(MPTR));
    CK("module pointer points at tgt2", 0, privf_get(MPTR_TGT2));
}

void priv_set(int v) { privf_set(v); }

void priv_check(const char *when, int own, int last, int *errs)
{
    int g = PRIV_G(own, last);
    CK("module variable", g, privf_get(MODVAR));
    CK("module variable (from C)", g, privf_modvar);
    CK("zero module variable", g, privf_get(MODZERO));
    CK("COMMON /privblk/ cb1", g, privf_get(CB1));
    CK("COMMON /privblk/ cb2", g, privf_get(CB2));
    CK("COMMON /privzero/", g, privf_get(CZ));
    CK("SAVE variable", g, privf_get(SAVED));
    CK("SAVE implied by an initializer", g, privf_get(SAVED_IMPLIED));
    CK("zero SAVE variable", g, privf_get(SAVED_ZERO));
    CK("size of the allocatable module array", g % 1000 + 1, privf_get(MARR_SIZE));
    CK("its last element", g, privf_get(MARR_LAST));
    CK("module pointer's target", g, privf_get(MPTR));
    CK("module pointer points at tgt2", g & 1, privf_get(MPTR_TGT2));
    CK("tgt", g, privf_get(TGT));
}

int main(int argc, char **argv) { return priv_main(argc, argv); }
#else
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        printf("built without a Fortran compiler: nothing to check\n");
    return mt_finish(0);
}
#endif
