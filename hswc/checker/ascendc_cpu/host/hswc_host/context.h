// hswc_host/context.h - the tiling context (CPU model of gert::TilingContext and
// gert::TilingParseContext) and the registry IMPL_OP_OPTILING fills.
//
// Written from the documented shape of metadef's exe_graph/runtime/tiling_context.h and
// register/op_impl_registry.h: a tiling reads input/output shapes and descs, the attributes and
// the platform, and writes the block dim, the tiling key (or template arguments, see
// template_argument.h), the raw tiling data and the workspace sizes. tiling_harness.cpp fills
// one context per run and prints what the tiling wrote.
#ifndef HSWC_HOST_CONTEXT_H
#define HSWC_HOST_CONTEXT_H

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "platform.h"
#include "types.h"

namespace gert {

class TilingContext;
class TilingParseContext;

/// One input or output of the node.
struct TensorInfo {
    StorageShape shape;
    CompileTimeTensorDesc desc;
};

/// A runtime tensor as a tiling sees it (metadef's exe_graph/runtime/runtime_tensor.h): shape,
/// element type and format; its data address is null, as metadef's is for an input the op does
/// not declare a tiling data dependency on (the model declares none).
class Tensor {
public:
    Tensor() = default;
    Tensor(const StorageShape& shape, ge::DataType dtype) : shape_(shape), dtype_(dtype) {}
    const Shape& GetStorageShape() const { return shape_.GetStorageShape(); }
    const Shape& GetOriginShape() const { return shape_.GetOriginShape(); }
    const StorageShape& GetShape() const { return shape_; }
    int64_t GetShapeSize() const { return shape_.GetStorageShape().GetShapeSize(); }
    ge::DataType GetDataType() const { return dtype_; }
    ge::Format GetStorageFormat() const { return ge::FORMAT_ND; }
    ge::Format GetOriginFormat() const { return ge::FORMAT_ND; }
    StorageFormat GetFormat() const { return StorageFormat(ge::FORMAT_ND); }
    template <typename T>
    const T* GetData() const { return nullptr; }
    const void* GetAddr() const { return nullptr; }
    size_t GetSize() const { return 0; }

private:
    StorageShape shape_;
    ge::DataType dtype_ = ge::DT_UNDEFINED;
};

/// What the tiling chose through ASCENDC_TPL_SEL_PARAM: the template arguments by name.
struct TemplateChoice {
    std::vector<std::string> names;
    std::vector<uint64_t> values;
};

/// The node's identity and arity (exe_graph/runtime/compute_node_info.h).
class ComputeNodeInfo {
public:
    ComputeNodeInfo(const std::string* name, const std::string* type, size_t inputs, size_t outputs,
                    size_t irInputs)
        : name_(name), type_(type), inputs_(inputs), outputs_(outputs), irInputs_(irInputs) {}
    const char* GetNodeName() const { return name_->c_str(); }
    const char* GetNodeType() const { return type_->c_str(); }
    /// The inputs the node has (an absent optional input is not one of them).
    size_t GetInputsNum() const { return inputs_; }
    size_t GetOutputsNum() const { return outputs_; }
    /// The inputs of the op's IR definition, present or not.
    size_t GetIrInputsNum() const { return irInputs_; }
    size_t GetIrOutputsNum() const { return outputs_; }

private:
    const std::string* name_;
    const std::string* type_;
    size_t inputs_;
    size_t outputs_;
    size_t irInputs_;
};

class TilingContext {
public:
    static constexpr size_t kTilingCapacity = 64 * 1024;

    TilingContext() : tiling_(kTilingCapacity) {}

    // What the harness fills in.
    std::string nodeName = "node";
    std::string nodeType = "Op";
    /// The node's inputs, present ones only (what GetInputShape(i) and GetInputDesc(i) index, as
    /// metadef's instance indices do).
    std::vector<TensorInfo> inputs;
    /// For each input of the IR definition, its index in `inputs`, or -1 for an optional input
    /// the node does not have (GetOptionalInputShape/Desc(ir) then return null, as metadef's
    /// do for an IR input with no instance). Empty: every IR input is present, in order.
    std::vector<int> irInputs;
    std::vector<TensorInfo> outputs;
    RuntimeAttrs attrs;
    fe::PlatFormInfos platform;
    const void* compileInfo = nullptr;

    // What the tiling writes.
    uint32_t blockDim = 0;
    bool blockDimSet = false;
    uint64_t tilingKey = 0;
    uint32_t scheduleMode = 0;
    bool needAtomic = false;
    std::vector<size_t> workspace;
    TemplateChoice templateChoice;
    bool templateChosen = false;

    const char* GetNodeName() const { return nodeName.c_str(); }
    const char* GetNodeType() const { return nodeType.c_str(); }
    size_t GetComputeNodeInputNum() const { return inputs.size(); }
    const ComputeNodeInfo* GetComputeNodeInfo() const
    {
        node_ = std::make_unique<ComputeNodeInfo>(&nodeName, &nodeType, inputs.size(), outputs.size(),
                                                  irInputs.empty() ? inputs.size() : irInputs.size());
        return node_.get();
    }
    size_t GetComputeNodeOutputNum() const { return outputs.size(); }

    const StorageShape* GetInputShape(size_t i) const { return i < inputs.size() ? &inputs[i].shape : nullptr; }
    const StorageShape* GetOptionalInputShape(size_t ir) const
    {
        const int k = Instance(ir);
        return k < 0 ? nullptr : GetInputShape(static_cast<size_t>(k));
    }
    const StorageShape* GetRequiredInputShape(size_t ir) const { return GetOptionalInputShape(ir); }
    const Tensor* GetInputTensor(size_t i) const
    {
        if (i >= inputs.size()) {
            return nullptr;
        }
        if (tensors_.size() < inputs.size()) {
            tensors_.resize(inputs.size());
        }
        tensors_[i] = std::make_unique<Tensor>(inputs[i].shape, inputs[i].desc.GetDataType());
        return tensors_[i].get();
    }
    const Tensor* GetOptionalInputTensor(size_t ir) const
    {
        const int k = Instance(ir);
        return k < 0 ? nullptr : GetInputTensor(static_cast<size_t>(k));
    }
    const Tensor* GetRequiredInputTensor(size_t ir) const { return GetOptionalInputTensor(ir); }
    const StorageShape* GetOutputShape(size_t i) const { return i < outputs.size() ? &outputs[i].shape : nullptr; }
    const CompileTimeTensorDesc* GetInputDesc(size_t i) const { return i < inputs.size() ? &inputs[i].desc : nullptr; }
    const CompileTimeTensorDesc* GetOptionalInputDesc(size_t ir) const
    {
        const int k = Instance(ir);
        return k < 0 ? nullptr : GetInputDesc(static_cast<size_t>(k));
    }
    const CompileTimeTensorDesc* GetRequiredInputDesc(size_t ir) const { return GetOptionalInputDesc(ir); }
    const CompileTimeTensorDesc* GetOutputDesc(size_t i) const
    {
        return i < outputs.size() ? &outputs[i].desc : nullptr;
    }
    const RuntimeAttrs* GetAttrs() const { return &attrs; }
    fe::PlatFormInfos* GetPlatformInfo() const { return const_cast<fe::PlatFormInfos*>(&platform); }
    template <typename T>
    const T* GetCompileInfo() const { return static_cast<const T*>(compileInfo); }
    const void* GetCompileInfo() const { return compileInfo; }
    /// Views: the model's inputs are contiguous tensors, never views (metadef: false and null).
    bool InputIsView(size_t) const { return false; }
    const Stride* GetInputStride(size_t) const { return nullptr; }

    ge::graphStatus SetBlockDim(uint32_t n)
    {
        blockDim = n;
        blockDimSet = true;
        return ge::GRAPH_SUCCESS;
    }
    uint32_t GetBlockDim() const { return blockDim; }
    ge::graphStatus SetTilingKey(uint64_t k)
    {
        tilingKey = k;
        return ge::GRAPH_SUCCESS;
    }
    uint64_t GetTilingKey() const { return tilingKey; }
    ge::graphStatus SetScheduleMode(uint32_t m)
    {
        scheduleMode = m;
        return ge::GRAPH_SUCCESS;
    }
    ge::graphStatus SetNeedAtomic(bool a)
    {
        needAtomic = a;
        return ge::GRAPH_SUCCESS;
    }
    ge::graphStatus SetLocalMemorySize(uint32_t) { return ge::GRAPH_SUCCESS; }
    /// Deterministic computation (metadef tiling_context.h: the framework's value after the
    /// platform and tiling-function inputs): off, 0, and its level 0, the framework's defaults
    /// when the user sets no deterministic option (assumed); level 3 would ask SoftmaxV2's
    /// tiling for batch invariance.
    int32_t GetDeterministic() const { return 0; }
    int32_t GetDeterministicLevel() const { return 0; }

    size_t* GetWorkspaceSizes(size_t n)
    {
        if (workspace.size() < n) {
            workspace.resize(n, 0);
        }
        return workspace.data();
    }
    size_t GetWorkspaceNum() const { return workspace.size(); }

    TilingData* GetRawTilingData() { return &tiling_; }
    const TilingData* GetRawTilingData() const { return &tiling_; }
    template <typename T>
    T* GetTilingData()
    {
        if (tiling_.GetCapacity() < sizeof(T)) {
            return nullptr;
        }
        tiling_.SetDataSize(sizeof(T));
        return static_cast<T*>(tiling_.GetData());
    }

private:
    /// The instance index of IR input `ir`, -1 when it is absent or out of range.
    int Instance(size_t ir) const
    {
        if (irInputs.empty()) {
            return ir < inputs.size() ? static_cast<int>(ir) : -1;
        }
        return ir < irInputs.size() ? irInputs[ir] : -1;
    }

    TilingData tiling_;
    mutable std::unique_ptr<ComputeNodeInfo> node_;
    mutable std::vector<std::unique_ptr<Tensor>> tensors_;
};

class TilingParseContext {
public:
    std::string nodeName = "node";
    fe::PlatFormInfos* platform = nullptr;
    void* compileInfo = nullptr;

    const char* GetNodeName() const { return nodeName.c_str(); }
    fe::PlatFormInfos* GetPlatformInfo() const { return platform; }
    template <typename T>
    T* GetCompiledInfo() const { return static_cast<T*>(compileInfo); }
    const char* GetCompiledJson() const { return "{}"; }
};

using TilingFunc = ge::graphStatus (*)(TilingContext*);
using TilingParseFunc = ge::graphStatus (*)(TilingParseContext*);

}  // namespace gert

namespace hswc_host {

/// One op's tiling as IMPL_OP_OPTILING registered it.
struct TilingEntry {
    gert::TilingFunc tiling = nullptr;
    gert::TilingParseFunc parse = nullptr;
    std::function<std::shared_ptr<void>()> makeCompileInfo;
};

inline std::map<std::string, TilingEntry>& Tilings()
{
    static std::map<std::string, TilingEntry> all;
    return all;
}

class TilingRegistration {
public:
    explicit TilingRegistration(const char* op) : op_(op) { Tilings()[op_]; }
    TilingRegistration& Tiling(gert::TilingFunc f)
    {
        Tilings()[op_].tiling = f;
        return *this;
    }
    template <typename CompileInfo>
    TilingRegistration& TilingParse(gert::TilingParseFunc f)
    {
        TilingEntry& e = Tilings()[op_];
        e.parse = f;
        e.makeCompileInfo = [] { return std::shared_ptr<void>(std::make_shared<CompileInfo>()); };
        return *this;
    }
    template <typename... Args>
    TilingRegistration& TilingInputsDataDependency(Args...) { return *this; }
    template <typename... Args>
    TilingRegistration& InputsDataDependency(Args...) { return *this; }

private:
    std::string op_;
};

inline TilingRegistration& RegisterTiling(const char* op)
{
    static std::vector<std::unique_ptr<TilingRegistration>> kept;
    kept.push_back(std::make_unique<TilingRegistration>(op));
    return *kept.back();
}

}  // namespace hswc_host

#define HSWC_HOST_CONCAT_(a, b) a##b
#define HSWC_HOST_CONCAT(a, b) HSWC_HOST_CONCAT_(a, b)
#define IMPL_OP_OPTILING(op) \
    static ::hswc_host::TilingRegistration& HSWC_HOST_CONCAT(g_hswcTiling_##op##_, __COUNTER__) = \
        ::hswc_host::RegisterTiling(#op)
#define IMPL_OP(op) IMPL_OP_OPTILING(op)

#endif  // HSWC_HOST_CONTEXT_H
