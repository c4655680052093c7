// ascendc_cpu_site.h - where a kernel made a call: its source file and line.
//
// Part of the AscendC CPU model (see README.md). Every API call the synchronisation rules locate
// (the vector instructions, SetFlag / WaitFlag and the event ids, the queue calls) takes a last
// parameter `Site site = Site()`, which a kernel never passes: g++ evaluates the default
// argument's __builtin_FILE() / __builtin_LINE() at the call, so the model knows the file and
// line of the kernel's call (a call the model makes from inside another one passes its own
// site on). The file is spelled as g++ opened it (the -DHSWC_KERNEL_SOURCE path, or an
// #include's path joined to its includer's folder).
#ifndef ASCENDC_CPU_SITE_H
#define ASCENDC_CPU_SITE_H

#include "ascendc_cpu_fn.h"

#include <string>

namespace ascendc_cpu {

struct Site {
    const char* file;
    int line;

    explicit Site(const char* f = __builtin_FILE(), int l = __builtin_LINE()) : file(f), line(l) {}
};

/// "file:line", as compilers write a location.
ASCENDC_CPU_FN std::string Where(const Site& s)
{
    return std::string(s.file == nullptr ? "?" : s.file) + ":" + std::to_string(s.line);
}

}  // namespace ascendc_cpu

#endif  // ASCENDC_CPU_SITE_H
