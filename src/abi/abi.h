/* SPDX-License-Identifier: BSD-3-Clause */
/* libmpi_abi: the MPI-5.0 standard ABI (mpi_abi.h) over vmpi's own interface.  Its entry points (generated:
 * tools/mpistd/emit_abi_c.py, <build>/gen/abi/abi_entry.c; by hand: abi_*.c here) translate the ABI's
 * arguments to vmpi's, call vmpi's function through its second name (vmpi_native_PMPI_X, an alias libvmpi
 * exports for every function: <build>/gen/abi/native.ld) and translate the results back.
 *
 * This file sees vmpi's mpi.h (MPI_Comm is vmpi's int); the ABI's types are abi_Comm and friends.  An ABI
 * handle is a pointer: the predefined ones are the small integers of the ABI's reserved range (below 0x400,
 * translated by table), every other one is vmpi's handle, an int whose kind bits keep it above the range. */
#ifndef VMPI_ABI_H
#define VMPI_ABI_H

#include <limits.h>
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define VMPI_ABI_HANDLE_LIMIT 0x400
/* The library is compiled with hidden visibility: only the entry points are exported (and its own calls of
 * its translations are direct, inlined within a file). */
#define VMPI_ABI_API __attribute__((visibility("default")))

#pragma GCC visibility push(hidden) /* the library's own functions and tables (declarations too: direct calls) */

#define VMPI_ABI_HANDLE_TYPES(X)                                                                                  \
    X(Comm) X(Datatype) X(Errhandler) X(File) X(Group) X(Info) X(Message) X(Op) X(Request) X(Session) X(Win)
#define VMPI_ABI_TYPEDEF(t) typedef struct MPI_ABI_##t *abi_##t;
VMPI_ABI_HANDLE_TYPES(VMPI_ABI_TYPEDEF)
#undef VMPI_ABI_TYPEDEF

typedef struct abi_Status {
    int MPI_SOURCE;
    int MPI_TAG;
    int MPI_ERROR;
    int internal[5]; /* vmpi's: [0] cancelled, [1..2] the count of bytes (MPI_Count) */
} abi_Status;
#define ABI_STATUS_IGNORE ((abi_Status *)0)
#define ABI_IN_PLACE ((void *)1)
#define ABI_BUFFER_AUTOMATIC ((void *)2)
#define ABI_UNWEIGHTED ((int *)10)
#define ABI_WEIGHTS_EMPTY ((int *)11)

_Static_assert(sizeof(MPI_Aint) == sizeof(intptr_t) && sizeof(MPI_Count) == 8 && sizeof(MPI_Offset) == 8,
               "the ABI's MPI_Aint, MPI_Count and MPI_Offset are vmpi's");
_Static_assert(sizeof(abi_Status) == 32 && sizeof(MPI_Status) - 3 * sizeof(int) <= 5 * sizeof(int),
               "vmpi's status fits in the ABI's");

/* the tables (generated): ABI handle -> vmpi handle, and vmpi's predefined handles -> ABI (by kind, index) */
extern const int vmpi_abi_v_handle[VMPI_ABI_HANDLE_LIMIT];
extern const uint16_t vmpi_abi_a_handle[16][128];

/* An ABI handle as vmpi's: outside the reserved range it is vmpi's own; a value no vmpi handle can be (a
 * pointer above INT_MAX, a reserved value the ABI does not define) becomes 0, which vmpi refuses with the
 * argument's error class. */
static inline int abi_v(const void *h)
{
    uintptr_t u = (uintptr_t)h;
    if (u < VMPI_ABI_HANDLE_LIMIT)
        return vmpi_abi_v_handle[u];
    return u <= INT_MAX ? (int)u : 0;
}

static inline void *abi_a(int v)
{
    unsigned k = (unsigned)v >> 26, i = (unsigned)v & 0x3ffffff;
    if (k < 16 && i < 128 && vmpi_abi_a_handle[k][i])
        return (void *)(uintptr_t)vmpi_abi_a_handle[k][i];
    return (void *)(uintptr_t)(unsigned)v;
}

/* Arrays of handles: converted into `buf` (n <= VMPI_ABI_SMALL) or into malloc'd memory, freed by
 * abi_arr_done; NULL in, NULL out (vmpi then reports the missing array). */
enum { VMPI_ABI_SMALL = 32 };
int *abi_v_arr(const void *const *a, int n, int *buf);
void abi_a_arr(const int *v, int n, void **a);
static inline void abi_arr_done(int *v, const int *buf)
{
    if (v != buf)
        free(v);
}

/* the value translations (generated, one pair per group of tools/mpistd/abi.py's VALUES and BITS) */
#define VMPI_ABI_GROUPS(X)                                                                                        \
    X(error) X(rank) X(tag) X(thread) X(order) X(distribute) X(darg) X(combiner) X(typeclass) X(compare)          \
    X(topology) X(split) X(lock) X(flavor) X(model) X(seek) X(keyval) X(verbosity) X(bind) X(scope)              \
    X(pvar_class) X(cb_safety) X(source_order) X(assert) X(amode)
#define VMPI_ABI_GROUP_DECL(g)                                                                                    \
    int abi_v_##g(int abi_value);                                                                                 \
    int abi_a_##g(int vmpi_value);
VMPI_ABI_GROUPS(VMPI_ABI_GROUP_DECL)
#undef VMPI_ABI_GROUP_DECL

/* Error codes: the classes translate, the codes MPI_Add_error_code made (above both MPI_ERR_LASTCODEs) are the
 * same number in both. */
static inline int abi_ret(int vmpi_code) { return vmpi_code == MPI_SUCCESS ? MPI_SUCCESS : abi_a_error(vmpi_code); }

/* buffers: MPI_IN_PLACE and MPI_BUFFER_AUTOMATIC are other pointers in vmpi (MPI_BOTTOM is NULL in both) */
static inline void *abi_v_buf(const void *p)
{
    return p == ABI_IN_PLACE ? MPI_IN_PLACE : p == ABI_BUFFER_AUTOMATIC ? MPI_BUFFER_AUTOMATIC : (void *)p;
}
static inline int *abi_v_weights(const int *w)
{
    return w == ABI_UNWEIGHTED ? MPI_UNWEIGHTED : w == ABI_WEIGHTS_EMPTY ? MPI_WEIGHTS_EMPTY : (int *)w;
}
/* a buffer address vmpi wrote (MPI_Buffer_detach of an automatic buffer) */
static inline void abi_a_bufaddr(void *addr)
{
    if (addr && *(void **)addr == MPI_BUFFER_AUTOMATIC)
        *(void **)addr = ABI_BUFFER_AUTOMATIC;
}

/* statuses (a status's MPI_ERROR the ABI gives no class of stays as the program wrote it: vmpi leaves it so
 * on a success, and the program reads it back) */
static inline void abi_st_v(const abi_Status *a, MPI_Status *v)
{
    memset(v, 0, sizeof *v);
    v->MPI_SOURCE = abi_v_rank(a->MPI_SOURCE);
    v->MPI_TAG = abi_v_tag(a->MPI_TAG);
    int e = abi_v_error(a->MPI_ERROR);
    v->MPI_ERROR = e == MPI_ERR_UNKNOWN && a->MPI_ERROR != 14 /* the ABI's MPI_ERR_UNKNOWN */ ? a->MPI_ERROR : e;
    v->vmpi_cancelled = a->internal[0];
    memcpy(&v->vmpi_count, &a->internal[1], sizeof v->vmpi_count);
}
static inline void abi_st_a(const MPI_Status *v, abi_Status *a)
{
    a->MPI_SOURCE = abi_a_rank(v->MPI_SOURCE);
    a->MPI_TAG = abi_a_tag(v->MPI_TAG);
    a->MPI_ERROR = abi_a_error(v->MPI_ERROR);
    a->internal[0] = v->vmpi_cancelled;
    memcpy(&a->internal[1], &v->vmpi_count, sizeof v->vmpi_count);
    a->internal[3] = a->internal[4] = 0;
}
/* arrays of statuses: NULL (MPI_STATUSES_IGNORE) stays ignored */
MPI_Status *abi_st_arr(abi_Status *a, int n, MPI_Status *buf);
void abi_st_arr_done(MPI_Status *v, const MPI_Status *buf, abi_Status *a, int n);

/* The number of entries of an alltoallw's arrays of datatypes: the communicator's size (the remote group's
 * for an intercommunicator), or for a neighbourhood one its topology's in- (send == 0) or out-degree; 0 for
 * a handle that is no communicator (vmpi then reports it; a freed one is reported by the queries, under
 * their names). */
int abi_peers(MPI_Comm comm, int neighbor, int send);

/* A function of the standard vmpi does not have (MPI-IO, dynamic processes): MPI_ERR_UNSUPPORTED_OPERATION
 * through MPI_COMM_WORLD's error handler, naming the function. */
int abi_absent(const char *fn);

#pragma GCC visibility pop

/* For the entry points written by hand: vmpi's function X under its second name, and the definition of the
 * ABI's PMPI_X (C name abi_PMPI_X) with MPI_X its weak alias. */
#define ABI_NATIVE(f) extern __typeof__(PMPI_##f) vmpi_native_PMPI_##f;
#define ABI_ENTRY(ret, f, params)                                                                                \
    VMPI_ABI_API ret abi_PMPI_##f params __asm__("PMPI_" #f);                                                  \
    VMPI_ABI_API extern __typeof__(abi_PMPI_##f) abi_MPI_##f __asm__("MPI_" #f)                                \
        __attribute__((weak, alias("PMPI_" #f)));                                                             \
    ret abi_PMPI_##f params

#endif
