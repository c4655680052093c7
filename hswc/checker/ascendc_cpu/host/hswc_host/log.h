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
// The error-report macro ops-nn's common/inc/error_util.h calls (CANN runtime's
// include/dfx/base/err_msg.h:66): the same one line, the error code in place of the node.
#define REPORT_INNER_ERR_MSG(errorCode, ...) ::hswc_host::Log('E', errorCode, ##__VA_ARGS__)
#define OP_LOGE_WITHOUT_REPORT(opName, ...) ::hswc_host::Log('E', opName, ##__VA_ARGS__)
// metadef's inner error report (include/dfx/base/err_msg.h:66): here one error line, the code as its node.
#define REPORT_INNER_ERR_MSG(errorCode, ...) ::hswc_host::Log('E', errorCode, ##__VA_ARGS__)
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
// The rest of opbase's OP_LOGE_FOR_* / OP_LOGE_WITH_* report macros: one line naming the kind.
#define OP_LOGE_FOR_FILE_OPEN(opName, ...) ::hswc_host::Log('E', opName, "file open")
#define OP_LOGE_FOR_FILE_PARSE(opName, ...) ::hswc_host::Log('E', opName, "file parse")
#define OP_LOGE_FOR_FILE_PATH(opName, ...) ::hswc_host::Log('E', opName, "file path")
#define OP_LOGE_FOR_INVALID_ARGUMENT_WITH_REASON(opName, ...) ::hswc_host::Log('E', opName, "invalid argument with reason")
#define OP_LOGE_FOR_INVALID_CONFIG(opName, ...) ::hswc_host::Log('E', opName, "invalid config")
#define OP_LOGE_FOR_INVALID_CONFIGS_WITH_REASON(opName, ...) ::hswc_host::Log('E', opName, "invalid configs with reason")
#define OP_LOGE_FOR_INVALID_CONFIG_WITH_REASON(opName, ...) ::hswc_host::Log('E', opName, "invalid config with reason")
#define OP_LOGE_FOR_INVALID_FORMATS_WITH_REASON(opName, ...) ::hswc_host::Log('E', opName, "invalid formats with reason")
#define OP_LOGE_FOR_INVALID_FORMAT_WITH_REASON(opName, ...) ::hswc_host::Log('E', opName, "invalid format with reason")
#define OP_LOGE_FOR_INVALID_GRAPH_NODE(opName, ...) ::hswc_host::Log('E', opName, "invalid graph node")
#define OP_LOGE_FOR_INVALID_LISTSIZE(opName, ...) ::hswc_host::Log('E', opName, "invalid listsize")
#define OP_LOGE_FOR_INVALID_LISTSIZE_WITH_REASON(opName, ...) ::hswc_host::Log('E', opName, "invalid listsize with reason")
#define OP_LOGE_FOR_INVALID_SHAPEDIM(opName, ...) ::hswc_host::Log('E', opName, "invalid shapedim")
#define OP_LOGE_FOR_INVALID_SHAPEDIMS_WITH_REASON(opName, ...) ::hswc_host::Log('E', opName, "invalid shapedims with reason")
#define OP_LOGE_FOR_INVALID_SHAPESIZE(opName, ...) ::hswc_host::Log('E', opName, "invalid shapesize")
#define OP_LOGE_FOR_INVALID_SHAPESIZES_WITH_REASON(opName, ...) ::hswc_host::Log('E', opName, "invalid shapesizes with reason")
#define OP_LOGE_FOR_INVALID_SHAPE_WITH_REASON(opName, ...) ::hswc_host::Log('E', opName, "invalid shape with reason")
#define OP_LOGE_FOR_INVALID_STRIDE(opName, ...) ::hswc_host::Log('E', opName, "invalid stride")
#define OP_LOGE_FOR_INVALID_TENSORNUM(opName, ...) ::hswc_host::Log('E', opName, "invalid tensornum")
#define OP_LOGE_FOR_INVALID_TENSORNUMS_WITH_REASON(opName, ...) ::hswc_host::Log('E', opName, "invalid tensornums with reason")
#define OP_LOGE_FOR_INVALID_VALUE(opName, ...) ::hswc_host::Log('E', opName, "invalid value")
#define OP_LOGE_FOR_INVALID_VALUES_WITH_REASON(opName, ...) ::hswc_host::Log('E', opName, "invalid values with reason")
#define OP_LOGE_WITH_INVALID_ATTR(opName, ...) ::hswc_host::Log('E', opName, "invalid attr")
#define OP_LOGE_WITH_INVALID_ATTR_SIZE(opName, ...) ::hswc_host::Log('E', opName, "invalid attr size")
#define OP_LOGE_WITH_INVALID_INPUT(opName, ...) ::hswc_host::Log('E', opName, "invalid input")
#define OP_LOGE_WITH_INVALID_INPUT_DTYPE(opName, ...) ::hswc_host::Log('E', opName, "invalid input dtype")
#define OP_LOGE_WITH_INVALID_INPUT_FORMAT(opName, ...) ::hswc_host::Log('E', opName, "invalid input format")
#define OP_LOGE_WITH_INVALID_INPUT_SHAPE(opName, ...) ::hswc_host::Log('E', opName, "invalid input shape")
#define OP_LOGE_WITH_INVALID_INPUT_SHAPESIZE(opName, ...) ::hswc_host::Log('E', opName, "invalid input shapesize")
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

// opbase's name helpers and the D_OP_LOG* macros ops-nn's common/inc/error_util.h logs through
// (OPS_LOG_E(desc, ...) = D_OP_LOGE(GetSafeStr(GetOpInfo(desc)), ...)).
namespace Ops::Base {
inline const char* GetSafeStr(const char* name) { return name == nullptr ? "nil" : name; }
inline const char* GetSafeStr(const std::string& name) { return name.c_str(); }
inline const char* GetOpInfo(const char* name) { return name == nullptr ? "nil" : name; }
inline const std::string& GetOpInfo(const std::string& name) { return name; }
template <typename C>
inline auto GetOpInfo(const C* context) -> decltype(std::string(context->GetNodeName()))
{
    return context == nullptr ? std::string("nil") : std::string(context->GetNodeName());
}
}  // namespace Ops::Base
#define D_OP_LOGE(opName, ...) ::hswc_host::Log('E', opName, ##__VA_ARGS__)
#define D_OP_LOGW(opName, ...) ((void)(opName))
#define D_OP_LOGI(opName, ...) ((void)(opName))
#define D_OP_LOGD(opName, ...) ((void)(opName))
#define unlikely(x) __builtin_expect((x), 0)
#define likely(x) __builtin_expect((x), 1)

#endif  // HSWC_HOST_LOG_H
