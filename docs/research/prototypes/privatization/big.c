char big[10 << 20] = {1};          /* 10 MB initialized data */
int bump(void){ return ++big[4096]; }
