// SPDX-License-Identifier: BSD-3-Clause
// A -privatize=tls program across a checkpoint (built with that method: the name ends in _tls).  Its
// globals are the process's, one copy shared by all ranks, in the job heap with what its constructors
// allocated; its thread_locals are per rank, in the ranks' slots.  Checked after the checkpoint, in the job
// that took it and in a job restarted from it (tests/tools/ckpt.sh):
//   - a global std::map filled by its constructor, still whole (its nodes came from the job heap);
//   - a global atomic counter every rank added to before the checkpoint: the sum of the ranks;
//   - a global vector of 8 MiB of zeros (a constructor's block in the job heap) but its last element: still
//     zeros (a restarted process writes its boot's objects in the job heap before the checkpoint is read,
//     so the checkpoint must hold the job heap's pages of zeros too);
//   - a function-static std::string built by the first rank that called it;
//   - each rank's thread_local std::vector and int, its own;
//   - an exception thrown and caught after the checkpoint, std::cout used after it (ckpt_cxx says why).
//   ckpt_tls DIR [kill]: checkpoint into DIR; with `kill`, a job that was not restarted is killed right
//   after the checkpoint.  Without arguments: into a fresh directory, and the job goes on.  In sanitizer
//   builds (no checkpoints) it migrates instead.
#include <atomic>
#include <iostream>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>
#include "ckpt_test.h"

static std::map<int, std::string> make_table()
{
    std::map<int, std::string> m;
    for (int i = 0; i < 100; i++)
        m[i] = "value " + std::to_string(i * i);
    return m;
}
const std::map<int, std::string> table = make_table();
std::atomic<long> total{0};
std::vector<double> zeros(1 << 20);
thread_local std::vector<int> mine;
thread_local int tl_rank = -1;
static const std::string &shared_name()
{
    static const std::string s(std::string("shared-") + std::to_string(table.size()));
    return s;
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    ckpt_test t;
    ckpt_test_open(&t, argc, argv, "ckpt_tls");

    total += rank + 1;
    if (rank == 0)
        zeros.back() = 1;
    tl_rank = rank;
    for (int i = 0; i < 1000; i++)
        mine.push_back(i * (rank + 1));
    (void)shared_name();
    MPI_Barrier(MPI_COMM_WORLD);

    ckpt_test_point(&t, MPI_INFO_NULL, "ckpt_tls", &errs);

    MT_CHECK(errs, table.size() == 100 && table.at(7) == "value 49" && table.at(99) == "value 9801",
             "the shared table (%zu entries) is not whole", table.size());
    MT_CHECK_INT(errs, "the shared counter", (long)size * (size + 1) / 2, total.load());
    MT_CHECK(errs, shared_name() == "shared-100", "function-static: %s", shared_name().c_str());
    MT_CHECK_INT(errs, "thread_local int", rank, tl_rank);
    size_t nonzero = 0, first = 0;
    for (size_t i = 0; i + 1 < zeros.size(); i++)
        if (zeros[i] != 0 && nonzero++ == 0)
            first = i;
    MT_CHECK(errs, nonzero == 0 && zeros.back() == 1, "global vector of zeros: %zu elements are not (the first at %zu), the last is %g",
             nonzero, first, zeros.back());
    bool ok = mine.size() == 1000;
    for (int i = 0; ok && i < 1000; i++)
        ok = mine[i] == i * (rank + 1);
    MT_CHECK(errs, ok, "thread_local vector of %zu elements is not this rank's", mine.size());
    try {
        throw std::runtime_error("after");
    } catch (const std::exception &e) {
        MT_CHECK(errs, std::string(e.what()) == "after", "exception after the checkpoint: %s", e.what());
    }
    if (rank == 0)
        std::cout << "ckpt_tls: std::cout after the checkpoint" << std::endl;
    MT_CHECK(errs, std::cout.good(), "std::cout is not good after the checkpoint");
    ckpt_test_close(&t);
    return mt_finish(errs);
}
