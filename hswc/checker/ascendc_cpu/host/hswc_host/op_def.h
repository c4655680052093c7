// hswc_host/op_def.h - the op definition (CPU model of register/op_def_registry.h's ops::OpDef):
// an op_host *_def.cpp compiled against it records its inputs, outputs and attributes (names,
// types, defaults, in order: a tiling reads attribute i of this list) and its per-SoC AICore
// configurations (the kernel file `opFile.value` names). tiling_harness.cpp --describe prints
// them.
#ifndef HSWC_HOST_OP_DEF_H
#define HSWC_HOST_OP_DEF_H

#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "types.h"

namespace ops {

enum Option { IGNORE = 0, OPTIONAL = 1, REQUIRED = 2, DYNAMIC = 3, VIRTUAL = 4 };
enum class FormatCheckOption { DEFAULT, STRICT };

class OpParamDef {
public:
    explicit OpParamDef(const char* name) : name(name) {}
    std::string name;
    Option option = REQUIRED;
    std::vector<ge::DataType> dtypes;

    OpParamDef& ParamType(Option o)
    {
        option = o;
        return *this;
    }
    OpParamDef& DataType(std::vector<ge::DataType> t)
    {
        dtypes = std::move(t);
        return *this;
    }
    OpParamDef& DataTypeList(std::vector<ge::DataType> t) { return DataType(std::move(t)); }
    OpParamDef& Format(std::vector<ge::Format>) { return *this; }
    OpParamDef& FormatList(std::vector<ge::Format>) { return *this; }
    OpParamDef& UnknownShapeFormat(std::vector<ge::Format>) { return *this; }
    OpParamDef& AutoContiguous() { return *this; }
    OpParamDef& IgnoreContiguous() { return *this; }
    template <typename... A>
    OpParamDef& ValueDepend(A...) { return *this; }
    OpParamDef& Scalar() { return *this; }
    OpParamDef& ScalarList() { return *this; }
    OpParamDef& To(const char*) { return *this; }
    OpParamDef& To(ge::DataType) { return *this; }
    OpParamDef& InitValue(uint64_t) { return *this; }
    OpParamDef& OutputShapeDependOnCompute() { return *this; }
};

class OpAttrDef {
public:
    explicit OpAttrDef(const char* name) : name(name) {}
    std::string name;
    std::string type = "none";
    std::string value;
    Option option = REQUIRED;

    OpAttrDef& AttrType(Option o)
    {
        option = o;
        return *this;
    }
    OpAttrDef& Float(float v)
    {
        char text[64];
        std::snprintf(text, sizeof text, "%.9g", static_cast<double>(v));
        return Set("float", text);
    }
    OpAttrDef& Float() { return Set("float", ""); }
    OpAttrDef& Int(int64_t v) { return Set("int", std::to_string(v)); }
    OpAttrDef& Int() { return Set("int", ""); }
    OpAttrDef& Bool(bool v) { return Set("bool", v ? "1" : "0"); }
    OpAttrDef& Bool() { return Set("bool", ""); }
    OpAttrDef& String(const char* v) { return Set("string", v); }
    OpAttrDef& String() { return Set("string", ""); }
    OpAttrDef& ListInt(std::vector<int64_t> v)
    {
        std::string text;
        for (int64_t x : v) {
            text += (text.empty() ? "" : ",") + std::to_string(x);
        }
        return Set("list_int", text);
    }
    OpAttrDef& ListInt() { return Set("list_int", ""); }
    OpAttrDef& ListFloat(std::vector<float>) { return Set("list_float", ""); }
    OpAttrDef& ListBool(std::vector<bool>) { return Set("list_bool", ""); }
    OpAttrDef& Version(uint32_t) { return *this; }
    OpAttrDef& Comment(const char*) { return *this; }

private:
    OpAttrDef& Set(const char* t, const std::string& v)
    {
        type = t;
        value = v;
        return *this;
    }
};

class OpAICoreConfig {
public:
    OpAICoreConfig() = default;
    explicit OpAICoreConfig(const char*) {}
    std::map<std::string, std::string> extend;
    std::vector<std::shared_ptr<OpParamDef>> inputs;
    std::vector<std::shared_ptr<OpParamDef>> outputs;

    OpAICoreConfig& DynamicCompileStaticFlag(bool) { return *this; }
    OpAICoreConfig& DynamicFormatFlag(bool) { return *this; }
    OpAICoreConfig& DynamicRankSupportFlag(bool) { return *this; }
    OpAICoreConfig& DynamicShapeSupportFlag(bool) { return *this; }
    OpAICoreConfig& NeedCheckSupportFlag(bool) { return *this; }
    OpAICoreConfig& PrecisionReduceFlag(bool) { return *this; }
    OpAICoreConfig& RangeLimitValue(const char*) { return *this; }
    OpAICoreConfig& ExtendCfgInfo(const char* key, const char* value)
    {
        extend[key] = value;
        return *this;
    }
    OpParamDef& Input(const char* name)
    {
        inputs.push_back(std::make_shared<OpParamDef>(name));
        return *inputs.back();
    }
    OpParamDef& Output(const char* name)
    {
        outputs.push_back(std::make_shared<OpParamDef>(name));
        return *outputs.back();
    }
};

class OpAICoreDef {
public:
    std::vector<std::pair<std::string, OpAICoreConfig>> configs;

    OpAICoreDef& AddConfig(const char* soc)
    {
        configs.emplace_back(soc, OpAICoreConfig());
        return *this;
    }
    OpAICoreDef& AddConfig(const char* soc, OpAICoreConfig& config)
    {
        configs.emplace_back(soc, config);
        return *this;
    }
    template <typename F>
    OpAICoreDef& SetTiling(F) { return *this; }
    template <typename F>
    OpAICoreDef& SetCheckSupport(F) { return *this; }
    template <typename F>
    OpAICoreDef& SetOpSelectFormat(F) { return *this; }
};

class OpAICPUDef {
public:
    template <typename... A>
    OpAICPUDef& AddConfig(A...) { return *this; }
};

class OpDef {
public:
    explicit OpDef(const char* name) : name(name) {}
    virtual ~OpDef() = default;
    std::string name;
    std::vector<std::shared_ptr<OpParamDef>> inputs;
    std::vector<std::shared_ptr<OpParamDef>> outputs;
    std::vector<std::shared_ptr<OpAttrDef>> attrs;
    OpAICoreDef aicore;
    OpAICPUDef aicpu;

    OpParamDef& Input(const char* n)
    {
        inputs.push_back(std::make_shared<OpParamDef>(n));
        return *inputs.back();
    }
    OpParamDef& Output(const char* n)
    {
        outputs.push_back(std::make_shared<OpParamDef>(n));
        return *outputs.back();
    }
    OpAttrDef& Attr(const char* n)
    {
        attrs.push_back(std::make_shared<OpAttrDef>(n));
        return *attrs.back();
    }
    OpAICoreDef& AICore() { return aicore; }
    OpAICPUDef& AICPU() { return aicpu; }
    template <typename F>
    OpDef& SetInferShape(F) { return *this; }
    template <typename F>
    OpDef& SetInferDataType(F) { return *this; }
    OpDef& EnableFallBack() { return *this; }
    OpDef& FormatMatchMode(FormatCheckOption) { return *this; }
};

}  // namespace ops

namespace hswc_host {
inline std::vector<std::shared_ptr<ops::OpDef>>& OpDefs()
{
    static std::vector<std::shared_ptr<ops::OpDef>> all;
    return all;
}
template <typename Op>
inline int AddOpDef(const char* name)
{
    OpDefs().push_back(std::make_shared<Op>(name));
    return 0;
}
}  // namespace hswc_host

#define OP_ADD(op, ...) static int g_hswcOpDef_##op = ::hswc_host::AddOpDef<ops::op>(#op)

#endif  // HSWC_HOST_OP_DEF_H
