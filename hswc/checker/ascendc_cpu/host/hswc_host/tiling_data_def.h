// hswc_host/tiling_data_def.h - register/tilingdata_base.h's tiling-data classes
// (BEGIN_TILING_DATA_DEF / TILING_DATA_FIELD_DEF / TILING_DATA_FIELD_DEF_ARR /
// TILING_DATA_FIELD_DEF_STRUCT / END_TILING_DATA_DEF / REGISTER_TILING_DATA_CLASS): a class of
// the named fields with set_X/get_X and SaveToBuffer as the documented API has them. The bytes
// are metadef's layout (base/asc/tilingdata_base_impl.cc): fields packed in declaration order,
// each at a multiple of its element size (CheckAlignAndGenPlaceHolder), an array as arr_size
// elements, a nested tiling-data class at a multiple of 8, and the whole padded to a multiple of
// 8; here the C++ layout of the members gives the same, the class being alignas(8).
//
// Each class also records its fields (type as written, name, element count, offset, size:
// TilingClasses()), and REGISTER_TILING_DATA_CLASS(op, class) which class an op type's tiling
// data is (TilingClassOfOp()): what CANN's kernel build generates the kernel's tiling struct
// from (ops-nn's tests/ut/op_kernel/scripts/gen_tiling_head_file.py through tiling_help), and
// what tiling_harness.cpp --tiling-header prints as that struct.
#ifndef HSWC_HOST_TILING_DATA_DEF_H
#define HSWC_HOST_TILING_DATA_DEF_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <type_traits>
#include <vector>

namespace hswc_host {

/// How a field's value is printed (tiling_harness.cpp --fields-of): a scalar of one of these
/// kinds, or an array/nested class (not printed).
enum class TilingFieldKind { kSigned, kUnsigned, kFloat, kBool, kArray, kStruct };

struct TilingFieldInfo {
    std::string type;  ///< the element type as the definition spells it
    std::string name;
    size_t count = 0;  ///< array elements (0: a scalar or a nested class)
    size_t offset = 0;
    size_t size = 0;   ///< bytes of the whole field
    TilingFieldKind kind = TilingFieldKind::kSigned;
};

struct TilingClassInfo {
    std::string name;
    size_t size = 0;
    std::vector<TilingFieldInfo> fields;  ///< in order of offset once complete (Sorted)

    std::vector<TilingFieldInfo> Sorted() const
    {
        std::vector<TilingFieldInfo> out = fields;
        std::stable_sort(out.begin(), out.end(),
                         [](const TilingFieldInfo& a, const TilingFieldInfo& b) { return a.offset < b.offset; });
        return out;
    }
};

inline std::map<std::string, TilingClassInfo>& TilingClasses()
{
    static std::map<std::string, TilingClassInfo> all;
    return all;
}

/// REGISTER_TILING_DATA_CLASS's op type -> class name.
inline std::map<std::string, std::string>& TilingClassOfOp()
{
    static std::map<std::string, std::string> all;
    return all;
}

template <typename T>
constexpr TilingFieldKind ScalarKind()
{
    return std::is_same<T, bool>::value ? TilingFieldKind::kBool
         : std::is_floating_point<T>::value ? TilingFieldKind::kFloat
         : std::is_signed<T>::value ? TilingFieldKind::kSigned : TilingFieldKind::kUnsigned;
}

inline bool RecordTilingField(const char* cls, size_t (*classSize)(), const char* type, const char* name,
                              size_t count, size_t (*offset)(), size_t size, TilingFieldKind kind)
{
    TilingClassInfo& info = TilingClasses()[cls];
    info.name = cls;
    info.size = classSize();
    for (const TilingFieldInfo& f : info.fields) {
        if (f.name == name) {
            return true;  // the same class seen from another translation unit
        }
    }
    info.fields.push_back(TilingFieldInfo{type, name, count, offset(), size, kind});
    return true;
}

inline bool RegisterTilingDataClass(const char* op, const char* cls)
{
    TilingClassOfOp()[op] = cls;
    return true;
}

}  // namespace hswc_host

// The recording: a static member function (whose body sees the complete class) gives the
// field's offset, an inline static member records it when the program starts.
#define HSWC_TILING_RECORD_(type_text, field, count, member, bytes, kind)                          \
    static size_t hswc_offset_##field() { return offsetof(HswcTilingSelf, member); }               \
    static inline const bool hswc_recorded_##field = ::hswc_host::RecordTilingField(              \
        HswcTilingName(), &HswcTilingSelf::HswcTilingSize, type_text, #field, count,              \
        &HswcTilingSelf::hswc_offset_##field, bytes, kind);

#define BEGIN_TILING_DATA_DEF(name)                                         \
    class alignas(8) name {                                                 \
    public:                                                                 \
        using HswcTilingSelf = name;                                        \
        static const char* HswcTilingName() { return #name; }               \
        static size_t HswcTilingSize() { return sizeof(HswcTilingSelf); }   \
        void SaveToBuffer(void* dest, size_t capacity) const                \
        {                                                                   \
            std::memcpy(dest, this, sizeof(*this) < capacity ? sizeof(*this) : capacity); \
        }                                                                   \
        size_t GetDataSize() const { return sizeof(*this); }

#define TILING_DATA_FIELD_DEF(type, field)                     \
    type field##_ = 0;                                         \
    void set_##field(type v) { field##_ = v; }                 \
    type get_##field() const { return field##_; }              \
    HSWC_TILING_RECORD_(#type, field, 0, field##_, sizeof(type), ::hswc_host::ScalarKind<type>())

// metadef's set_X copies arr_size elements from the pointer (memcpy_s), get_X points at the
// field's bytes (writes through it change the tiling data).
#define TILING_DATA_FIELD_DEF_ARR(arr_type, arr_size, field)                      \
    arr_type field##_[arr_size] = {};                                             \
    void set_##field(arr_type* v)                                                 \
    {                                                                             \
        if (v != field##_) {                                                      \
            std::memcpy(field##_, v, (arr_size) * sizeof(arr_type));              \
        }                                                                         \
    }                                                                             \
    arr_type* get_##field() { return field##_; }                                  \
    HSWC_TILING_RECORD_(#arr_type, field, static_cast<size_t>(arr_size), field##_, \
                        sizeof(arr_type) * static_cast<size_t>(arr_size), ::hswc_host::TilingFieldKind::kArray)

// A tiling-data class inside another, a public member the tiling fills through its own set_X.
#define TILING_DATA_FIELD_DEF_STRUCT(struct_type, field) \
    struct_type field{};                                 \
    HSWC_TILING_RECORD_(#struct_type, field, 0, field, sizeof(struct_type), ::hswc_host::TilingFieldKind::kStruct)

// The class's `};` (ops-nn writes END_TILING_DATA_DEF with and without a `;` of its own).
#define END_TILING_DATA_DEF };

// A whole declaration, `;` and all, as metadef's (ops-nn writes it with and without one).
#define REGISTER_TILING_DATA_CLASS(op, name)                                                      \
    static const bool HSWC_TILING_CLASS_CONCAT_(g_hswcTilingClass_##op##_, __COUNTER__) =          \
        ::hswc_host::RegisterTilingDataClass(#op, #name);
#define HSWC_TILING_CLASS_CONCAT2_(a, b) a##b
#define HSWC_TILING_CLASS_CONCAT_(a, b) HSWC_TILING_CLASS_CONCAT2_(a, b)

#endif  // HSWC_HOST_TILING_DATA_DEF_H
