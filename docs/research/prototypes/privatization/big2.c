char big[10 << 20] = {1};          /* 10 MB of initialized globals */
static char zbig[1 << 20];         /* and 1 MB zero-initialized */
int touch_all(void) { for (long i = 0; i < (long)sizeof big; i += 4096) big[i]++; for (long i = 0; i < (long)sizeof zbig; i += 4096) zbig[i]++; return big[0]; }
