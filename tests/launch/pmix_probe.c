/* SPDX-License-Identifier: BSD-3-Clause */
/* A plain PMIx client (not a vmpi program) for vmpirun --procs's tests (tests/launch/launch.sh): checks the
 * job information vmpirun's PMIx server registered, exchanges one value per process through a fence with
 * PMIX_COLLECT_DATA, prints one line, and finalizes.  Arguments (after the expected job size) make one
 * process misbehave after the exchange, while the others wait in a second fence:
 *   pmix_probe K                   K processes expected: all succeed
 *   pmix_probe K exit R S          process R exits with status S
 *   pmix_probe K exit0 R           process R exits with status 0, without PMIx_Finalize
 *   pmix_probe K kill R            process R kills itself with SIGKILL
 *   pmix_probe K abort R S MSG     process R calls PMIx_Abort(S, MSG)
 *   pmix_probe K sleep S           every process sleeps S seconds
 * Started without a PMIx server (vmpirun --procs 1 execs the program), it says so, and succeeds if K is 1.
 * With PROBE_DIR set, each process writes its pid to PROBE_DIR/pid.RANK (the test checks none is left); with
 * PROBE_STDIN set, it reads a line from stdin and shows it. */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pmix.h>

static pmix_proc_t me;

static _Noreturn void fail(const char *what, pmix_status_t rc)
{
    fprintf(stderr, "probe %u: %s: %s\n", me.rank, what, PMIx_Error_string(rc));
    exit(1);
}

static uint32_t get_u32(const pmix_proc_t *who, const char *key)
{
    pmix_value_t *v = NULL;
    pmix_status_t rc = PMIx_Get(who, key, NULL, 0, &v);
    if (rc != PMIX_SUCCESS)
        fail(key, rc);
    uint32_t x = v->type == PMIX_UINT32 ? v->data.uint32 : v->type == PMIX_UINT16 ? v->data.uint16 : UINT32_MAX;
    PMIX_VALUE_RELEASE(v);
    return x;
}

static void get_string(const pmix_proc_t *who, const char *key, char *out, size_t len)
{
    pmix_value_t *v = NULL;
    pmix_status_t rc = PMIx_Get(who, key, NULL, 0, &v);
    if (rc != PMIX_SUCCESS)
        fail(key, rc);
    snprintf(out, len, "%s", v->type == PMIX_STRING && v->data.string ? v->data.string : "?");
    PMIX_VALUE_RELEASE(v);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: pmix_probe SIZE [exit R S | kill R | abort R S MSG | sleep S]\n");
        return 2;
    }
    uint32_t want = (uint32_t)atoi(argv[1]);
    const char *act = argc > 2 ? argv[2] : "";
    if (getenv("PMIX_NAMESPACE") == NULL) {
        printf("probe: no PMIx server: one process\n");
        return want == 1 ? 0 : 1;
    }
    pmix_status_t rc = PMIx_Init(&me, NULL, 0);
    if (rc != PMIX_SUCCESS)
        fail("PMIx_Init", rc);
    const char *dir = getenv("PROBE_DIR");
    if (dir) {
        char path[4096];
        snprintf(path, sizeof path, "%s/pid.%u", dir, me.rank);
        FILE *f = fopen(path, "w");
        if (f) {
            fprintf(f, "%ld\n", (long)getpid());
            fclose(f);
        }
    }
    pmix_proc_t job;
    PMIX_LOAD_PROCID(&job, me.nspace, PMIX_RANK_WILDCARD);
    uint32_t size = get_u32(&job, PMIX_JOB_SIZE);
    if (size != want) {
        fprintf(stderr, "probe %u: PMIX_JOB_SIZE %u, expected %u\n", me.rank, size, want);
        return 1;
    }
    /* what a runtime asks: its place on the node, the node's peers, its host */
    uint32_t local = get_u32(&me, PMIX_LOCAL_RANK), lsize = get_u32(&job, PMIX_LOCAL_SIZE);
    uint32_t nrank = get_u32(&me, PMIX_NODE_RANK), usize = get_u32(&job, PMIX_UNIV_SIZE);
    uint32_t nodes = get_u32(&job, PMIX_NUM_NODES), nodeid = get_u32(&me, PMIX_NODEID);
    if (nrank != me.rank || usize != size || nodes != 1 || nodeid != 0) {
        fprintf(stderr, "probe %u: node rank %u, universe %u, nodes %u, node id %u\n", me.rank, nrank, usize, nodes,
                nodeid);
        return 1;
    }
    char peers[4096], host[256], myhost[256] = "";
    get_string(&job, PMIX_LOCAL_PEERS, peers, sizeof peers);
    get_string(&me, PMIX_HOSTNAME, host, sizeof host);
    gethostname(myhost, sizeof myhost - 1);
    char expect[4096] = "";
    for (uint32_t r = 0, at = 0; r < size; r++)
        at += (uint32_t)snprintf(expect + at, sizeof expect - at, "%s%u", r ? "," : "", r);
    if (local != me.rank || lsize != size || strcmp(peers, expect) || strcmp(host, myhost)) {
        fprintf(stderr, "probe %u: local rank %u, local size %u, peers '%s', host '%s' (this host '%s')\n", me.rank,
                local, lsize, peers, host, myhost);
        return 1;
    }

    char key[64];
    snprintf(key, sizeof key, "probe.%u", me.rank);
    pmix_value_t val = {.type = PMIX_UINT32, .data.uint32 = me.rank * 1000 + 7};
    if ((rc = PMIx_Put(PMIX_GLOBAL, key, &val)) != PMIX_SUCCESS)
        fail("PMIx_Put", rc);
    if ((rc = PMIx_Commit()) != PMIX_SUCCESS)
        fail("PMIx_Commit", rc);
    pmix_info_t collect;
    bool yes = true;
    PMIX_INFO_LOAD(&collect, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
    if ((rc = PMIx_Fence(NULL, 0, &collect, 1)) != PMIX_SUCCESS)
        fail("PMIx_Fence", rc);
    for (uint32_t r = 0; r < size; r++) {
        pmix_proc_t other;
        PMIX_LOAD_PROCID(&other, me.nspace, r);
        snprintf(key, sizeof key, "probe.%u", r);
        uint32_t got = get_u32(&other, key);
        if (got != r * 1000 + 7) {
            fprintf(stderr, "probe %u: %s is %u, expected %u\n", me.rank, key, got, r * 1000 + 7);
            return 1;
        }
    }
    /* stdin: process 0 has vmpirun's, the others /dev/null */
    char line[64] = "";
    if (getenv("PROBE_STDIN") && fgets(line, sizeof line, stdin) == NULL)
        strcpy(line, "(none)");
    line[strcspn(line, "\n")] = '\0';
    printf("probe %u of %u: ok (%u values exchanged)%s%s\n", me.rank, size, size, line[0] ? "; stdin: " : "", line);
    fflush(stdout);

    uint32_t who = argc > 3 ? (uint32_t)atoi(argv[3]) : UINT32_MAX;
    if (!strcmp(act, "exit") && who == me.rank)
        exit(argc > 4 ? atoi(argv[4]) : 1);
    if (!strcmp(act, "exit0") && who == me.rank)
        _exit(0);
    if (!strcmp(act, "kill") && who == me.rank)
        raise(SIGKILL);
    if (!strcmp(act, "abort") && who == me.rank) {
        PMIx_Abort(argc > 4 ? atoi(argv[4]) : 1, argc > 5 ? argv[5] : NULL, NULL, 0);
        sleep(60); /* vmpirun stops us */
        return 99;
    }
    if (!strcmp(act, "sleep"))
        sleep((unsigned)atoi(argv[3]));
    /* the others wait for the misbehaving process here: only vmpirun ends them */
    if ((rc = PMIx_Fence(NULL, 0, NULL, 0)) != PMIX_SUCCESS) {
        /* a participant is gone (libpmix noticed): wait for vmpirun to stop the job, as a runtime would */
        fprintf(stderr, "probe %u: the second PMIx_Fence: %s\n", me.rank, PMIx_Error_string(rc));
        for (;;)
            pause();
    }
    if ((rc = PMIx_Finalize(NULL, 0)) != PMIX_SUCCESS)
        fail("PMIx_Finalize", rc);
    return 0;
}
