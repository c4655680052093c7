// hswc_host/securec.h - the bounds-checked memory calls tilings use (libboundscheck's
// memset_s / memcpy_s): EOK on success; a count above destMax or a null pointer is refused
// (nonzero) and nothing is written.
#ifndef HSWC_HOST_SECUREC_H
#define HSWC_HOST_SECUREC_H

#include <cstddef>
#include <cstring>

#ifndef EOK
#define EOK 0
#endif
using errno_t = int;

inline errno_t memset_s(void* dest, size_t destMax, int c, size_t count)
{
    if (dest == nullptr || count > destMax) {
        return 34;  // ERANGE
    }
    std::memset(dest, c, count);
    return EOK;
}

inline errno_t memcpy_s(void* dest, size_t destMax, const void* src, size_t count)
{
    if (dest == nullptr || src == nullptr || count > destMax) {
        return 34;
    }
    std::memcpy(dest, src, count);
    return EOK;
}

#endif  // HSWC_HOST_SECUREC_H
