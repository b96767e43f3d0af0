int counter;
int bump(void){ return ++counter; }
