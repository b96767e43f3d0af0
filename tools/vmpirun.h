/* SPDX-License-Identifier: BSD-3-Clause */
/* vmpirun's parts (tools/vmpirun*.c). */
#ifndef VMPIRUN_H
#define VMPIRUN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* What the program vmpirun is asked to start is (vmpirun_prog.c). */
typedef enum {
    VMPIRUN_VMPI,    /* built with the wrappers (or a tool starting such a program) */
    VMPIRUN_LIBVMPI, /* uses libvmpi, but its main is not started by vmpi */
    VMPIRUN_OTHER,   /* not a vmpi program (a script either) */
    VMPIRUN_UNKNOWN  /* not found, unreadable, not ELF: execvp says what is wrong, or it runs */
} vmpirun_kind;

/* What the command argv[0..argc) is; `path` gets argv[0]'s file as execvp finds it. */
vmpirun_kind vmpirun_check(int argc, char **argv, char *path, size_t len);

/* vmpirun as the job's parent: MPIEXEC_TIMEOUT, several processes (vmpirun_timeout.c). */
/* the exit status of a job stopped by MPIEXEC_TIMEOUT (as coreutils' timeout) */
#define VMPIRUN_TIMEOUT_EXIT 124

/* MPIEXEC_TIMEOUT's value in seconds (0: none), or -1 when it is not a number of seconds */
int vmpirun_timeout_parse(const char *s);
/* runs argv as a child, stopped after `seconds`; returns the exit status vmpirun should end with */
int vmpirun_exec_timeout(char **argv, int seconds);
/* the same (0: no time limit), but a child killed by a signal gives 128 + the signal, rather than vmpirun
 * dying of it, unless `die` */
int vmpirun_exec_supervised(char **argv, int seconds, bool die);

/* One process of the job, as the supervisor sees it. */
typedef struct {
    pid_t pid;
    bool ended;
    int status;     /* its wait status, once ended */
    int lost;       /* the signal it died of, when vmpirun did not send it (killed, crashed): --recover's case */
    int order;      /* when it was reaped: 1 for the first */
    char what[200]; /* how messages name it, e.g. "process 1 (host h, pid 42, ranks 4-7)"; "" for the
                       one-process job, whose end is passed on without a message */
    _Atomic int pmix; /* set by the PMIx server's thread: VMPIRUN_PMIX_INIT once the process connected
                         (PMIx_Init), VMPIRUN_PMIX_DONE once it finalized or its connection dropped */
} vmpirun_child;
enum { VMPIRUN_PMIX_NONE, VMPIRUN_PMIX_INIT, VMPIRUN_PMIX_DONE };

/* Before the children are forked: installs the handlers of the signals the supervisor waits for (SIGCHLD,
 * SIGALRM, and those it forwards), so that none is lost between a fork and the wait.  Returns false (with a
 * message) when it cannot. */
bool vmpirun_supervise_prepare(void);
/* Waits for the n children: a process that ends (even with status 0) after PMIx_Init but before
 * PMIx_Finalize is a failure (the others would wait for it forever).  Forwards SIGTERM, SIGHUP, SIGUSR1, SIGUSR2 and a SIGINT or SIGQUIT sent by kill
 * (not the terminal's, which reach the children directly) to each; stops them all (SIGTERM, SIGKILL after a
 * grace time) after `seconds` (0: no limit), when one fails while others run, or on vmpirun_supervise_abort.
 * Returns vmpirun's exit status: 124 after the time limit, the abort's status, else the first failure's
 * (its exit status, 128+N for signal N), else 0. */
int vmpirun_supervise(vmpirun_child *kids, int n, int seconds);
/* From any thread (the PMIx server's): child k asked for the job to be stopped with `status`, with the
 * message msg (NULL or "": none).  The first request counts. */
void vmpirun_supervise_abort(int k, int status, const char *msg);

/* --procs K: the job as K processes of this machine, vmpirun their PMIx server (vmpirun_procs.c), told they
 * run on `nodes` nodes (--emulate-nodes; 1: this one); `ranks` the ranks' count for its messages (0:
 * unknown).  Returns the exit status vmpirun should end with (when a process was lost, the first lost one's:
 * the others' failures are its consequences); lost[k] (when not NULL) is the signal process k was lost to,
 * or 0 (vmpirun_child.lost). */
int vmpirun_procs(int procs, int nodes, long ranks, char **argv, int seconds, int *lost);
/* Removes a directory tree (never following a link). */
void vmpirun_remove_tree(const char *dir);

/* After a job of several processes (vmpirun_recover.c): a resize, or --recover N's recovery from a lost
 * process. */
/* Before the job: the directory in memory of its checkpoints (VMPIRUN_DIR; with `recover` also VMPI_FT_DIR,
 * where the runtime keeps its in-memory checkpoints): the one before's when `again`, --ft-dir's (cleared of
 * an earlier job's leftovers), or a fresh one.  False (with a message) on failure. */
bool vmpirun_dir_prepare(bool recover, bool again);
/* Whether this vmpirun was executed again by the one before it (a resize, a recovery): it then takes its
 * state (and the restart it asks for); otherwise state inherited from another job's vmpirun is dropped. */
bool vmpirun_state_take(void);
/* Whether the job asked to go on as another number of processes (its processes then end with
 * VMPI_EXIT_RESIZE). */
bool vmpirun_resize_pending(void);
/* After the job, which ended with status `rc`, lost[k] the signal process k was lost to (or 0): when it asked
 * for another number of processes, or with `max` recoveries allowed and some left when a process was lost,
 * starts the job again (this process executes vmpirun again: no return), a recovery on the surviving
 * processes or, with `same`, on as many as before.  Otherwise says why it cannot (a
 * lost process only), cleans up, and returns the status vmpirun ends with (a lost process's, 128 + its
 * signal). */
int vmpirun_after(int rc, const int *lost, int procs, int max, bool same, char **vmpirun_argv);

#endif
