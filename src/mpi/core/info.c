/* SPDX-License-Identifier: BSD-3-Clause */
/* Info objects (see info.h): a table of pointers indexed by handle index, freed slots reused. */
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "ckpt/ckpt.h"
#include "iso/iso.h"
#include "mpi/core/handle.h"
#include "mpi/core/info.h"
#include "mpi/core/rank.h"
#include "sched/sched.h"
#include "xport/procs.h"

typedef struct kv {
    char *key, *val;
} kv;

struct vmpi_info {
    kv *kv; /* in the order keys were first set */
    int n, cap;
    int owner; /* world rank that created it (-1: MPI_INFO_ENV, everybody's) */
    bool readonly;
};

enum { ENV_INDEX = 1, FIRST_USER = 2 };

static struct {
    pthread_mutex_t mu;
    vmpi_info **obj; /* index -> object; NULL: free slot */
    int n;           /* slots in use or freed, from index 0 */
    int *freed;      /* stack of free slots */
    int nfreed;
    vmpi_handle_seq seq; /* slots unique in the job (handle.h) */
} T = {.mu = PTHREAD_MUTEX_INITIALIZER, .seq = {FIRST_USER, 0, FIRST_USER - 1}};
VMPI_CKPT_STATIC(T)

static void info_destroy(vmpi_info *o)
{
    for (int i = 0; i < o->n; i++) {
        free(o->kv[i].key);
        free(o->kv[i].val);
    }
    free(o->kv);
    free(o);
}

static int find(const vmpi_info *o, const char *key)
{
    for (int i = 0; i < o->n; i++)
        if (strcmp(o->kv[i].key, key) == 0)
            return i;
    return -1;
}

/* Keys and values are the object's: in the same heap (iso.h: the making rank's slot, or the job heap). */
static char *info_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = vmpi_iso_own_malloc(n);
    return d ? memcpy(d, s, n) : NULL;
}

static int put(vmpi_info *o, const char *key, const char *value)
{
    char *v = info_strdup(value);
    if (v == NULL)
        return MPI_ERR_NO_MEM;
    int i = find(o, key);
    if (i >= 0) {
        free(o->kv[i].val);
        o->kv[i].val = v;
        return MPI_SUCCESS;
    }
    if (o->n == o->cap) {
        int cap = o->cap ? 2 * o->cap : 8;
        kv *n = vmpi_iso_own_realloc(o->kv, sizeof *n * (size_t)cap);
        if (n == NULL) {
            free(v);
            return MPI_ERR_NO_MEM;
        }
        o->kv = n;
        o->cap = cap;
    }
    char *k = info_strdup(key);
    if (k == NULL) {
        free(v);
        return MPI_ERR_NO_MEM;
    }
    o->kv[o->n++] = (kv){k, v};
    return MPI_SUCCESS;
}

/* Slot `i` of the table exists (T.n > i). */
static int ensure_slots(int n)
{
    if (n <= T.n)
        return MPI_SUCCESS;
    vmpi_info **o = vmpi_iso_job_realloc(T.obj, sizeof *o * (size_t)n);
    int *f = vmpi_iso_job_realloc(T.freed, sizeof *f * (size_t)n);
    if (o)
        T.obj = o;
    if (f)
        T.freed = f;
    if (o == NULL || f == NULL)
        return MPI_ERR_NO_MEM;
    for (int i = T.n; i < n; i++)
        T.obj[i] = NULL;
    T.n = n;
    return MPI_SUCCESS;
}

/* The environment's keys (MPI-4.1 11.4's suggested keys) into `o`; `argv` (argc entries, maybe NULL) gives
 * "command" and "argv". */
static int env_fill(vmpi_info *o, int argc, char **argv)
{
    char buf[MPI_MAX_INFO_VAL];
    int err = MPI_SUCCESS;
    if (argv && argc > 0 && argv[0]) {
        err |= put(o, "command", argv[0]);
        size_t len = 0;
        buf[0] = '\0';
        for (int i = 1; i < argc && argv[i] && len < sizeof buf; i++) /* space-separated, cut to fit */
            len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s", i > 1 ? " " : "", argv[i]);
        err |= put(o, "argv", buf);
    }
    snprintf(buf, sizeof buf, "%d", vmpi_world_size());
    err |= put(o, "maxprocs", buf);
    if (getcwd(buf, sizeof buf))
        err |= put(o, "wdir", buf);
    if (gethostname(buf, sizeof buf) == 0) {
        buf[sizeof buf - 1] = '\0';
        err |= put(o, "host", buf);
    }
    struct utsname u;
    if (uname(&u) == 0)
        err |= put(o, "arch", u.machine);
    err |= put(o, "thread_level", "MPI_THREAD_FUNNELED");
    return err ? MPI_ERR_NO_MEM : MPI_SUCCESS;
}

/* MPI_INFO_ENV: the environment of the job, from the first rank that asks (its arguments). */
static vmpi_info *env_build(void)
{
    vmpi_info *o = vmpi_iso_own_calloc(1, sizeof *o);
    if (o == NULL)
        return NULL;
    vmpi_rank *rk = vmpi_rank_self();
    if (env_fill(o, rk ? rk->argc : 0, rk ? rk->argv : NULL) != MPI_SUCCESS) {
        info_destroy(o);
        return NULL;
    }
    o->readonly = true;
    o->owner = -1;
    return o;
}

static int self_rank(void)
{
    vmpi_rank *rk = vmpi_rank_self();
    return rk ? rk->world_rank : -1;
}

/* A handle's index is its slot, unique in the job (handle.h): a handle of another process's table names
 * nothing here, or another rank's object, which is not ours to use (below). */
static int slot_of_index(int idx) { return idx; }

/* An object is in its maker's slot (or the job heap when no rank made it): one in the slot of another rank
 * than `rank` is not read (after a restart, the table may hold entries of ranks in other processes, whose
 * slots are not here). */
static bool mine_to_read(const vmpi_info *o, int rank)
{
    int s = vmpi_iso_slot_of(o);
    return s < 0 || s == rank;
}

int vmpi_info_each_owned(int owner, vmpi_info_entry_fn fn, void *arg)
{
    int n = 0;
    pthread_mutex_lock(&T.mu);
    for (int i = FIRST_USER; i < T.n; i++)
        if (T.obj[i] && mine_to_read(T.obj[i], owner) && T.obj[i]->owner == owner) {
            fn(arg, i, T.obj[i]);
            n++;
        }
    pthread_mutex_unlock(&T.mu);
    return n;
}

bool vmpi_info_install(int idx, vmpi_info *o, int owner)
{
    bool ok = false;
    pthread_mutex_lock(&T.mu);
    if (idx >= FIRST_USER && idx < (1 << 26) && o->owner == owner && ensure_slots(idx + 1) == MPI_SUCCESS &&
        T.obj[idx] == NULL) {
        T.obj[idx] = o;
        vmpi_handle_seq_saw(&T.seq, idx);
        ok = true;
    }
    pthread_mutex_unlock(&T.mu);
    return ok;
}

void vmpi_info_keep_only(bool (*here)(int owner))
{
    pthread_mutex_lock(&T.mu);
    for (int i = FIRST_USER; i < T.n; i++) {
        int s = T.obj[i] ? vmpi_iso_slot_of(T.obj[i]) : -1; /* its owner's slot (not read when elsewhere) */
        if (s >= 0 && !here(s))
            T.obj[i] = NULL;
    }
    pthread_mutex_unlock(&T.mu);
}

void vmpi_info_forget_owned(int owner)
{
    pthread_mutex_lock(&T.mu);
    for (int i = FIRST_USER; i < T.n; i++)
        if (T.obj[i] && mine_to_read(T.obj[i], owner) && T.obj[i]->owner == owner)
            T.obj[i] = NULL; /* the rank's object, in its slot: re-registered from its own record */
    pthread_mutex_unlock(&T.mu);
}

int vmpi_info_top(void) { return T.seq.top; }

void vmpi_info_rebase(int above)
{
    pthread_mutex_lock(&T.mu);
    vmpi_handle_seq_rebase(&T.seq, above);
    T.nfreed = 0; /* a freed slot of the checkpoint's process may be reused by another process too */
    /* MPI_INFO_ENV is this process's (its host, its directory): made again at the next use */
    if (T.n > ENV_INDEX)
        T.obj[ENV_INDEX] = NULL;
    pthread_mutex_unlock(&T.mu);
}

/* The calling rank's object of handle `h`, or NULL; called with the mutex held. */
static vmpi_info *lookup(MPI_Info h)
{
    if (VMPI_HANDLE_KIND(h) != VMPI_KIND_INFO)
        return NULL;
    int i = slot_of_index(VMPI_HANDLE_INDEX(h));
    if (i == ENV_INDEX && (i >= T.n || T.obj[i] == NULL)) {
        if (ensure_slots(FIRST_USER) != MPI_SUCCESS)
            return NULL;
        vmpi_iso_heap *cur = vmpi_iso_cur_; /* every rank's: in the job heap, not the asking rank's slot */
        vmpi_iso_leave();
        T.obj[ENV_INDEX] = env_build();
        vmpi_iso_enter(cur);
    }
    vmpi_info *o = i > 0 && i < T.n ? T.obj[i] : NULL;
    /* another rank's object is not ours to use, as another process's would not be (this also catches a
     * freed handle whose slot another rank got again) */
    return o && mine_to_read(o, self_rank()) && (o->owner < 0 || o->owner == self_rank()) ? o : NULL;
}

/* Stores a new object in a free slot. */
static int insert(vmpi_info *o, MPI_Info *out)
{
    int i;
    if (T.nfreed > 0) {
        i = T.freed[--T.nfreed];
    } else {
        if ((i = vmpi_handle_seq_take(&T.seq, 1 << 26)) < 0)
            return MPI_ERR_NO_MEM;
        int err = ensure_slots(i + 1);
        if (err)
            return err;
    }
    o->owner = self_rank();
    T.obj[i] = o;
    *out = VMPI_HANDLE(VMPI_KIND_INFO, i);
    return MPI_SUCCESS;
}

int vmpi_info_create(MPI_Info *out)
{
    vmpi_info *o = vmpi_iso_own_calloc(1, sizeof *o);
    if (o == NULL)
        return MPI_ERR_NO_MEM;
    pthread_mutex_lock(&T.mu);
    int err = insert(o, out);
    pthread_mutex_unlock(&T.mu);
    if (err)
        free(o);
    return err;
}

int vmpi_info_create_env(int argc, char **argv, MPI_Info *out)
{
    vmpi_info *o = vmpi_iso_own_calloc(1, sizeof *o);
    if (o == NULL)
        return MPI_ERR_NO_MEM;
    pthread_mutex_lock(&T.mu);
    int err = env_fill(o, argc, argv);
    if (!err)
        err = insert(o, out);
    pthread_mutex_unlock(&T.mu);
    if (err)
        info_destroy(o);
    return err;
}

int vmpi_info_check(MPI_Info h)
{
    pthread_mutex_lock(&T.mu);
    int err = lookup(h) ? MPI_SUCCESS : MPI_ERR_INFO;
    pthread_mutex_unlock(&T.mu);
    return err;
}

bool vmpi_info_is_readonly(MPI_Info h)
{
    pthread_mutex_lock(&T.mu);
    vmpi_info *o = lookup(h);
    bool ro = o && o->readonly;
    pthread_mutex_unlock(&T.mu);
    return ro;
}

int vmpi_info_set(MPI_Info h, const char *key, const char *value)
{
    pthread_mutex_lock(&T.mu);
    vmpi_info *o = lookup(h);
    int err = o == NULL || o->readonly ? MPI_ERR_INFO : put(o, key, value);
    pthread_mutex_unlock(&T.mu);
    return err;
}

int vmpi_info_get_string(MPI_Info h, const char *key, int *buflen, char *value, int *flag)
{
    int err = MPI_SUCCESS;
    pthread_mutex_lock(&T.mu);
    vmpi_info *o = lookup(h);
    int i = o ? find(o, key) : -1;
    if (o == NULL) {
        err = MPI_ERR_INFO;
    } else if (i < 0) {
        *flag = 0; /* (buflen unchanged) */
    } else {
        size_t len = strlen(o->kv[i].val);
        if (*buflen > 0) { /* the value cut to buflen - 1 characters, always terminated */
            size_t n = len < (size_t)*buflen - 1 ? len : (size_t)*buflen - 1;
            memcpy(value, o->kv[i].val, n);
            value[n] = '\0';
        }
        *buflen = (int)len + 1;
        *flag = 1;
    }
    pthread_mutex_unlock(&T.mu);
    return err;
}

/* MPI_Info_get: at most valuelen characters and a terminator (value holds valuelen + 1). */
int vmpi_info_get(MPI_Info h, const char *key, int valuelen, char *value, int *flag)
{
    int buflen = valuelen < INT_MAX ? valuelen + 1 : INT_MAX;
    return vmpi_info_get_string(h, key, &buflen, value, flag);
}

int vmpi_info_get_valuelen(MPI_Info h, const char *key, int *valuelen, int *flag)
{
    int err = MPI_SUCCESS;
    pthread_mutex_lock(&T.mu);
    vmpi_info *o = lookup(h);
    int i = o ? find(o, key) : -1;
    if (o == NULL) {
        err = MPI_ERR_INFO;
    } else {
        *flag = i >= 0;
        if (i >= 0)
            *valuelen = (int)strlen(o->kv[i].val);
    }
    pthread_mutex_unlock(&T.mu);
    return err;
}

int vmpi_info_delete(MPI_Info h, const char *key)
{
    int err = MPI_SUCCESS;
    pthread_mutex_lock(&T.mu);
    vmpi_info *o = lookup(h);
    int i = o ? find(o, key) : -1;
    if (o == NULL || o->readonly) {
        err = MPI_ERR_INFO;
    } else if (i < 0) {
        err = MPI_ERR_INFO_NOKEY;
    } else {
        free(o->kv[i].key);
        free(o->kv[i].val);
        memmove(o->kv + i, o->kv + i + 1, sizeof *o->kv * (size_t)(o->n - i - 1)); /* keeps the key order */
        o->n--;
    }
    pthread_mutex_unlock(&T.mu);
    return err;
}

int vmpi_info_get_nkeys(MPI_Info h, int *nkeys)
{
    pthread_mutex_lock(&T.mu);
    vmpi_info *o = lookup(h);
    if (o)
        *nkeys = o->n;
    pthread_mutex_unlock(&T.mu);
    return o ? MPI_SUCCESS : MPI_ERR_INFO;
}

int vmpi_info_get_nthkey(MPI_Info h, int n, char *key)
{
    int err = MPI_SUCCESS;
    pthread_mutex_lock(&T.mu);
    vmpi_info *o = lookup(h);
    if (o == NULL)
        err = MPI_ERR_INFO;
    else if (n < 0 || n >= o->n)
        err = MPI_ERR_ARG;
    else
        strcpy(key, o->kv[n].key);
    pthread_mutex_unlock(&T.mu);
    return err;
}

int vmpi_info_dup(MPI_Info h, MPI_Info *out)
{
    vmpi_info *c = vmpi_iso_own_calloc(1, sizeof *c);
    if (c == NULL)
        return MPI_ERR_NO_MEM;
    int err = MPI_SUCCESS;
    pthread_mutex_lock(&T.mu);
    vmpi_info *o = h == MPI_INFO_NULL ? NULL : lookup(h);
    if (o == NULL && h != MPI_INFO_NULL)
        err = MPI_ERR_INFO;
    for (int i = 0; o && i < o->n && err == MPI_SUCCESS; i++)
        err = put(c, o->kv[i].key, o->kv[i].val);
    if (err == MPI_SUCCESS)
        err = insert(c, out);
    pthread_mutex_unlock(&T.mu);
    if (err)
        info_destroy(c);
    return err;
}

int vmpi_info_free(MPI_Info *h)
{
    int err = MPI_SUCCESS;
    pthread_mutex_lock(&T.mu);
    vmpi_info *o = lookup(*h);
    if (o == NULL || o->readonly) {
        err = MPI_ERR_INFO;
    } else {
        int i = slot_of_index(VMPI_HANDLE_INDEX(*h));
        T.obj[i] = NULL;
        T.freed[T.nfreed++] = i;
        info_destroy(o);
        *h = MPI_INFO_NULL;
    }
    pthread_mutex_unlock(&T.mu);
    return err;
}
