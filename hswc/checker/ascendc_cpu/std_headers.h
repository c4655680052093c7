// std_headers.h - the standard library's headers the CPU model (this folder, less host/)
// includes: every harness build reads all of them. hswc.checker.std_unit precompiles this file
// once per flag set and forces it first into each harness build that links the model object,
// so that g++ loads the standard library instead of parsing it (about 0.7 of 2.2 CPU s).
#ifndef ASCENDC_CPU_STD_HEADERS_H
#define ASCENDC_CPU_STD_HEADERS_H
#include <algorithm>
#include <array>
#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <condition_variable>
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fstream>
#include <functional>
#include <iterator>
#include <limits>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <sys/mman.h>
#include <thread>
#include <tuple>
#include <type_traits>
#include <unistd.h>
#include <utility>
#include <vector>
#endif
