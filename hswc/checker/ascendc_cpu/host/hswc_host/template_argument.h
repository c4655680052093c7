// hswc_host/template_argument.h - the host side of the tiling-key template arguments
// (asc-devkit's ascendc/host_api/tiling/template_argument.h): ASCENDC_TPL_ARGS_DECL declares the
// kernel's template parameters, ASCENDC_TPL_SEL_PARAM(context, v...) chooses one value for each.
//
// The model records the chosen values by name (hswc-check-kernel instantiates the kernel's entry
// template with them) and sets the tiling key as the documented encoding does: the parameters in
// declaration order, each in its bit width, a UINT parameter as the position of its value in the
// declared list (ASCENDC_TPL_UI_LIST, or ranges with ASCENDC_TPL_UI_RANGE / _MIX), the others as
// their value. ASCENDC_TPL_SEL (which combinations a device build compiles) is not needed.
#ifndef HSWC_HOST_TEMPLATE_ARGUMENT_H
#define HSWC_HOST_TEMPLATE_ARGUMENT_H

#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <string>
#include <vector>

#include "context.h"

#define ASCENDC_TPL_1_BW 1
#define ASCENDC_TPL_2_BW 2
#define ASCENDC_TPL_4_BW 4
#define ASCENDC_TPL_8_BW 8
#define ASCENDC_TPL_DTYPE 0
#define ASCENDC_TPL_FORMAT 1
#define ASCENDC_TPL_UINT 2
#define ASCENDC_TPL_BOOL 3
#define ASCENDC_TPL_UI_RANGE 0
#define ASCENDC_TPL_UI_LIST 1
#define ASCENDC_TPL_UI_MIX 2
#define ASCENDC_TPL_INPUT_BIAS 100000000
#define ASCENDC_TPL_OUTPUT_BIAS 900000000
#define ASCENDC_TPL_INPUT(x) (ASCENDC_TPL_INPUT_BIAS + (x))
#define ASCENDC_TPL_OUTPUT(x) (ASCENDC_TPL_OUTPUT_BIAS + (x))
#define ASCENDC_TPL_AIV_ONLY 0
#define ASCENDC_TPL_AIC_ONLY 1
#define ASCENDC_TPL_MIX_AIV_1_0 4
#define ASCENDC_TPL_MIX_AIC_1_0 5
#define ASCENDC_TPL_MIX_AIC_1_1 6
#define ASCENDC_TPL_MIX_AIC_1_2 7

namespace hswc_host {

struct TplParam {
    std::string name;
    int kind;
    unsigned bits;
    std::vector<uint64_t> values;  // a UINT parameter's admissible values, in order

    TplParam(const char* n, int k, unsigned b, std::vector<uint64_t> raw) : name(n), kind(k), bits(b)
    {
        if (kind != ASCENDC_TPL_UINT || raw.empty()) {
            values = raw;
            return;
        }
        const uint64_t how = raw[0];
        if (how == ASCENDC_TPL_UI_LIST) {
            values.assign(raw.begin() + 1, raw.end());
            return;
        }
        // RANGE / MIX: a count of ranges, then (low, high) pairs, then (MIX) single values.
        const size_t ranges = raw.size() > 1 ? raw[1] : 0;
        for (size_t r = 0; r < ranges && 3 + 2 * r < raw.size(); ++r) {
            for (uint64_t v = raw[2 + 2 * r]; v <= raw[3 + 2 * r]; ++v) {
                values.push_back(v);
            }
        }
        if (how == ASCENDC_TPL_UI_MIX) {
            values.insert(values.end(), raw.begin() + static_cast<std::ptrdiff_t>(2 + 2 * ranges), raw.end());
        }
    }
};

/// ASCENDC_TPL_SEL_PARAM: records the choice and sets the encoded key; a value outside a UINT
/// parameter's declared list is the tiling's error (key all ones, as on the device).
inline void SelectValues(gert::TilingContext* context, const std::vector<TplParam>& declared,
                         const std::vector<uint64_t>& chosen)
{
    uint64_t key = 0;
    unsigned shift = 0;
    size_t i = 0;
    context->templateChoice = gert::TemplateChoice();
    for (uint64_t v : chosen) {
        if (i >= declared.size()) {
            break;
        }
        const TplParam& p = declared[i++];
        uint64_t code = v;
        if (p.kind == ASCENDC_TPL_UINT) {
            size_t k = 0;
            while (k < p.values.size() && p.values[k] != v) {
                ++k;
            }
            if (k == p.values.size()) {
                std::fprintf(stderr, "hswc_tiling: E %s: ASCENDC_TPL_SEL_PARAM: %s = %llu is not declared\n",
                    context->GetNodeName(), p.name.c_str(), static_cast<unsigned long long>(v));
                key = ~uint64_t{0};
                shift = 64;
            }
            code = k;
        }
        if (shift < 64) {
            key |= code << shift;
            shift += p.bits;
        }
        context->templateChoice.names.push_back(p.name);
        context->templateChoice.values.push_back(v);
    }
    context->templateChosen = true;
    context->SetTilingKey(key);
}

/// The choices GET_TPL_TILING_KEY encoded during the run, by key: a tiling that computes the key
/// itself and passes it to SetTilingKey chose the template arguments of that key.
inline std::vector<std::pair<uint64_t, gert::TemplateChoice>>& EncodedChoices()
{
    static std::vector<std::pair<uint64_t, gert::TemplateChoice>> all;
    return all;
}

/// The values a GET_TPL_TILING_KEY / ASCENDC_TPL_SEL_PARAM lists, from a braced list as
/// asc-devkit's macros take them (`{__VA_ARGS__}`, include/utils/tiling/template_argument.h:287-288,
/// :324-325), so a trailing comma is allowed: opbase's GEN_REDUCE_TILING_KEY(result, key) passes one
/// (atvoss/reduce/reduce_tiling.h:488-491, its `__VA_ARGS__` empty).
struct Chosen {
    std::vector<uint64_t> values;
    template <typename... V>
    Chosen(V... chosen) : values{static_cast<uint64_t>(chosen)...} {}
};

inline uint64_t EncodeKey(const std::vector<TplParam>& declared, const Chosen& chosen)
{
    gert::TilingContext scratch;
    scratch.nodeName = "GET_TPL_TILING_KEY";
    SelectValues(&scratch, declared, chosen.values);
    EncodedChoices().emplace_back(scratch.tilingKey, scratch.templateChoice);
    return scratch.tilingKey;
}

inline void SelectTemplate(gert::TilingContext* context, const std::vector<TplParam>& declared, const Chosen& chosen)
{
    SelectValues(context, declared, chosen.values);
}

}  // namespace hswc_host

#define ASCENDC_TPL_DTYPE_DECL(x, ...) ::hswc_host::TplParam(#x, ASCENDC_TPL_DTYPE, 8, {__VA_ARGS__})
#define ASCENDC_TPL_DATATYPE_DECL(x, ...) ::hswc_host::TplParam(#x, ASCENDC_TPL_DTYPE, 8, {__VA_ARGS__})
#define ASCENDC_TPL_FORMAT_DECL(x, ...) ::hswc_host::TplParam(#x, ASCENDC_TPL_FORMAT, 8, {__VA_ARGS__})
#define ASCENDC_TPL_UINT_DECL(x, bw, ...) ::hswc_host::TplParam(#x, ASCENDC_TPL_UINT, bw, {__VA_ARGS__})
#define ASCENDC_TPL_BOOL_DECL(x, ...) ::hswc_host::TplParam(#x, ASCENDC_TPL_BOOL, 1, {__VA_ARGS__})
#define ASCENDC_TPL_KERNEL_TYPE_DECL(x, ...) ::hswc_host::TplParam(#x, 6, 8, {__VA_ARGS__})
#define ASCENDC_TPL_ARGS_DECL(op, ...) \
    static const std::vector<::hswc_host::TplParam> g_hswcTplDeclared{__VA_ARGS__}
#define ASCENDC_TPL_SEL(...) static_assert(true, "ASCENDC_TPL_SEL")
#define GET_TPL_TILING_KEY(...) ::hswc_host::EncodeKey(g_hswcTplDeclared, ::hswc_host::Chosen{__VA_ARGS__})
#define ASCENDC_TPL_SEL_PARAM(context, ...) \
    ::hswc_host::SelectTemplate(context, g_hswcTplDeclared, ::hswc_host::Chosen{__VA_ARGS__})

#endif  // HSWC_HOST_TEMPLATE_ARGUMENT_H
