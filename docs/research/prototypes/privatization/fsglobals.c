// FSglobals-style: one file copy per rank + dlopen; time and RSS.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
static long rss_kb(void){ FILE*f=fopen("/proc/self/status","r"); char l[256]; long v=0; while(fgets(l,256,f)) if(!strncmp(l,"VmRSS:",6)) v=atol(l+6); fclose(f); return v; }
int main(int c, char **v){
  int n = atoi(v[2]); const char *dir = v[3];
  long r0 = rss_kb(); double tc=0, td=0;
  for (int i=0;i<n;i++){
    char p[256]; snprintf(p,256,"%s/rank%d.so",dir,i);
    double t=now();
    int in=open(v[1],O_RDONLY), out=open(p,O_WRONLY|O_CREAT|O_TRUNC,0755); struct stat st; fstat(in,&st);
    off_t o=0; sendfile(out,in,&o,st.st_size); close(in); close(out);
    tc += now()-t; t=now();
    void *h=dlopen(p,RTLD_NOW|RTLD_LOCAL); if(!h){printf("%s\n",dlerror());return 1;}
    int (*b)(void)=dlsym(h,"bump"); b();
    td += now()-t;
  }
  printf("%d ranks: file copy %.2f ms/rank, dlopen+first touch %.3f ms/rank, RSS +%ld KB/rank\n", n, tc/n*1e3, td/n*1e3, (rss_kb()-r0)/n);
  return 0;
}
