// A planted data race for scripts/sanitize: two OpenMP threads write one int without
// synchronisation. The ThreadSanitizer set-up there must report it (exit non-zero), or
// its clean runs of carcsolo would prove nothing.
#include <cstdio>

int main() {
  int shared = 0;
#pragma omp parallel num_threads(2)
  for (int i = 0; i < 100000; ++i) shared += i;
  std::printf("%d\n", shared);
  return 0;
}
