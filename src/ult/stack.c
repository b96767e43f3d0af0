/* SPDX-License-Identifier: BSD-3-Clause */
#include <sys/mman.h>
#include <unistd.h>
#include "ult/stack.h"

bool vmpi_stack_create(vmpi_stack *s, size_t size)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size = (size + page - 1) & ~(page - 1);
    size_t total = size + page;
    void *m = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK,
                   -1, 0);
    if (m == MAP_FAILED)
        return false;
    if (mprotect(m, page, PROT_NONE) != 0) {
        munmap(m, total);
        return false;
    }
    s->map = m;
    s->guard = page;
    s->size = size;
    return true;
}

void vmpi_stack_destroy(vmpi_stack *s)
{
    if (s->map)
        munmap(s->map, s->guard + s->size);
    s->map = NULL;
}
