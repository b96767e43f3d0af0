// SPDX-License-Identifier: BSD-3-Clause
// C++ state across a checkpoint, in the job that took it and in a job restarted from it (tests/tools/ckpt.sh
// kills the first and restarts it on other PE counts):
//   - globals with constructors (std::map, std::string, std::vector), a function-static object, a
//     thread_local, an object reached through a virtual call, all changed per rank before the checkpoint;
//   - std::cout used after it (before GCC 13, libstdc++ builds the standard streams only in the constructors
//     of the program's copies, which a restart does not run: a restarted job builds them itself);
//   - strings of the environment (getenv's, main's envp) kept across it;
//   - exceptions thrown and caught after it (a restarted job registers its copies' frames with the unwinder
//     again: without that, the first throw terminates the program), and one pending in a catch block across
//     the checkpoint itself (the rank's caught-exception state is part of it).
//   ckpt_cxx DIR [kill]: checkpoint into DIR; with `kill`, a job that was not restarted is killed with
//   SIGKILL right after the checkpoint.  Without arguments: into a fresh directory, and the job goes on.
//   In sanitizer builds (no checkpoints) it migrates instead.
#include <iostream>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>
#include "ckpt_test.h"

std::map<int, std::string> table;
std::vector<double> values(100, 1.5);
thread_local int tl_count = 7;
struct Base {
    virtual ~Base() = default;
    virtual double f(double x) const = 0;
};
struct Twice : Base {
    double f(double x) const override { return 2 * x; }
};
static std::string &name()
{
    static std::string s("static-" + std::to_string(42));
    return s;
}

int main(int argc, char **argv, char **envp)
{
    int errs = 0, rank, size;
    /* strings of the environment kept across the checkpoint (they come back with the job heap) */
    const char *path = getenv("PATH"), *env0 = envp[0];
    std::string path_was = path ? path : "", env0_was = env0 ? env0 : "";
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    ckpt_test t;
    ckpt_test_open(&t, argc, argv, "ckpt_cxx");

    std::unique_ptr<Base> obj(new Twice);
    for (int i = 0; i < 50; i++)
        table[i] = std::to_string(i * rank);
    for (auto &v : values)
        v *= rank + 1;
    tl_count += rank;
    name() += "-r" + std::to_string(rank);
    try {
        throw std::runtime_error("held across the checkpoint " + std::to_string(rank));
    } catch (const std::exception &e) {
        ckpt_test_point(&t, MPI_INFO_NULL, "ckpt_cxx", &errs); // inside the catch block: the exception is the rank's
        if (std::string(e.what()) != "held across the checkpoint " + std::to_string(rank))
            MT_ERR(errs, "the caught exception says '%s'", e.what());
    }
    try {
        table.at(1000);
        MT_ERR(errs, "std::map::at did not throw");
    } catch (const std::out_of_range &) {
    }
    try {
        throw std::runtime_error("after");
    } catch (const std::exception &e) {
        MT_CHECK(errs, std::string(e.what()) == "after", "exception after the checkpoint: %s", e.what());
    }
    MT_CHECK(errs, table.at(7) == std::to_string(7 * rank), "table[7] = %s", table.at(7).c_str());
    double s = 0;
    for (auto v : values)
        s += v;
    MT_CHECK(errs, s == 150.0 * (rank + 1), "sum of values %g, expected %g", s, 150.0 * (rank + 1));
    MT_CHECK_INT(errs, "thread_local", 7 + rank, tl_count);
    MT_CHECK(errs, name() == "static-42-r" + std::to_string(rank), "function-static: %s", name().c_str());
    MT_CHECK(errs, obj->f(3) == 6, "virtual call: %g", obj->f(3));
    MT_CHECK(errs, !path || path_was == path, "getenv(\"PATH\") kept across the checkpoint reads '%.40s'", path);
    MT_CHECK(errs, !env0 || env0_was == env0, "envp[0] kept across the checkpoint reads '%.40s'", env0);
    if (rank == 0)
        std::cout << "ckpt_cxx: std::cout after the checkpoint" << std::endl;
    MT_CHECK(errs, std::cout.good(), "std::cout is not good after the checkpoint");
    ckpt_test_close(&t);
    return mt_finish(errs);
}
