int pcount;
int pie_counter(int set) { if (set >= 0) pcount = set; return pcount; }
