// SPDX-License-Identifier: BSD-3-Clause
// C++ exceptions belong to their rank: every rank throws and catches its own exception, then blocks inside
// the handler (a ring exchange and a barrier, so the handlers of the ranks sharing a PE interleave, and under
// Rotate the rank moves to another PE's thread meanwhile), then checks that std::current_exception and a bare
// `throw;` still give its own exception and that no exception counts as uncaught.  Twenty rounds.
#include <mpi.h>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>

static std::string expected(int rank, int round)
{
    return "rank " + std::to_string(rank) + " round " + std::to_string(round);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, errs = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int round = 0; round < 20; round++) {
        std::string want = expected(rank, round);
        try {
            try {
                throw std::runtime_error(want);
            } catch (std::exception &) {
                int out = rank, in = -1;
                MPI_Sendrecv(&out, 1, MPI_INT, (rank + 1) % size, round, &in, 1, MPI_INT, (rank + size - 1) % size,
                             round, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Barrier(MPI_COMM_WORLD);
#ifdef AMPI
                if (round % 5 == 2)
                    AMPI_Migrate(MPI_INFO_NULL);
#endif
                if (std::uncaught_exceptions() != 0) {
                    std::fprintf(stderr, "[rank %d] round %d: %d uncaught exceptions in a handler\n", rank, round,
                                 std::uncaught_exceptions());
                    errs++;
                }
                try {
                    std::rethrow_exception(std::current_exception());
                } catch (std::exception &f) {
                    if (want != f.what()) {
                        std::fprintf(stderr, "[rank %d] round %d: current exception is '%s'\n", rank, round, f.what());
                        errs++;
                    }
                }
                throw;
            }
        } catch (std::exception &e) {
            if (want != e.what()) {
                std::fprintf(stderr, "[rank %d] round %d: rethrown exception is '%s'\n", rank, round, e.what());
                errs++;
            }
        }
    }
    int total = 0;
    MPI_Allreduce(&errs, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        std::printf(total ? " Found %d errors\n" : " No Errors\n", total);
    MPI_Finalize();
    return total != 0;
}
