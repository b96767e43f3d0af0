/* SPDX-License-Identifier: BSD-3-Clause */
/* What MPICH's test/mpi configure would write into mpitestconf.h for vmpi on x86-64 Linux with gcc.
 *
 * Why not run that configure with CC=vmpicc: it is a 1.6 MB script that checks a Fortran, C++ and threads
 * toolchain, GPU runtimes and MPI features by compiling and linking hundreds of programs through the
 * wrapper (minutes on a shared 2-core machine, every time the build tree is made), and it decides MPI
 * features by whether a program *links*: an image links with undefined symbols, so its answers would be
 * wrong for what vmpi lacks.  The tests read only the few macros below; the platform ones are fixed for
 * the one platform vmpi supports, and the MPI ones come from mpi.h itself, so this header stays right as
 * vmpi gains features. */
#ifndef MPITESTCONF_H_INCLUDED
#define MPITESTCONF_H_INCLUDED

#include <mpi.h>

/* the C toolchain: glibc and gcc on x86-64 */
#define STDC_HEADERS 1
#define HAVE_STDARG_H 1
#define HAVE_STDLIB_H 1
#define HAVE_STRING_H 1
#define HAVE_STRINGS_H 1
#define HAVE_MEMORY_H 1
#define HAVE_STDINT_H 1
#define HAVE_INTTYPES_H 1
#define HAVE_UNISTD_H 1
#define HAVE_SYS_TYPES_H 1
#define HAVE_SYS_STAT_H 1
#define HAVE_SYS_TIME_H 1
#define HAVE_SYS_RESOURCE_H 1
#define HAVE_PTHREAD_H 1
#define HAVE_DLFCN_H 1
#define HAVE_GETRUSAGE 1
#define HAVE_STRDUP 1
#define HAVE_USLEEP 1
#define HAVE__BOOL 1
#define HAVE_LONG_LONG 1
#define HAVE_LONG_DOUBLE 1
#define HAVE_FLOAT__COMPLEX 1
#define HAVE_DOUBLE__COMPLEX 1
#define HAVE_LONG_DOUBLE__COMPLEX 1
#define USE_LONG_DOUBLE_COMPLEX 1
#define SIZEOF_SHORT 2
#define SIZEOF_INT 4
#define SIZEOF_LONG 8
#define SIZEOF_LONG_LONG 8
#define SIZEOF_VOID_P 8
#define SIZEOF_MPI_OFFSET 8
#define POINTERINT_t long
#define THREAD_PACKAGE_NAME THREAD_PACKAGE_POSIX

/* MPI: what configure finds by compiling against mpi.h.  The Fortran datatypes are in vmpi's C header
 * (HAVE_FORTRAN_BINDING only adds them to the tests' type tables); no MPI-IO, no dynamic processes. */
#define HAVE_MPI_WIN_CREATE 1
#define HAVE_FORTRAN_BINDING 1
#ifdef MPI_INTEGER16
#define HAVE_MPI_INTEGER16 1
#endif
/* gfortran's names: lower case, one trailing underscore (the mixed C and Fortran tests) */
#define F77_NAME_LOWER_USCORE 1
/* USE_STRICT_MPI stays undefined, as in MPICH's default (non-strict) configuration: the tests then also
 * check what MPICH and Open MPI accept beyond the standard (logical and bitwise operations on MPI_CHAR,
 * ...) and the removed MPI-1 functions (the strict=false lines). */

/* MPICH 4.0.2's tests name MPI-4.1's MPI_Remove_error_class, _code and _string by MPICH's draft of them
 * (errhan/adderr, when MPI_VERSION >= 4: MPI_Delete_error_*, which mtest_mpix.h makes MPIX_Delete_error_*) */
#define MPIX_Delete_error_class MPI_Remove_error_class
#define MPIX_Delete_error_code MPI_Remove_error_code
#define MPIX_Delete_error_string MPI_Remove_error_string

#endif
