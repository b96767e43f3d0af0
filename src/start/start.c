/* SPDX-License-Identifier: BSD-3-Clause */
/* Linked into every vmpi program by the compiler wrappers, with -Wl,--wrap=main -Wl,--wrap=exit: the C
 * runtime's call to main lands here and boots vmpi, which runs the program's real main once per rank.
 * exit() called by a rank ends that rank only, as it would end one process of a process-based MPI.
 * Keeping the program's main addressable as a function is what lets a later loader give each rank its own
 * copy of the program's globals. */
#include <stdlib.h>

extern int __real_main(int, char **, char **);
extern _Noreturn void __real_exit(int);
extern int vmpi_boot(int argc, char **argv, int (*main)(int, char **, char **));
extern void vmpi_start_exit(int code);

int __wrap_main(int argc, char **argv, char **envp)
{
    (void)envp;
    return vmpi_boot(argc, argv, __real_main);
}

_Noreturn void __wrap_exit(int code)
{
    vmpi_start_exit(code); /* does not return when called by a rank */
    __real_exit(code);
}
