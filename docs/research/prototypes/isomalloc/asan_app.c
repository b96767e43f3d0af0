#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <malloc.h>
extern unsigned long get_calls(void);
int main(){ unsigned long c0=get_calls(); char *p=malloc(16); p[16]='x'; /* overflow */ free(p);
 void *q = memalign(64, 100); free(q);
 printf("calls routed to our malloc: %lu\n", get_calls()-c0); return 0; }
