// SPDX-License-Identifier: BSD-3-Clause
// C++ memory in isomalloc slots: new/delete, new[]/delete[], over-aligned new (alignas(128)), std::vector
// growing by push_back, std::string, std::map nodes and std::unique_ptr all land in the rank's own slot
// (libstdc++'s operator new calls malloc); an object made with new by one rank is deleted by the next one,
// which receives it as a pointer.
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>
#include "mtest.h"

struct alignas(128) Wide {
    double v[16];
};

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int slot = MT_HEAP_SLOT(rank);
    {
        std::vector<int> v;
        const int *last = nullptr;
        for (int i = 0; i < 100000; i++) {
            v.push_back(i);
            if (v.data() != last) { // it grew: the new storage is in the slot too
                last = v.data();
                MT_CHECK_INT(errs, "slot of vector storage", slot, MPIX_Iso_rank(last));
            }
        }
        for (int i = 0; i < 100000; i += 997)
            MT_CHECK_INT(errs, "vector element", i, v[(size_t)i]);
        std::string s(5000, 'x');
        s += std::to_string(rank);
        MT_CHECK_INT(errs, "slot of a string", slot, MPIX_Iso_rank(s.data()));
        std::map<int, std::string> m;
        for (int i = 0; i < 1000; i++)
            m[i] = std::string(100, (char)('a' + i % 26));
        MT_CHECK_INT(errs, "slot of a map node", slot, MPIX_Iso_rank(&*m.begin()));
        MT_CHECK_INT(errs, "slot of a map value's string", slot, MPIX_Iso_rank(m[500].data()));
        int *one = new int(rank);
        MT_CHECK_INT(errs, "slot of new int", slot, MPIX_Iso_rank(one));
        delete one;
        double *arr = new double[100000];
        MT_CHECK_INT(errs, "slot of new double[]", slot, MPIX_Iso_rank(arr));
        arr[99999] = 1.0;
        delete[] arr;
        Wide *w = new Wide[7];
        MT_CHECK_INT(errs, "slot of new Wide[]", slot, MPIX_Iso_rank(w));
        MT_CHECK(errs, ((uintptr_t)w & 127) == 0, "new Wide[] at %p is not 128-byte aligned", (void *)w);
        delete[] w;
        auto u = std::make_unique<Wide>();
        MT_CHECK(errs, ((uintptr_t)u.get() & 127) == 0 && MPIX_Iso_rank(u.get()) == slot,
                 "make_unique<Wide> at %p: slot %d, 128-byte aligned expected", (void *)u.get(),
                 MPIX_Iso_rank(u.get()));
    }
    // a vector made by this rank, deleted by the next
    auto *mine = new std::vector<int>(10000, rank);
    uintptr_t out = (uintptr_t)mine, in = 0;
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    MPI_Sendrecv(&out, sizeof out, MPI_BYTE, next, 0, &in, sizeof in, MPI_BYTE, prev, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    auto *theirs = (std::vector<int> *)in;
    MT_CHECK_INT(errs, "slot of the received vector", MT_HEAP_SLOT(prev), MPIX_Iso_rank(theirs->data()));
    int bad = 0;
    for (int x : *theirs)
        bad += x != prev;
    MT_CHECK_INT(errs, "elements of the received vector that differ", 0, bad);
    theirs->push_back(rank); // grows it from this rank: the new storage is this rank's
    MT_CHECK_INT(errs, "slot of the received vector after growth", slot, MPIX_Iso_rank(theirs->data()));
    delete theirs;
    return mt_finish(errs);
}
