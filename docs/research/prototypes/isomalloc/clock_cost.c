#define _GNU_SOURCE
#include <time.h>
#include <stdio.h>
#include <stdint.h>
#include <sys/resource.h>
#include <x86intrin.h>
#include <pthread.h>
#define N 2000000
static inline uint64_t ns(void){struct timespec t; clock_gettime(CLOCK_MONOTONIC,&t); return t.tv_sec*1000000000ull+t.tv_nsec;}
static volatile uint64_t sink;
static double bench(const char*name, int which){
  uint64_t t0=ns(); struct timespec ts; struct rusage ru; unsigned aux;
  for(int i=0;i<N;i++){
    switch(which){
    case 0: clock_gettime(CLOCK_THREAD_CPUTIME_ID,&ts); sink+=ts.tv_nsec; break;
    case 1: clock_gettime(CLOCK_MONOTONIC,&ts); sink+=ts.tv_nsec; break;
    case 2: sink+=__rdtsc(); break;
    case 3: sink+=__rdtscp(&aux); break;
    case 4: clock_gettime(CLOCK_MONOTONIC_COARSE,&ts); sink+=ts.tv_nsec; break;
    case 5: clock_gettime(CLOCK_PROCESS_CPUTIME_ID,&ts); sink+=ts.tv_nsec; break;
    case 6: getrusage(RUSAGE_THREAD,&ru); sink+=ru.ru_utime.tv_usec; break;
    case 7: { clockid_t c; pthread_getcpuclockid(pthread_self(),&c); clock_gettime(c,&ts); sink+=ts.tv_nsec; } break;
    case 8: _mm_lfence(); sink+=__rdtsc(); break;
    }
  }
  double r=(double)(ns()-t0)/N; printf("%-34s %8.1f ns/call\n",name,r); return r;
}
int main(void){
  for(int rep=0;rep<2;rep++){
  bench("clock_gettime(THREAD_CPUTIME_ID)",0);
  bench("clock_gettime(MONOTONIC) [vDSO]",1);
  bench("rdtsc",2);
  bench("lfence;rdtsc",8);
  bench("rdtscp",3);
  bench("clock_gettime(MONOTONIC_COARSE)",4);
  bench("clock_gettime(PROCESS_CPUTIME_ID)",5);
  bench("getrusage(RUSAGE_THREAD)",6);
  bench("pthread_getcpuclockid+gettime",7);
  puts("");}
  /* resolution */
  struct timespec r; clock_getres(CLOCK_THREAD_CPUTIME_ID,&r); printf("res THREAD_CPUTIME %ld ns\n", r.tv_nsec);
  clock_getres(CLOCK_MONOTONIC_COARSE,&r); printf("res MONOTONIC_COARSE %ld ns\n", r.tv_nsec);
}
