static int counter;
int lib_counter(int set) { if (set >= 0) counter = set; return counter; }
