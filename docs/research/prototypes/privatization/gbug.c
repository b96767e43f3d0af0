int arr[4];
int c_set(int r) { volatile int i = 4; arr[i] = r; return 0; }   /* global overflow */
int c_check(int r) { (void)r; return 0; }
