#include <stdlib.h>
#include <stdio.h>
#include <time.h>
static double now(){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+1e-9*t.tv_nsec;}
/* toy size-class allocator with all state in one struct (like a slot header) */
typedef struct blk { struct blk *next; } blk;
typedef struct { blk *fl[64]; char *bump, *end; } slotheap;
static inline unsigned cls(size_t n){ return (n+15)>>4; } /* 16-byte classes up to 1 KiB */
static inline void *sh_alloc(slotheap *h, size_t n){ unsigned c=cls(n); blk *b=h->fl[c]; if(b){h->fl[c]=b->next; return b;} char*p=h->bump; h->bump+=c<<4; return p; }
static inline void sh_free(slotheap *h, void *p, size_t n){ blk*b=p; unsigned c=cls(n); b->next=h->fl[c]; h->fl[c]=b; }
int main(){ enum{N=20000000}; void *ptrs[64]; double t=now();
  for(int i=0;i<N;i++){ int k=i&63; if(i>=64) free(ptrs[k]); ptrs[k]=malloc(16+(k&7)*24); }
  printf("glibc malloc+free pair: %.1f ns\n",(now()-t)*1e9/N);
  static char arena[1<<20]; slotheap h={0}; h.bump=arena; h.end=arena+sizeof arena; size_t sz[64];
  t=now(); for(int i=0;i<N;i++){ int k=i&63; if(i>=64) sh_free(&h,ptrs[k],sz[k]); sz[k]=16+(k&7)*24; ptrs[k]=sh_alloc(&h,sz[k]); __asm__ volatile(""::"r"(ptrs[k]):"memory"); }
  printf("toy size-class pair: %.1f ns\n",(now()-t)*1e9/N); }
