// hswc_host/types.h - the graph types an op_host tiling reads (CPU model of the tiling context).
//
// Written from the documented shape of CANN's ge:: and gert:: types (graph/types.h,
// exe_graph/runtime/shape.h, storage_shape.h, runtime_attrs.h, tiling_data.h): the subset
// ops-nn's elementwise tilings use. ge::DataType and ge::Format are metadef's whole enums
// (inc/external/graph/types.h and c_types.h: DT_FLOAT = 0, DT_BF16 = 27, DT_UINT1 = 30, ...,
// FORMAT_C1HWNCoC0 = 25, ...), with CANN's numbering, as tilings compare and store them.
#ifndef HSWC_HOST_TYPES_H
#define HSWC_HOST_TYPES_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <initializer_list>
#include <string>
#include <vector>

/// graph/c_types.h: the C spelling of the data types (what ASCENDC_TPL_DTYPE_DECL lists).
enum HswcCDataType {
    C_DT_FLOAT = 0, C_DT_FLOAT16 = 1, C_DT_INT8 = 2, C_DT_INT32 = 3,
    C_DT_UINT8 = 4, C_DT_INT16 = 6, C_DT_UINT16 = 7, C_DT_UINT32 = 8,
    C_DT_INT64 = 9, C_DT_UINT64 = 10, C_DT_DOUBLE = 11, C_DT_BOOL = 12,
    C_DT_STRING = 13, C_DT_DUAL_SUB_INT8 = 14, C_DT_DUAL_SUB_UINT8 = 15, C_DT_COMPLEX64 = 16,
    C_DT_COMPLEX128 = 17, C_DT_QINT8 = 18, C_DT_QINT16 = 19, C_DT_QINT32 = 20,
    C_DT_QUINT8 = 21, C_DT_QUINT16 = 22, C_DT_RESOURCE = 23, C_DT_STRING_REF = 24,
    C_DT_DUAL = 25, C_DT_VARIANT = 26, C_DT_BF16 = 27, C_DT_UNDEFINED = 28,
    C_DT_INT4 = 29, C_DT_UINT1 = 30, C_DT_INT2 = 31, C_DT_UINT2 = 32,
    C_DT_COMPLEX32 = 33, C_DT_HIFLOAT8 = 34, C_DT_FLOAT8_E5M2 = 35, C_DT_FLOAT8_E4M3FN = 36,
    C_DT_FLOAT8_E8M0 = 37, C_DT_FLOAT6_E3M2 = 38, C_DT_FLOAT6_E2M3 = 39, C_DT_FLOAT4_E2M1 = 40,
    C_DT_FLOAT4_E1M2 = 41, C_DT_HIFLOAT4 = 42, C_DT_MAX = 43,
};

namespace ge {
using char_t = char;  // graph/types.h
using graphStatus = uint32_t;
constexpr graphStatus GRAPH_SUCCESS = 0;
constexpr graphStatus GRAPH_FAILED = 0xFFFFFFFF;
constexpr graphStatus GRAPH_PARAM_INVALID = 50331649;
constexpr graphStatus GRAPH_NULL_PTR = 50331538;  // metadef graph/error_codes.h

/// graph/types.h's DataType, whole (metadef's numbering, C_DT_* of graph/c_types.h).
enum DataType {
    DT_FLOAT = 0, DT_FLOAT16 = 1, DT_INT8 = 2, DT_INT32 = 3,
    DT_UINT8 = 4, DT_INT16 = 6, DT_UINT16 = 7, DT_UINT32 = 8,
    DT_INT64 = 9, DT_UINT64 = 10, DT_DOUBLE = 11, DT_BOOL = 12,
    DT_STRING = 13, DT_DUAL_SUB_INT8 = 14, DT_DUAL_SUB_UINT8 = 15, DT_COMPLEX64 = 16,
    DT_COMPLEX128 = 17, DT_QINT8 = 18, DT_QINT16 = 19, DT_QINT32 = 20,
    DT_QUINT8 = 21, DT_QUINT16 = 22, DT_RESOURCE = 23, DT_STRING_REF = 24,
    DT_DUAL = 25, DT_VARIANT = 26, DT_BF16 = 27, DT_UNDEFINED = 28,
    DT_INT4 = 29, DT_UINT1 = 30, DT_INT2 = 31, DT_UINT2 = 32,
    DT_COMPLEX32 = 33, DT_HIFLOAT8 = 34, DT_FLOAT8_E5M2 = 35, DT_FLOAT8_E4M3FN = 36,
    DT_FLOAT8_E8M0 = 37, DT_FLOAT6_E3M2 = 38, DT_FLOAT6_E2M3 = 39, DT_FLOAT4_E2M1 = 40,
    DT_FLOAT4_E1M2 = 41, DT_HIFLOAT4 = 42, DT_MAX = 43,
};

/// graph/types.h's Format, whole (metadef's numbering, C_FORMAT_* of graph/c_types.h).
enum Format {
    FORMAT_NCHW = 0, FORMAT_NHWC = 1, FORMAT_ND = 2,
    FORMAT_NC1HWC0 = 3, FORMAT_FRACTAL_Z = 4, FORMAT_NC1C0HWPAD = 5,
    FORMAT_NHWC1C0 = 6, FORMAT_FSR_NCHW = 7, FORMAT_FRACTAL_DECONV = 8,
    FORMAT_C1HWNC0 = 9, FORMAT_FRACTAL_DECONV_TRANSPOSE = 10, FORMAT_FRACTAL_DECONV_SP_STRIDE_TRANS = 11,
    FORMAT_NC1HWC0_C04 = 12, FORMAT_FRACTAL_Z_C04 = 13, FORMAT_CHWN = 14,
    FORMAT_FRACTAL_DECONV_SP_STRIDE8_TRANS = 15, FORMAT_HWCN = 16, FORMAT_NC1KHKWHWC0 = 17,
    FORMAT_BN_WEIGHT = 18, FORMAT_FILTER_HWCK = 19, FORMAT_HASHTABLE_LOOKUP_LOOKUPS = 20,
    FORMAT_HASHTABLE_LOOKUP_KEYS = 21, FORMAT_HASHTABLE_LOOKUP_VALUE = 22, FORMAT_HASHTABLE_LOOKUP_OUTPUT = 23,
    FORMAT_HASHTABLE_LOOKUP_HITS = 24, FORMAT_C1HWNCoC0 = 25, FORMAT_MD = 26,
    FORMAT_NDHWC = 27, FORMAT_FRACTAL_ZZ = 28, FORMAT_FRACTAL_NZ = 29,
    FORMAT_NCDHW = 30, FORMAT_DHWCN = 31, FORMAT_NDC1HWC0 = 32,
    FORMAT_FRACTAL_Z_3D = 33, FORMAT_CN = 34, FORMAT_NC = 35,
    FORMAT_DHWNC = 36, FORMAT_FRACTAL_Z_3D_TRANSPOSE = 37, FORMAT_FRACTAL_ZN_LSTM = 38,
    FORMAT_FRACTAL_Z_G = 39, FORMAT_RESERVED = 40, FORMAT_ALL = 41,
    FORMAT_NULL = 42, FORMAT_ND_RNN_BIAS = 43, FORMAT_FRACTAL_ZN_RNN = 44,
    FORMAT_NYUV = 45, FORMAT_NYUV_A = 46, FORMAT_NCL = 47,
    FORMAT_FRACTAL_Z_WINO = 48, FORMAT_C1HWC0 = 49, FORMAT_FRACTAL_NZ_C0_16 = 50,
    FORMAT_FRACTAL_NZ_C0_32 = 51, FORMAT_FRACTAL_NZ_C0_2 = 52, FORMAT_FRACTAL_NZ_C0_4 = 53,
    FORMAT_FRACTAL_NZ_C0_8 = 54, FORMAT_END = 55, FORMAT_MAX = 0xff,
};

inline int GetPrimaryFormat(int format) { return format & 0xff; }

/// Bytes of one element (0 for types of less than a byte or none).
inline int GetSizeByDataType(DataType t)
{
    switch (t) {
        case DT_FLOAT: case DT_INT32: case DT_UINT32: return 4;
        case DT_FLOAT16: case DT_BF16: case DT_INT16: case DT_UINT16: return 2;
        case DT_INT8: case DT_UINT8: case DT_BOOL: case DT_HIFLOAT8: case DT_FLOAT8_E5M2:
        case DT_FLOAT8_E4M3FN: return 1;
        case DT_INT64: case DT_UINT64: case DT_DOUBLE: case DT_COMPLEX64: return 8;
        case DT_COMPLEX128: return 16;
        default: return -1;
    }
}

/// Bits of one element of a type of less than a byte (metadef's kDataTypeSizeBitOffset + bits
/// entries: DT_UINT1 1, DT_INT2/DT_UINT2 2, DT_INT4 and the 4-bit floats 4, the 6-bit floats 6),
/// else 0.
inline int SubByteBits(DataType t)
{
    switch (t) {
        case DT_UINT1: return 1;
        case DT_INT2: case DT_UINT2: return 2;
        case DT_INT4: case DT_FLOAT4_E2M1: case DT_FLOAT4_E1M2: case DT_HIFLOAT4: return 4;
        case DT_FLOAT6_E3M2: case DT_FLOAT6_E2M3: return 6;
        default: return 0;
    }
}

/// Bytes of `count` elements, as metadef's GetSizeInBytes (base/type/types_impl.cc): a type of
/// less than a byte packs its bits, ceil(count * bits / 8); -1 for a negative count or a type of
/// no size.
inline int64_t GetSizeInBytes(int64_t count, DataType t)
{
    if (count < 0) {
        return -1;
    }
    if (const int bits = SubByteBits(t); bits > 0) {
        return (count * bits + 7) / 8;
    }
    const int size = GetSizeByDataType(t);
    return size < 0 ? -1 : count * size;
}

class TypeUtils {
public:
    static std::string DataTypeToSerialString(DataType t)
    {
        switch (t) {
            case DT_FLOAT: return "DT_FLOAT";
            case DT_FLOAT16: return "DT_FLOAT16";
            case DT_BF16: return "DT_BF16";
            case DT_INT32: return "DT_INT32";
            case DT_INT64: return "DT_INT64";
            case DT_INT8: return "DT_INT8";
            case DT_UINT8: return "DT_UINT8";
            case DT_BOOL: return "DT_BOOL";
            default: return "DT_" + std::to_string(static_cast<int>(t));
        }
    }
    static bool GetDataTypeLength(DataType t, uint32_t& length)
    {
        const int n = GetSizeByDataType(t);
        if (n <= 0) {
            return false;
        }
        length = static_cast<uint32_t>(n);
        return true;
    }
    static std::string FormatToSerialString(Format f) { return "FORMAT_" + std::to_string(static_cast<int>(f)); }
};
}  // namespace ge

namespace gert {

/// A tensor shape: up to kMaxDimNum dimensions; a shape of no dimensions is a scalar of 1 element.
class Shape {
public:
    static constexpr size_t kMaxDimNum = 25;
    Shape() = default;
    Shape(std::initializer_list<int64_t> dims) : dims_(dims) {}
    size_t GetDimNum() const { return dims_.size(); }
    int64_t GetDim(size_t i) const { return i < dims_.size() ? dims_[i] : 0; }
    int64_t operator[](size_t i) const { return GetDim(i); }
    void SetDimNum(size_t n) { dims_.resize(n, 0); }
    Shape& SetDim(size_t i, int64_t v)
    {
        if (i < dims_.size()) {
            dims_[i] = v;
        }
        return *this;
    }
    Shape& AppendDim(int64_t v)
    {
        dims_.push_back(v);
        return *this;
    }
    bool IsScalar() const { return dims_.empty(); }
    void SetScalar() { dims_.clear(); }
    int64_t GetShapeSize() const
    {
        int64_t n = 1;
        for (int64_t d : dims_) {
            if (d < 0) {
                return -1;
            }
            n *= d;
        }
        return n;
    }
    bool operator==(const Shape& o) const { return dims_ == o.dims_; }
    bool operator!=(const Shape& o) const { return !(*this == o); }

private:
    std::vector<int64_t> dims_;
};

/// The origin and storage shapes of one input or output (the same for ND tensors).
class StorageShape {
public:
    StorageShape() = default;
    StorageShape(const Shape& origin, const Shape& storage) : origin_(origin), storage_(storage) {}
    const Shape& GetOriginShape() const { return origin_; }
    const Shape& GetStorageShape() const { return storage_; }
    /// The view shape of a non-contiguous input: the model's tensors are contiguous, so the
    /// storage shape.
    const Shape& GetShape() const { return storage_; }
    Shape& MutableOriginShape() { return origin_; }
    Shape& MutableStorageShape() { return storage_; }

private:
    Shape origin_;
    Shape storage_;
};

/// A tensor view's strides (metadef exe_graph/runtime/stride.h), up to kMaxDimNum dims.
class Stride {
public:
    static constexpr size_t kMaxDimNum = 25;
    Stride() = default;
    Stride(const std::initializer_list<int64_t>& args)
    {
        for (int64_t v : args) {
            AppendStride(v);
        }
    }
    bool operator==(const Stride& o) const
    {
        return dimNum_ == o.dimNum_ && std::equal(strides_, strides_ + dimNum_, o.strides_);
    }
    bool operator!=(const Stride& o) const { return !(*this == o); }
    size_t GetDimNum() const { return dimNum_; }
    void SetDimNum(size_t n) { dimNum_ = n < kMaxDimNum ? n : kMaxDimNum; }
    int64_t GetStride(size_t i) const { return i < kMaxDimNum ? strides_[i] : 0; }
    const int64_t& operator[](size_t i) const { return strides_[i]; }
    int64_t& operator[](size_t i) { return strides_[i]; }
    void SetStride(size_t i, int64_t v)
    {
        if (i < kMaxDimNum) {
            strides_[i] = v;
        }
    }
    Stride& AppendStride(int64_t v)
    {
        if (dimNum_ < kMaxDimNum) {
            strides_[dimNum_++] = v;
        }
        return *this;
    }

private:
    size_t dimNum_ = 0;
    int64_t strides_[kMaxDimNum] = {};
};

class StorageFormat {
public:
    explicit StorageFormat(ge::Format f = ge::FORMAT_ND) : format_(f) {}
    ge::Format GetOriginFormat() const { return format_; }
    ge::Format GetStorageFormat() const { return format_; }

private:
    ge::Format format_;
};

/// What a tiling knows of an input or output before it runs: its element type and format.
class CompileTimeTensorDesc {
public:
    CompileTimeTensorDesc() = default;
    explicit CompileTimeTensorDesc(ge::DataType t) : dtype_(t) {}
    ge::DataType GetDataType() const { return dtype_; }
    void SetDataType(ge::DataType t) { dtype_ = t; }
    ge::Format GetOriginFormat() const { return ge::FORMAT_ND; }
    ge::Format GetStorageFormat() const { return ge::FORMAT_ND; }
    StorageFormat GetFormat() const { return StorageFormat(ge::FORMAT_ND); }

private:
    ge::DataType dtype_ = ge::DT_UNDEFINED;
};

/// exe_graph's TypedContinuousVector as an attribute's list reads it: GetSize, GetData.
template <typename T>
class TypedContinuousVector {
public:
    explicit TypedContinuousVector(const std::vector<T>& values) : values_(values) {}
    size_t GetSize() const { return values_.size(); }
    const T* GetData() const { return values_.data(); }

private:
    std::vector<T> values_;
};

/// The attributes of the node, by position in the op definition; the model records which ones
/// the tiling read (hswc-check-kernel refuses an --attr the tiling never reads).
class RuntimeAttrs {
public:
    enum class Kind { kFloat, kInt, kBool, kString, kListInt, kNone };
    struct Value {
        Kind kind = Kind::kNone;
        float f = 0;
        int64_t i = 0;
        bool b = false;
        std::string s;
        std::vector<int64_t> list;
    };

    void Add(const Value& v)
    {
        values_.push_back(v);
        read_.push_back(false);
        lists_.emplace_back(v.list);
    }
    size_t GetAttrNum() const { return values_.size(); }
    bool WasRead(size_t i) const { return i < read_.size() && read_[i]; }

    template <typename T>
    const T* GetAttrPointer(size_t i) const
    {
        const Value* v = At(i);
        if (v == nullptr) {
            return nullptr;
        }
        if constexpr (std::is_same<T, float>::value) {
            return v->kind == Kind::kFloat ? &v->f : nullptr;
        } else if constexpr (std::is_same<T, bool>::value) {
            return v->kind == Kind::kBool ? &v->b : nullptr;
        } else if constexpr (std::is_same<T, int64_t>::value) {
            return v->kind == Kind::kInt ? &v->i : nullptr;
        } else if constexpr (std::is_same<T, int32_t>::value) {
            // metadef's GetAttrPointer reinterprets the stored value's address as T*
            // (exe_graph/runtime/runtime_attrs.h): an Int attribute (int64_t) read through
            // int32_t* is its low half on a little-endian host (GeluQuant's arch35 dst_type).
            return v->kind == Kind::kInt ? reinterpret_cast<const int32_t*>(&v->i) : nullptr;
        } else if constexpr (std::is_same<T, char>::value) {
            return v->kind == Kind::kString ? v->s.c_str() : nullptr;
        } else {
            return nullptr;
        }
    }
    const float* GetFloat(size_t i) const { return GetAttrPointer<float>(i); }
    const int64_t* GetInt(size_t i) const { return GetAttrPointer<int64_t>(i); }
    const bool* GetBool(size_t i) const { return GetAttrPointer<bool>(i); }
    const char* GetStr(size_t i) const { return GetAttrPointer<char>(i); }
    const TypedContinuousVector<int64_t>* GetListInt(size_t i) const
    {
        const Value* v = At(i);
        return v != nullptr && v->kind == Kind::kListInt ? &lists_[i] : nullptr;
    }

private:
    const Value* At(size_t i) const
    {
        if (i >= values_.size()) {
            return nullptr;
        }
        read_[i] = true;
        return &values_[i];
    }
    std::vector<Value> values_;
    std::vector<TypedContinuousVector<int64_t>> lists_;
    mutable std::vector<bool> read_;
};

/// The raw tiling data buffer the kernel receives.
class TilingData {
public:
    explicit TilingData(size_t capacity) : bytes_(capacity, 0) {}
    void* GetData() { return bytes_.data(); }
    const void* GetData() const { return bytes_.data(); }
    size_t GetCapacity() const { return bytes_.size(); }
    size_t GetDataSize() const { return size_; }
    void SetDataSize(size_t n) { size_ = n; }
    /// Appends `data`'s bytes after the data so far; fails past the capacity (metadef's
    /// inc/external/exe_graph/runtime/tiling_data.h:103-131, Append and Expand).
    template <typename T, typename std::enable_if<std::is_standard_layout<T>::value, int>::type = 0>
    ge::graphStatus Append(const T& data)
    {
        return Append(&data, 1);
    }
    template <typename T, typename std::enable_if<std::is_standard_layout<T>::value, int>::type = 0>
    ge::graphStatus Append(const T* data, size_t count)
    {
        const size_t n = sizeof(T) * count;
        if (n > bytes_.size() - size_) {
            return ge::GRAPH_FAILED;
        }
        std::memcpy(bytes_.data() + size_, static_cast<const void*>(data), n);
        size_ += n;
        return ge::GRAPH_SUCCESS;
    }

private:
    std::vector<uint8_t> bytes_;
    size_t size_ = 0;
};

}  // namespace gert

#endif  // HSWC_HOST_TYPES_H
