#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <string>
#include <vector>
extern "C" unsigned long my_calls;
int main(){ unsigned long c0=my_calls; auto *v=new std::vector<int>(1000); delete v; unsigned long c1=my_calls;
 char*s=strdup("hello"); free(s); unsigned long c2=my_calls; FILE*f=fopen("/proc/self/stat","r"); fclose(f); unsigned long c3=my_calls;
 printf("new/delete: %lu calls, strdup/free: %lu, fopen/fclose: %lu\n", c1-c0, c2-c1, c3-c2); }
