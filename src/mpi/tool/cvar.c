/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_T's control variables: the tunables table (base/tunables.c), one variable per setting, named by its
 * environment variable.  Integers are MPI_INT, sizes MPI_UNSIGNED_LONG_LONG, booleans MPI_INT (0 or 1), a
 * choice an MPI_INT of an enumeration of its choices, any other string MPI_CHAR.  Settings the runtime reads
 * only inside a stop of the world (`runtime` in the table) are writable, with scope MPI_T_SCOPE_ALL_EQ: the
 * value is the process's (every rank of it sees a write) and the job expects it alike everywhere; the others
 * are fixed once the job has started (MPI_T_SCOPE_CONSTANT). */
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "base/log.h"
#include "base/tunables.h"
#include "lb/lb.h"
#include "mpi/adapt/adapt.h"
#include "mpi/tool/tool.h"

/* The longest string a writable string variable holds, with its null. */
enum { STRING_MAX = 256 };

enum { MAX_SETTINGS = 64, ITEMS_TEXT = 1024 };

static struct {
    pthread_once_t once;
    const vmpi_tunable *t;
    size_t n;
    /* by setting; n == 0: not a choice.  Static, so at the same address in every process of the job and
     * after a restart (libvmpi is loaded at the same place): an MPI_T_enum a rank holds stays valid when it
     * moves to another process or is restarted. */
    struct vmpi_t_enum enums[MAX_SETTINGS];
    char text[ITEMS_TEXT];
} C = {.once = PTHREAD_ONCE_INIT};

/* The enumerations of the settings that are a choice ("auto|spin|sleep"), made once per process. */
static void build(void)
{
    C.t = vmpi_tunables(&C.n);
    if (C.n > MAX_SETTINGS)
        vmpi_fatal("MPI_T: %zu settings, room for %d (mpi/tool/cvar.c)", C.n, MAX_SETTINGS);
    size_t used = 0;
    for (size_t i = 0; i < C.n; i++) {
        const char *c = C.t[i].choices;
        if (C.t[i].type != VMPI_TUNABLE_STRING || c == NULL)
            continue;
        struct vmpi_t_enum *e = &C.enums[i];
        e->name = C.t[i].name;
        for (; *c && e->n < (int)(sizeof e->items / sizeof e->items[0]); e->n++) {
            size_t len = strcspn(c, "|");
            if (used + len + 1 > sizeof C.text)
                vmpi_fatal("MPI_T: the settings' choices need more than %d bytes (mpi/tool/cvar.c)", ITEMS_TEXT);
            memcpy(C.text + used, c, len);
            C.text[used + len] = '\0';
            e->items[e->n] = C.text + used;
            used += len + 1;
            c += len + (c[len] == '|');
        }
    }
}

static const vmpi_tunable *tunable(int i)
{
    pthread_once(&C.once, build);
    return &C.t[i];
}

static MPI_T_enum enum_of(int i) { return C.enums[i].n ? &C.enums[i] : MPI_T_ENUM_NULL; }

bool vmpi_t_enum_valid(MPI_T_enum e)
{
    pthread_once(&C.once, build);
    uintptr_t p = (uintptr_t)e, lo = (uintptr_t)C.enums; /* (any value a program passes: compared as an integer) */
    return p >= lo && p < (uintptr_t)(C.enums + C.n) && (p - lo) % sizeof *C.enums == 0 && e->n > 0;
}

int vmpi_cvar_count(void)
{
    pthread_once(&C.once, build);
    return (int)C.n;
}

void vmpi_cvar_get(int i, vmpi_cvar_info *out)
{
    const vmpi_tunable *t = tunable(i);
    *out = (vmpi_cvar_info){.name = t->env, .desc = t->help, .bind = MPI_T_BIND_NO_OBJECT, .count = 1,
                            .en = enum_of(i)};
    out->verbosity = !strcmp(t->group, "job") || t->runtime ? MPI_T_VERBOSITY_USER_BASIC
                                                            : MPI_T_VERBOSITY_TUNER_BASIC;
    out->scope = t->runtime ? MPI_T_SCOPE_ALL_EQ : MPI_T_SCOPE_CONSTANT;
    switch (t->type) {
    case VMPI_TUNABLE_INT:
    case VMPI_TUNABLE_BOOL:
        out->dt = MPI_INT;
        break;
    case VMPI_TUNABLE_SIZE:
        out->dt = MPI_UNSIGNED_LONG_LONG;
        break;
    case VMPI_TUNABLE_STRING:
        out->dt = out->en ? MPI_INT : MPI_CHAR;
        if (!out->en) {
            size_t len = strlen(vmpi_tunable_text(t)) + 1;
            out->count = t->runtime && len < STRING_MAX ? STRING_MAX : (int)len;
        }
        break;
    }
}

int vmpi_cvar_index(const char *name)
{
    for (int i = 0; i < vmpi_cvar_count(); i++)
        if (strcmp(tunable(i)->env, name) == 0)
            return i;
    return -1;
}

static bool truthy(const char *v)
{
    return !strcmp(v, "1") || !strcasecmp(v, "yes") || !strcasecmp(v, "true") || !strcasecmp(v, "on");
}

void vmpi_cvar_read(int i, void *buf)
{
    const vmpi_tunable *t = tunable(i);
    const char *v = vmpi_tunable_text(t);
    size_t sz = 0;
    MPI_T_enum e = enum_of(i);
    switch (t->type) {
    case VMPI_TUNABLE_INT:
        *(int *)buf = (int)strtol(v, NULL, 10); /* (checked at boot: within the setting's range, an int's) */
        break;
    case VMPI_TUNABLE_BOOL:
        *(int *)buf = truthy(v);
        break;
    case VMPI_TUNABLE_SIZE:
        vmpi_parse_size(v, &sz);
        *(unsigned long long *)buf = sz;
        break;
    case VMPI_TUNABLE_STRING:
        if (e) {
            int k = 0;
            while (k < e->n && strcmp(e->items[k], v) != 0)
                k++;
            *(int *)buf = k;
        } else {
            strcpy(buf, v);
        }
        break;
    }
}

/* The balancer chain: checked by the strategies' parser before it is set; the next balancing step runs it. */
static int write_balancer(const vmpi_tunable *t, const char *v)
{
    const vmpi_lb_strategy *chain[VMPI_LB_CHAIN_MAX];
    const char *why = NULL;
    if (vmpi_lb_parse(v, chain, &why) < 0 || !vmpi_tunable_set(t, v, &why))
        return MPI_T_ERR_INVALID;
    vmpi_adapt_balancer_changed();
    return MPI_SUCCESS;
}

int vmpi_cvar_write(int i, const void *buf)
{
    const vmpi_tunable *t = tunable(i);
    MPI_T_enum e = enum_of(i);
    char text[STRING_MAX];
    const char *why = NULL;
    if (!t->runtime)
        return MPI_T_ERR_CVAR_SET_NEVER;
    switch (t->type) {
    case VMPI_TUNABLE_INT:
        snprintf(text, sizeof text, "%d", *(const int *)buf);
        break;
    case VMPI_TUNABLE_BOOL: /* 0 or 1: another value would not read back */
        if (*(const int *)buf != 0 && *(const int *)buf != 1)
            return MPI_T_ERR_INVALID;
        snprintf(text, sizeof text, "%d", *(const int *)buf);
        break;
    case VMPI_TUNABLE_SIZE:
        snprintf(text, sizeof text, "%llu", *(const unsigned long long *)buf);
        break;
    case VMPI_TUNABLE_STRING:
        if (e) {
            int k = *(const int *)buf;
            if (k < 0 || k >= e->n)
                return MPI_T_ERR_INVALID;
            snprintf(text, sizeof text, "%s", e->items[k]);
        } else {
            if (strnlen(buf, STRING_MAX) == STRING_MAX)
                return MPI_T_ERR_INVALID;
            strcpy(text, buf);
            if (!strcmp(t->name, "balancer"))
                return write_balancer(t, text);
        }
        break;
    }
    return vmpi_tunable_set(t, text, &why) ? MPI_SUCCESS : MPI_T_ERR_INVALID;
}
