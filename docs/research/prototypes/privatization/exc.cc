#include <stdexcept>
extern "C" int c_set(int r) { try { if (r >= 0) throw std::runtime_error("x"); } catch (const std::exception &) { return 0; } return 1; }
extern "C" int c_check(int r) { (void)r; return 0; }
