int counter; extern "C" int bump(){ static int x; return ++counter + ++x; }
