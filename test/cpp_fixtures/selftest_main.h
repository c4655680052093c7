// selftest_main.h - the command line of a CPU-model self-test executable with groups of checks
// and violation cases (selftest_950_index.cpp):
//
//   NAME GROUP                run one group's checks, print "N passed, M failed"
//   NAME --violate CASE       run one violation case; must exit 3 with "ascendc_cpu: <API>: ..."
//   NAME --list-violations    print each case and the API it names
#ifndef HSWC_SELFTEST_MAIN_H
#define HSWC_SELFTEST_MAIN_H

#include <cstdio>
#include <functional>
#include <map>
#include <string>

#include "selftest_common.h"

namespace selftest {

using Groups = std::map<std::string, std::function<void()>>;

/// main's body: the groups by name, the violation cases from `violations()`.
inline int RunSelftest(int argc, char** argv, const char* name, const Groups& groups,
    const std::function<Violations()>& violations)
{
    if (argc == 3 && std::string(argv[1]) == "--violate") {
        const Violations v = violations();
        const auto it = v.find(argv[2]);
        if (it == v.end()) {
            std::fprintf(stderr, "unknown case %s\n", argv[2]);
            return 2;
        }
        it->second.run();
        std::fprintf(stderr, "case %s did not end the run\n", argv[2]);
        return 0;
    }
    if (argc == 2 && std::string(argv[1]) == "--list-violations") {
        for (const auto& [caseName, c] : violations()) {
            std::printf("%s\t%s\n", caseName.c_str(), c.api);
        }
        return 0;
    }
    if (argc != 2 || groups.count(argv[1]) == 0) {
        std::fprintf(stderr, "usage: %s GROUP | --violate CASE | --list-violations\n", name);
        return 2;
    }
    groups.at(argv[1])();
    std::printf("%d passed, %d failed\n", g_pass, g_fail);
    return g_fail == 0 ? 0 : 1;
}

}  // namespace selftest

#endif  // HSWC_SELFTEST_MAIN_H
