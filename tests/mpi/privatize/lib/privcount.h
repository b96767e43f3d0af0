/* SPDX-License-Identifier: BSD-3-Clause */
/* privcount: a tiny SHARED library the privatization tests link.  Shared libraries stay per process (the
 * img layer privatizes only the program image), so its counters see every copy of the program: destructors
 * count their runs here, and the library's own destructor, at process exit, checks each count against what
 * the ranks announced (once per rank, or once for the process) and makes the process exit 1 if one differs. */
#ifndef PRIVCOUNT_H
#define PRIVCOUNT_H

#ifdef __cplusplus
extern "C" {
#endif

enum { PRIVCOUNT_KINDS = 16 };

/* Announces, from a rank, that destructor `kind` must run `per_rank ? nranks : 1` times in the job (nranks:
 * VMPI_NRANKS, which vmpirun -n sets).  Every rank may announce the same thing; a different announcement
 * or a run of an unannounced kind fails the job. */
void privcount_expect(int kind, const char *name, int per_rank);
/* One run of destructor `kind`. */
void privcount_ran(int kind);
/* The number of ranks of the job (VMPI_NRANKS, default 1). */
int privcount_nranks(void);
/* Reports a wrong destructor run on stderr (straight to the file descriptor) and ends the process with
 * status 1 at once. */
void privcount_die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

#ifdef __cplusplus
}
#endif

#endif
