// Cost of setting the TLS pointer: wrfsbase (FSGSBASE, user mode) vs arch_prctl(ARCH_SET_FS) syscall.
#define _GNU_SOURCE
#include <asm/prctl.h>
#include <immintrin.h>
#include <stdio.h>
#include <stdint.h>
#include <sys/auxv.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#ifndef HWCAP2_FSGSBASE
#define HWCAP2_FSGSBASE (1 << 1)
#endif
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
__attribute__((target("fsgsbase"))) static void bench_wr(uint64_t fs, int n){
    for (int i=0;i<n;i++){ _writefsbase_u64(fs); asm volatile(""::: "memory"); }
}
__attribute__((target("fsgsbase"))) static uint64_t rd(void){ return _readfsbase_u64(); }
int main(void){
    int hw = (getauxval(AT_HWCAP2) & HWCAP2_FSGSBASE) != 0;
    printf("AT_HWCAP2 FSGSBASE: %d\n", hw);
    uint64_t fs; syscall(SYS_arch_prctl, ARCH_GET_FS, &fs);
    int n = 10000000;
    if (hw) {
        printf("rdfsbase == ARCH_GET_FS: %d\n", rd()==fs);
        double t=now(); bench_wr(fs,n); t=now()-t; printf("wrfsbase: %.2f ns\n", t/n*1e9);
        t=now(); volatile uint64_t s=0; for(int i=0;i<n;i++) s+=rd(); t=now()-t; printf("rdfsbase: %.2f ns\n", t/n*1e9);
    }
    int m = 1000000;
    double t=now(); for(int i=0;i<m;i++) syscall(SYS_arch_prctl, ARCH_SET_FS, fs); t=now()-t;
    printf("arch_prctl(ARCH_SET_FS): %.1f ns\n", t/m*1e9);
    t=now(); for(int i=0;i<m;i++) syscall(SYS_getppid); t=now()-t;
    printf("getppid syscall: %.1f ns\n", t/m*1e9);
    return 0;
}
