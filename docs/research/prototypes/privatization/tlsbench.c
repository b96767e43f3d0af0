#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <time.h>
#include "imgload.h"
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
void host_log(const char *w, int r, int v) {}
int main(void){
  long n = 100000000; double t;
  void *h = dlopen("./tlsacc.so", RTLD_NOW); long (*g)(long) = dlsym(h, "tl_loop");
  t = now(); g(n); printf("glibc __tls_get_addr (dlopen): %.2f ns/access\n", (now()-t)/n*1e9);
  img m; if (img_load(&m, "./tlsacc.so", 0x200000000000UL)) return 1; img_enter(&m);
  long (*f)(long) = img_sym(&m, "tl_loop");
  t = now(); f(n); printf("loader hook (per-copy block):  %.2f ns/access\n", (now()-t)/n*1e9);
}
