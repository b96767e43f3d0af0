#include <stdexcept>
#include <chrono>
#include <cstdio>
extern "C" int c_set(int r) { return 0; }
extern "C" int c_check(int r) {
  if (r != 0) return 0;
  auto t = std::chrono::steady_clock::now(); int n = 2000, k = 0;
  for (int i = 0; i < n; i++) try { throw i; } catch (int x) { k += x; }
  printf("  throw+catch in copy 0: %.1f us\n", std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count() / n * 1e6);
  return 0; }
