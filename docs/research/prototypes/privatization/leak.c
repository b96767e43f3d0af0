#include <stdlib.h>
void *keep;                                    /* the only reference to the block */
int c_set(int r) { keep = malloc(1000 + r); return 0; }
int c_check(int r) { (void)r; return 0; }
