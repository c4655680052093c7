// hswc_host/log.h - the logging and check macros of ops-nn tilings (opbase op_common/log/log.h),
// printing to stderr as `hswc_tiling: E <node>: <message>` lines that hswc-check-kernel shows
// when a tiling fails.
#ifndef HSWC_HOST_LOG_H
#define HSWC_HOST_LOG_H

#include <cstdio>
#include <string>
#include <type_traits>

namespace hswc_host {
inline const char* NodeName(const char* name) { return name == nullptr ? "nil" : name; }
inline const char* NodeName(const std::string& name) { return name.c_str(); }
template <typename C>
inline auto NodeName(const C* context) -> decltype(context->GetNodeName())
{
    return context == nullptr ? "nil" : context->GetNodeName();
}

template <typename N, typename... Args>
inline void Log(char level, const N& node, const char* fmt, Args... args)
{
    std::fprintf(stderr, "hswc_tiling: %c %s: ", level, NodeName(node));
    if constexpr (sizeof...(Args) == 0) {
        std::fputs(fmt, stderr);
    } else {
        std::fprintf(stderr, fmt, args...);
    }
    std::fputc('\n', stderr);
}
template <typename N>
inline void Log(char level, const N& node) { Log(level, node, "(no message)"); }
}  // namespace hswc_host

#define OP_LOGE(opName, ...) ::hswc_host::Log('E', opName, ##__VA_ARGS__)
#define OP_LOGE_WITHOUT_REPORT(opName, ...) ::hswc_host::Log('E', opName, ##__VA_ARGS__)
#define OP_LOGW(opName, ...) ((void)(opName))
#define OP_LOGI(opName, ...) ((void)(opName))
#define OP_LOGD(opName, ...) ((void)(opName))
#define OP_LOGE_FOR_INVALID_DTYPE(opName, ...) ::hswc_host::Log('E', opName, "invalid dtype")
#define OP_LOGE_FOR_INVALID_SHAPE(opName, ...) ::hswc_host::Log('E', opName, "invalid shape")
#define OP_LOGE_FOR_INVALID_SHAPESIZE_WITH_REASON(opName, ...) ::hswc_host::Log('E', opName, "invalid shape size")
#define OP_LOGE_FOR_INVALID_SHAPEDIM_WITH_REASON(opName, ...) ::hswc_host::Log('E', opName, "invalid shape dim")
#define OP_LOGE_FOR_INVALID_VALUE_WITH_REASON(opName, ...) ::hswc_host::Log('E', opName, "invalid value")
#define OP_LOGE_FOR_INVALID_SHAPES_WITH_REASON(opName, ...) ::hswc_host::Log('E', opName, "invalid shapes")
#define OP_LOGE_FOR_INVALID_DTYPES_WITH_REASON(opName, ...) ::hswc_host::Log('E', opName, "invalid dtypes")
#define OP_LOGE_FOR_INVALID_DTYPE_WITH_REASON(opName, ...) ::hswc_host::Log('E', opName, "invalid dtype")
#define OP_LOGE_FOR_INVALID_FORMAT(opName, ...) ::hswc_host::Log('E', opName, "invalid format")
#define OP_LOGE_IF(condition, return_value, opName, ...) \
    do {                                                 \
        if (condition) {                                 \
            OP_LOGE(opName, __VA_ARGS__);                \
            return return_value;                         \
        }                                                \
    } while (0)
#define OP_CHECK_IF(condition, log, return_expr) \
    do {                                         \
        if (condition) {                         \
            log;                                 \
            return_expr;                         \
        }                                        \
    } while (0)
#define OP_CHECK_NULL_WITH_CONTEXT(context, ptr)          \
    do {                                                  \
        if ((ptr) == nullptr) {                           \
            OP_LOGE(context, "%s is nullptr!", #ptr);     \
            return ge::GRAPH_FAILED;                      \
        }                                                 \
    } while (0)
#define OP_TILING_CHECK(cond, log_func, expr) OP_CHECK_IF(cond, log_func, expr)
#define unlikely(x) __builtin_expect((x), 0)
#define likely(x) __builtin_expect((x), 1)

#endif  // HSWC_HOST_LOG_H
