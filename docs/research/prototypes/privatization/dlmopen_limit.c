#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <time.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
int main(int c, char **v){
  int n=0; double t=now();
  for (;;) {
    void *h = dlmopen(LM_ID_NEWLM, v[1], RTLD_NOW|RTLD_LOCAL);
    if (!h) { printf("dlmopen #%d failed: %s\n", n+1, dlerror()); break; }
    int (*bump)(void) = dlsym(h, "bump"); bump(); n++;
  }
  printf("%d namespaces opened, %.2f ms each\n", n, (now()-t)/n*1e3);
  return 0;
}
