/* SPDX-License-Identifier: BSD-3-Clause */
/* vmpirun --procs K: the job as K OS processes of this machine, vmpirun their PMIx server.  Each process
 * runs P PEs (-p is per process) and hosts a block of the N ranks: process k ranks k*N/K .. (k+1)*N/K-1 (the
 * runtime computes the same from its PMIx rank and PMIX_JOB_SIZE).
 *
 * vmpirun starts the PMIx server library (libpmix's server API) in a private directory, registers the job
 * (a namespace with the job-, node- and process-level information a PMIx client expects to PMIx_Get) and
 * its K clients, and forks each with the environment PMIx_server_setup_fork gives (how the client finds
 * the server) added to vmpirun's own.  The server answers the clients' calls on its own thread; vmpirun
 * implements the upcalls a single node needs (its module below): connection and finalization (nothing to
 * do; a dropped connection tells an exit without PMIx_Finalize), fences (every participant is local: the
 * blob the library collected goes straight back), aborts (the supervisor stops the job).  Then vmpirun waits as the job's parent
 * (vmpirun_supervise in vmpirun_timeout.c): failures, PMIx_Abort, MPIEXEC_TIMEOUT and signals. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <pmix.h>
#include <pmix_server.h>
#include "vmpirun.h"

extern char **environ;

#define REPLY_SECONDS 30 /* how long vmpirun waits for the PMIx server to answer a registration */

/* ---- waiting for the server's asynchronous answers (its callbacks run on its thread) */
typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    bool done;
    pmix_status_t status;
} reply;

static void reply_init(reply *r)
{
    pthread_mutex_init(&r->lock, NULL);
    pthread_cond_init(&r->cond, NULL);
    r->done = false;
    r->status = PMIX_SUCCESS;
}

static void on_reply(pmix_status_t status, void *cbdata)
{
    reply *r = cbdata;
    pthread_mutex_lock(&r->lock);
    r->status = status;
    r->done = true;
    pthread_cond_signal(&r->cond);
    pthread_mutex_unlock(&r->lock);
}

/* The answer to a call that returned rc (PMIX_SUCCESS: the answer comes by on_reply). */
static pmix_status_t reply_wait(reply *r, pmix_status_t rc)
{
    if (rc == PMIX_OPERATION_SUCCEEDED)
        return PMIX_SUCCESS;
    if (rc != PMIX_SUCCESS)
        return rc;
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += REPLY_SECONDS;
    pthread_mutex_lock(&r->lock);
    while (!r->done && pthread_cond_timedwait(&r->cond, &r->lock, &until) != ETIMEDOUT) {
    }
    rc = r->done ? r->status : PMIX_ERR_TIMEOUT;
    pthread_mutex_unlock(&r->lock);
    return rc;
}

/* ---- the server module: the upcalls of a single-node host */
/* the job's processes (never freed: the server's thread may call us until vmpirun exits) */
static vmpirun_child *children;
static int nchildren;

static void mark(const pmix_proc_t *proc, int state)
{
    if (proc->rank < (pmix_rank_t)nchildren)
        atomic_store(&children[proc->rank].pmix, state);
}

static pmix_status_t on_connected(const pmix_proc_t *proc, void *server_object, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    mark(proc, VMPIRUN_PMIX_INIT);
    return PMIX_OPERATION_SUCCEEDED; /* done here: libpmix answers the client (it may pass no cbfunc) */
}

/* Whether process pid is exiting or has exited: /proc/PID/stat shows it a zombie, or with PF_EXITING among its
 * flags (set at the start of the kernel's exit, before the process's files, its PMIx connection among them,
 * are closed). */
static bool exiting(pid_t pid)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return true;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return true;
    buf[n] = '\0';
    const char *p = strrchr(buf, ')'); /* after the command's name, which may hold anything */
    char state;
    unsigned long flags;
    if (p == NULL || sscanf(p + 1, " %c %*d %*d %*d %*d %*d %lu", &state, &flags) != 2)
        return true;
    return state == 'Z' || state == 'X' || (flags & 0x4 /* PF_EXITING */);
}

static pmix_status_t on_finalized(const pmix_proc_t *proc, void *server_object, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    /* libpmix also calls this when a client's connection drops; a client calling PMIx_Finalize is alive,
     * waiting for the answer.  A process found exiting did not finalize: it stays INIT, and the supervisor
     * reports its exit, even with status 0, as a failure.  (Its pid not known yet: taken as finalized.) */
    pid_t pid = proc->rank < (pmix_rank_t)nchildren ? __atomic_load_n(&children[proc->rank].pid, __ATOMIC_ACQUIRE) : 0;
    if (pid <= 0 || !exiting(pid))
        mark(proc, VMPIRUN_PMIX_DONE);
    return PMIX_OPERATION_SUCCEEDED;
}

static pmix_status_t on_abort(const pmix_proc_t *proc, void *server_object, int status, const char msg[],
                              pmix_proc_t procs[], size_t nprocs, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    /* the whole job is stopped, whichever processes were named (MPI_Abort's practice); the request is
     * recorded before the client is answered, so it is seen before the client's exit */
    vmpirun_supervise_abort((int)proc->rank, status, msg);
    if (cbfunc)
        cbfunc(PMIX_SUCCESS, cbdata); /* on the server's thread, as libpmix's own test host does */
    return PMIX_SUCCESS;
}

static pmix_status_t on_fence(const pmix_proc_t procs[], size_t nprocs, const pmix_info_t info[], size_t ninfo,
                              char *data, size_t ndata, pmix_modex_cbfunc_t cbfunc, void *cbdata)
{
    /* one node: every participant contributed to this server; the collected blob is the result (libpmix's
     * callback moves to its own thread before using it).  libpmix 4.2.2 completes a fence whose participants
     * are all its clients without calling this: a pass-through for a library that would. */
    if (cbfunc)
        cbfunc(PMIX_SUCCESS, data, ndata, cbdata, NULL, NULL);
    return PMIX_SUCCESS;
}

static pmix_status_t on_dmodex(const pmix_proc_t *proc, const pmix_info_t info[], size_t ninfo,
                               pmix_modex_cbfunc_t cbfunc, void *cbdata)
{
    return PMIX_ERR_NOT_SUPPORTED; /* every process is local: no other server to ask */
}

static pmix_server_module_t module = {
    .client_connected = on_connected,
    .client_finalized = on_finalized,
    .abort = on_abort,
    .fence_nb = on_fence,
    .direct_modex = on_dmodex,
};

/* ---- the private directory of the server's files */
static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    remove(path);
    return 0;
}

void vmpirun_remove_tree(const char *dir)
{
    nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}
#define remove_tree vmpirun_remove_tree

/* Directories left by a vmpirun that was killed (SIGKILL: no chance to remove them; libpmix's data segments
 * there take 8 MB): ours (uid, mode 0700), named vmpirun.XXXXXX, holding the server's pmix_dstor_*_PID of a
 * process that no longer exists.  Removed at the next start. */
static void clean_stale(const char *tmp)
{
    DIR *d = opendir(tmp);
    if (d == NULL)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strncmp(e->d_name, "vmpirun.", 8) != 0 || strlen(e->d_name) != 14)
            continue;
        char path[4096];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", tmp, e->d_name);
        if (lstat(path, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != getuid() || (st.st_mode & 0777) != 0700)
            continue;
        DIR *sub = opendir(path);
        if (sub == NULL)
            continue;
        long pid = 0;
        struct dirent *f;
        while (pid <= 0 && (f = readdir(sub)) != NULL)
            if (sscanf(f->d_name, "pmix_dstor_ds21_%ld", &pid) != 1 && sscanf(f->d_name, "pmix_dstor_ds12_%ld", &pid) != 1)
                pid = 0;
        closedir(sub);
        if (pid > 0 && pid != (long)getpid() && kill((pid_t)pid, 0) != 0 && errno == ESRCH)
            remove_tree(path);
    }
    closedir(d);
}

/* ---- the job's registration */
static void add(void *list, const char *key, const void *value, pmix_data_type_t type)
{
    PMIx_Info_list_add(list, key, value, type);
}

/* The host process k is said to run on: with --emulate-nodes M (tests of what depends on the node), the
 * processes in blocks on M nodes named HOST-node0 .. HOST-node<M-1>; PMIx's node level stays this machine's
 * (local size, peers: what the runtime pins and sizes its PEs by). */
static int node_of(int k, int procs, int nodes) { return (int)((long)k * nodes / procs); }

static void host_of(char *out, size_t n, const char *host, int k, int procs, int nodes)
{
    if (nodes > 1)
        snprintf(out, n, "%s-node%d", host, node_of(k, procs, nodes));
    else
        snprintf(out, n, "%s", host);
}

/* The namespace's information: job level, node level (one node), and per process. */
static pmix_status_t register_job(const char *nspace, int procs, int nodes, const char *host)
{
    uint32_t k32 = (uint32_t)procs, zero = 0;
    pmix_rank_t leader = 0;
    size_t len = (size_t)procs * 12 + 1;
    char *peers = malloc(len), *regex = NULL, *ppn = NULL;
    if (peers == NULL)
        return PMIX_ERR_NOMEM;
    peers[0] = '\0';
    for (int k = 0, at = 0; k < procs; k++)
        at += snprintf(peers + at, len - (size_t)at, "%s%d", k ? "," : "", k);
    /* the node and process maps: with emulated nodes, each node's name and its processes (a client reads a
     * process's host from them) */
    size_t mlen = (size_t)nodes * 300 + len + (size_t)nodes;
    char *names = malloc(mlen), *procmap = malloc(mlen);
    if (names == NULL || procmap == NULL) {
        free(peers), free(names), free(procmap);
        return PMIX_ERR_NOMEM;
    }
    names[0] = procmap[0] = '\0';
    for (int i = 0, at = 0, pat = 0, k = 0; i < nodes; i++) {
        char name[300];
        host_of(name, sizeof name, host, k, procs, nodes);
        at += snprintf(names + at, mlen - (size_t)at, "%s%s", i ? "," : "", name);
        pat += snprintf(procmap + pat, mlen - (size_t)pat, "%s", i ? ";" : "");
        for (int first = k; k < procs && node_of(k, procs, nodes) == i; k++)
            pat += snprintf(procmap + pat, mlen - (size_t)pat, "%s%d", k > first ? "," : "", k);
    }
    pmix_status_t rc = PMIx_generate_regex(names, &regex);
    if (rc == PMIX_SUCCESS)
        rc = PMIx_generate_ppn(procmap, &ppn);
    free(names);
    free(procmap);
    if (rc != PMIX_SUCCESS) {
        free(peers);
        free(regex);
        return rc;
    }
    void *list = PMIx_Info_list_start();
    add(list, PMIX_JOBID, nspace, PMIX_STRING);
    add(list, PMIX_JOB_SIZE, &k32, PMIX_UINT32);
    add(list, PMIX_UNIV_SIZE, &k32, PMIX_UINT32);
    add(list, PMIX_MAX_PROCS, &k32, PMIX_UINT32);
    add(list, PMIX_JOB_NUM_APPS, &(uint32_t){1}, PMIX_UINT32);
    add(list, PMIX_APP_SIZE, &k32, PMIX_UINT32);
    add(list, PMIX_APPLDR, &leader, PMIX_PROC_RANK);
    add(list, PMIX_NUM_NODES, &(uint32_t){(uint32_t)nodes}, PMIX_UINT32);
    add(list, PMIX_NODE_MAP, regex, PMIX_REGEX);
    add(list, PMIX_PROC_MAP, ppn, PMIX_REGEX);
    if (nodes == 1) /* else a process's host is its node's in the maps */
        add(list, PMIX_HOSTNAME, host, PMIX_STRING);
    add(list, PMIX_NODEID, &zero, PMIX_UINT32);
    add(list, PMIX_LOCAL_SIZE, &k32, PMIX_UINT32);
    add(list, PMIX_NODE_SIZE, &k32, PMIX_UINT32);
    add(list, PMIX_LOCALLDR, &leader, PMIX_PROC_RANK);
    add(list, PMIX_LOCAL_PEERS, peers, PMIX_STRING);
    for (int k = 0; k < procs; k++) {
        pmix_rank_t rank = (pmix_rank_t)k;
        uint16_t local = (uint16_t)k;
        void *p = PMIx_Info_list_start();
        add(p, PMIX_RANK, &rank, PMIX_PROC_RANK);
        add(p, PMIX_GLOBAL_RANK, &rank, PMIX_PROC_RANK);
        add(p, PMIX_APP_RANK, &rank, PMIX_PROC_RANK);
        add(p, PMIX_APPNUM, &zero, PMIX_UINT32);
        add(p, PMIX_LOCAL_RANK, &local, PMIX_UINT16);
        add(p, PMIX_NODE_RANK, &local, PMIX_UINT16);
        uint32_t node = (uint32_t)node_of(k, procs, nodes);
        char name[300];
        host_of(name, sizeof name, host, k, procs, nodes);
        add(p, PMIX_NODEID, &node, PMIX_UINT32);
        add(p, PMIX_HOSTNAME, name, PMIX_STRING);
        pmix_data_array_t arr;
        PMIx_Info_list_convert(p, &arr);
        PMIx_Info_list_release(p);
        add(list, PMIX_PROC_INFO_ARRAY, &arr, PMIX_DATA_ARRAY);
        PMIx_Data_array_destruct(&arr);
    }
    pmix_data_array_t all;
    rc = PMIx_Info_list_convert(list, &all);
    PMIx_Info_list_release(list);
    free(peers);
    free(regex);
    free(ppn);
    if (rc != PMIX_SUCCESS)
        return rc;
    reply r;
    reply_init(&r);
    rc = reply_wait(&r, PMIx_server_register_nspace(nspace, procs, all.array, all.size, on_reply, &r));
    PMIx_Data_array_destruct(&all);
    return rc;
}

/* vmpirun's environment, in a form PMIx_server_setup_fork may change (each string allocated) */
static char **environment(void)
{
    size_t n = 0;
    while (environ[n])
        n++;
    char **env = calloc(n + 1, sizeof *env);
    for (size_t i = 0; env && i < n; i++)
        if ((env[i] = strdup(environ[i])) == NULL)
            return NULL;
    return env;
}

static void free_environment(char **env)
{
    for (size_t i = 0; env && env[i]; i++)
        free(env[i]);
    free(env);
}

/* 0 if execvp would find name as an executable file, else why not (ENOENT, EACCES...) */
static int runnable(const char *name)
{
    struct stat st;
    if (strchr(name, '/'))
        return access(name, X_OK) != 0 ? errno : stat(name, &st) == 0 && S_ISDIR(st.st_mode) ? EACCES : 0;
    const char *path = getenv("PATH");
    int why = ENOENT;
    for (const char *p = path ? path : "/usr/local/bin:/usr/bin:/bin";; p++) {
        const char *end = strchr(p, ':');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        char full[4096];
        snprintf(full, sizeof full, "%.*s%s%s", (int)n, p, n ? "/" : "", name);
        if (access(full, X_OK) == 0 && stat(full, &st) == 0 && !S_ISDIR(st.st_mode))
            return 0;
        if (errno == EACCES)
            why = EACCES;
        if (end == NULL)
            return why;
        p = end;
    }
}

static void say(const char *s) { (void)!write(2, s, strlen(s)); }

/* Forks and execs one process, with stdin from in (-1: vmpirun's).  Between fork and exec the child only
 * calls async-signal-safe functions: the PMIx server's thread may hold a lock (malloc's) at the fork.
 * The child dies with vmpirun: a vmpirun killed by SIGKILL, or by SIGPIPE when its output went to a
 * pipe that closed (`vmpirun ... | head`), left the job's processes running, orphaned, for ever. */
static pid_t start(char **argv, char **env, int in)
{
    pid_t parent = getpid(), pid = fork();
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) /* it died before the line above */
            _exit(1);
        if (in >= 0)
            dup2(in, 0);
        execvpe(argv[0], argv, env);
        int e = errno;
        const char *why = strerrordesc_np(e);
        say("vmpirun: cannot run '");
        say(argv[0]);
        say("': ");
        say(why ? why : "error");
        say("\n");
        _exit(e == ENOENT ? 127 : 126);
    }
    return pid;
}

static void stop_started(vmpirun_child *kids, int n)
{
    for (int k = 0; k < n; k++)
        if (kids[k].pid > 0)
            kill(kids[k].pid, SIGKILL);
    for (int k = 0; k < n; k++)
        if (kids[k].pid > 0)
            while (waitpid(kids[k].pid, NULL, 0) < 0 && errno == EINTR) {
            }
}

int vmpirun_procs(int procs, int nodes, long ranks, char **argv, int seconds, int *lost)
{
    int why = runnable(argv[0]);
    if (why) { /* said once, before anything starts */
        fprintf(stderr, "vmpirun: cannot run '%s': %s\n", argv[0], strerror(why));
        return why == ENOENT ? 127 : 126;
    }
    char host[256] = "localhost", dir[4096], nspace[PMIX_MAX_NSLEN + 1];
    gethostname(host, sizeof host - 1);
    const char *tmp = getenv("TMPDIR");
    tmp = tmp && *tmp ? tmp : "/tmp";
    clean_stale(tmp);
    snprintf(dir, sizeof dir, "%s/vmpirun.XXXXXX", tmp);
    if (mkdtemp(dir) == NULL) { /* mode 0700 */
        fprintf(stderr, "vmpirun: cannot create the PMIx server's directory %s: %s\n", dir, strerror(errno));
        return 1;
    }
    snprintf(nspace, sizeof nspace, "vmpirun.%ld", (long)getpid());
    if (!vmpirun_supervise_prepare()) {
        remove_tree(dir);
        return 1;
    }

    /* the server: its files in our directory; no tool, system or session rendezvous; no connection from
     * other machines (its listener is on the loopback interface) */
    bool no = false;
    void *list = PMIx_Info_list_start();
    add(list, PMIX_SERVER_TMPDIR, dir, PMIX_STRING);
    add(list, PMIX_SYSTEM_TMPDIR, dir, PMIX_STRING);
    add(list, PMIX_SERVER_TOOL_SUPPORT, &no, PMIX_BOOL);
    add(list, PMIX_SERVER_SYSTEM_SUPPORT, &no, PMIX_BOOL);
    add(list, PMIX_SERVER_SESSION_SUPPORT, &no, PMIX_BOOL);
    add(list, PMIX_SERVER_REMOTE_CONNECTIONS, &no, PMIX_BOOL);
    pmix_data_array_t info;
    PMIx_Info_list_convert(list, &info);
    PMIx_Info_list_release(list);
    /* the server's thread (created now) takes no signal: they reach the supervisor */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    pmix_status_t rc = PMIx_server_init(&module, info.array, info.size);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    PMIx_Data_array_destruct(&info);
    if (rc != PMIX_SUCCESS) {
        fprintf(stderr, "vmpirun: cannot start the PMIx server for --procs %d: %s\n", procs, PMIx_Error_string(rc));
        remove_tree(dir);
        return 1;
    }
    rc = register_job(nspace, procs, nodes, host);
    if (rc != PMIX_SUCCESS) {
        fprintf(stderr, "vmpirun: the PMIx server refused the job's registration: %s\n", PMIx_Error_string(rc));
        remove_tree(dir);
        return 1;
    }

    /* stdin goes to process 0 (it hosts rank 0), as mpirun's does; the others read /dev/null */
    int null_in = open("/dev/null", O_RDONLY | O_CLOEXEC);
    vmpirun_child *kids = calloc((size_t)procs, sizeof *kids);
    children = kids;
    nchildren = kids ? procs : 0;
    int result = -1;
    for (int k = 0; k < procs && kids && result < 0; k++) {
        pmix_proc_t proc;
        PMIX_LOAD_PROCID(&proc, nspace, (pmix_rank_t)k);
        reply r;
        reply_init(&r);
        rc = reply_wait(&r, PMIx_server_register_client(&proc, getuid(), getgid(), NULL, on_reply, &r));
        char **env = rc == PMIX_SUCCESS ? environment() : NULL;
        if (rc == PMIX_SUCCESS && env == NULL)
            rc = PMIX_ERR_NOMEM;
        if (rc == PMIX_SUCCESS)
            rc = PMIx_server_setup_fork(&proc, &env);
        pid_t pid = rc == PMIX_SUCCESS ? start(argv, env, k ? null_in : -1) : 0;
        if (rc != PMIX_SUCCESS) {
            fprintf(stderr, "vmpirun: cannot prepare process %d for the PMIx server: %s\n", k, PMIx_Error_string(rc));
            result = 1;
        } else if (pid < 0) {
            fprintf(stderr, "vmpirun: cannot start process %d of '%s': fork: %s\n", k, argv[0], strerror(errno));
            result = 126;
        } else {
            __atomic_store_n(&kids[k].pid, pid, __ATOMIC_RELEASE); /* on_finalized may read it */
            long first = (long)(k * ranks / procs), last = (long)((k + 1) * ranks / procs) - 1;
            char rk[64];
            if (ranks <= 0) /* unknown (a restart takes them from its checkpoint) */
                rk[0] = '\0';
            else if (first == last)
                snprintf(rk, sizeof rk, ", rank %ld", first);
            else
                snprintf(rk, sizeof rk, ", ranks %ld-%ld", first, last);
            char name[300];
            host_of(name, sizeof name, host, k, procs, nodes);
            snprintf(kids[k].what, sizeof kids[k].what, "process %d (host %.120s, pid %ld%s)", k, name,
                     (long)kids[k].pid, rk);
        }
        free_environment(env);
    }
    if (kids == NULL) {
        fprintf(stderr, "vmpirun: out of memory\n");
        result = 1;
    } else if (result >= 0) {
        stop_started(kids, procs);
    } else {
        result = vmpirun_supervise(kids, procs, seconds);
        int first = -1;
        for (int k = 0; k < procs; k++) {
            if (lost)
                lost[k] = kids[k].lost;
            if (kids[k].lost && (first < 0 || kids[k].order < kids[first].order))
                first = k;
        }
        if (first >= 0)
            result = 128 + kids[first].lost;
    }
    /* No PMIx_server_finalize: vmpirun exits now, and libpmix 4.2.2 could crash in it, or hang joining its
     * thread (deadlocked releasing a client), after a client's PMIx_Abort.  Its files are in our directory. */
    remove_tree(dir);
    return result;
}
