#define _GNU_SOURCE
#include <sys/mman.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
static double now(){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+1e-9*t.tv_nsec;}
static int vmas(){FILE*f=fopen("/proc/self/maps","r");int n=0,c;while((c=fgetc(f))!=EOF)if(c=='\n')n++;fclose(f);return n;}
int main(){
  uintptr_t base=0x200000000000ull; size_t slot=(size_t)1<<30, nslots=10000; /* 1 GiB slots, ~9.8 TiB */
  int v0=vmas(); double t=now();
  void*p=mmap((void*)base, slot*nslots, PROT_NONE, MAP_PRIVATE|MAP_ANONYMOUS|MAP_NORESERVE|MAP_FIXED_NOREPLACE,-1,0);
  printf("reserve %zu TiB at %p: %s (%.1f us)\n", slot*nslots>>40, p, p==(void*)base?"ok":"FAIL", (now()-t)*1e6);
  void*q=mmap((void*)base, 4096, PROT_NONE, MAP_PRIVATE|MAP_ANONYMOUS|MAP_FIXED_NOREPLACE,-1,0);
  printf("second NOREPLACE at same addr -> %s\n", q==MAP_FAILED?"EEXIST (refused, good)":"mapped?!");
  t=now();
  for(size_t i=0;i<nslots;i++){ char*s=(char*)base+i*slot; /* [guard page][stack 256K + heap 1M committed] */
    if(mprotect(s+4096, (256<<10)+(1<<20), PROT_READ|PROT_WRITE)) {perror("mprotect");return 1;} s[4096]=1; }
  printf("commit %zu slots: %.2f us/slot, VMAs %d -> %d\n", nslots,(now()-t)*1e6/nslots, v0, vmas());
  /* grow slot 5's heap contiguously: VMA count should not change */
  char*s=(char*)base+5*slot; mprotect(s+4096+(256<<10)+(1<<20), 1<<20, PROT_READ|PROT_WRITE); printf("after growth VMAs %d\n", vmas());
  FILE*f=fopen("/proc/sys/vm/max_map_count","r"); int m; fscanf(f,"%d",&m); printf("vm.max_map_count=%d\n",m);
  f=fopen("/proc/sys/vm/overcommit_memory","r"); fscanf(f,"%d",&m); printf("overcommit_memory=%d\n",m);
}
