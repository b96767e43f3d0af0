/* SPDX-License-Identifier: BSD-3-Clause */
/* What the Fortran glue shares: sentinels, statuses, strings (fortran.h). */
#include <stdint.h>
#include <stdlib.h>
#include "fortran/fortran.h"
#include "img/img.h"

const char *vmpi_f_sent_find(void)
{
    static const vmpi_f_sentinels none; /* libvmpi's: no argument of a program is there */
    return &vmpi_f_sentinels_ != NULL ? vmpi_img_rank_addr(&vmpi_f_sentinels_) : (const char *)&none;
}

/* Each rank's copy of the block, where its glue looks (vmpi_f_sent): found on the rank, its copy made. */
static void find_rank_sentinels(vmpi_rank *rk) { rk->f_sentinels = vmpi_f_sent_find(); }
__attribute__((constructor)) static void take_rank_start(void) { vmpi_rank_on_start(find_rank_sentinels); }

MPI_Status *vmpi_f_statuses(MPI_Fint *f, int n)
{
    if (vmpi_f_is(vmpi_f_sent(), f, statuses_ignore))
        return MPI_STATUSES_IGNORE;
    if ((uintptr_t)f % _Alignof(MPI_Status) == 0 || n <= 0)
        return (MPI_Status *)(void *)f;
    MPI_Status *c = malloc(sizeof *c * (size_t)n);
    if (c)
        memcpy(c, f, sizeof *c * (size_t)n); /* in: MPI_Waitsome and the others read nothing, but cheap */
    return c;
}

void vmpi_f_statuses_done(MPI_Status *c, MPI_Fint *f, int n)
{
    if (c == MPI_STATUSES_IGNORE || c == NULL || (void *)c == (void *)f)
        return;
    memcpy(f, c, sizeof *c * (size_t)n);
    free(c);
}

char *vmpi_f_str_in(const char *f, size_t len)
{
    while (len > 0 && f[len - 1] == ' ')
        len--;
    char *c = malloc(len + 1);
    if (c) {
        memcpy(c, f, len);
        c[len] = '\0';
    }
    return c;
}

char *vmpi_f_str_in_info(const char *f, size_t len)
{
    while (len > 0 && f[0] == ' ')
        f++, len--;
    return vmpi_f_str_in(f, len);
}

/* the C functions write up to their MPI_MAX_* bound (MPI_MAX_LIBRARY_VERSION_STRING the largest) whatever the
 * CHARACTER's length: the room covers both */
char *vmpi_f_str_room(size_t len)
{
    char *c = malloc(len + MPI_MAX_LIBRARY_VERSION_STRING + 1);
    if (c)
        c[0] = '\0';
    return c;
}

void vmpi_f_str_out(char *c, char *f, size_t len, int rc)
{
    if (c == NULL)
        return;
    if (rc == MPI_SUCCESS) {
        size_t n = strnlen(c, len);
        memcpy(f, c, n);
        memset(f + n, ' ', len - n);
    }
    free(c);
}

void vmpi_f_str_free(char *c) { free(c); }
