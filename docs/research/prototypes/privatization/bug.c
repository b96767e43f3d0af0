#include <stdlib.h>
int c_set(int r) { int *p = malloc(4); p[1] = r; free(p); return 0; }   /* heap overflow by one int */
int c_check(int r) { (void)r; return 0; }
