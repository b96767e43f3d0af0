/* SPDX-License-Identifier: BSD-3-Clause */
/* Linked, with start.c, into programs built with -privatize=auto or tls.  Such a program is a
 * position-independent image (linked -shared) that also runs as the executable: this object gives it an
 * interpreter and an entry point.  The process's own copy of the image only boots vmpi; its constructors
 * never run (glibc runs a legacy `init` argument instead of them, here one that does nothing) and libvmpi
 * disables its destructors.  The ranks run in copies libvmpi loads from the same file (src/img/). */

/* x86-64 Linux's program interpreter: an executable image needs one, a shared object gets none from ld */
const char vmpi_interp[] __attribute__((section(".interp"), used)) = "/lib64/ld-linux-x86-64.so.2";

extern int __real_main(int, char **, char **);
extern int vmpi_boot_image(int argc, char **argv, int (*main)(int, char **, char **), int method);

__attribute__((used)) static void no_init(void) {}
__attribute__((used)) static int boot_auto(int argc, char **argv, char **envp)
{
    (void)envp;
    return vmpi_boot_image(argc, argv, __real_main, 1);
}
__attribute__((used)) static int boot_tls(int argc, char **argv, char **envp)
{
    (void)envp;
    return vmpi_boot_image(argc, argv, __real_main, 2);
}

/* The entry points (the wrappers pick one with -e): the System V _start sequence, with boot_* as main
 * and no_init as the legacy initializer. */
#define VMPI_ENTRY(name, boot)                                                                                \
    __asm__(".text\n.globl " #name "\n.type " #name ",@function\n" #name ":\n"                                \
            " xor %ebp,%ebp\n mov %rdx,%r9\n pop %rsi\n mov %rsp,%rdx\n and $-16,%rsp\n push %rax\n"          \
            " push %rsp\n xor %r8d,%r8d\n lea no_init(%rip),%rcx\n lea " #boot "(%rip),%rdi\n"                \
            " call *__libc_start_main@GOTPCREL(%rip)\n hlt\n.size " #name ",.-" #name "\n")
VMPI_ENTRY(vmpi_image_start_auto, boot_auto);
VMPI_ENTRY(vmpi_image_start_tls, boot_tls);
