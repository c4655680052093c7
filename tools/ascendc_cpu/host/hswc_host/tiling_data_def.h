// hswc_host/tiling_data_def.h - register/tilingdata_base.h's tiling-data classes
// (BEGIN_TILING_DATA_DEF / TILING_DATA_FIELD_DEF / TILING_DATA_FIELD_DEF_ARR /
// TILING_DATA_FIELD_DEF_STRUCT / END_TILING_DATA_DEF): a class of the named fields with
// set_X/get_X and SaveToBuffer as the documented API has them. The bytes are metadef's layout
// (base/asc/tilingdata_base_impl.cc): fields packed in declaration order, each at a multiple of
// its element size (CheckAlignAndGenPlaceHolder), an array as arr_size elements, a nested
// tiling-data class at a multiple of 8, and the whole padded to a multiple of 8; here the C++
// layout of the members gives the same, the class being alignas(8). REGISTER_TILING_DATA_CLASS
// has no effect.
#ifndef HSWC_HOST_TILING_DATA_DEF_H
#define HSWC_HOST_TILING_DATA_DEF_H

#include <cstddef>
#include <cstdint>
#include <cstring>

#define BEGIN_TILING_DATA_DEF(name)                                         \
    class alignas(8) name {                                                 \
    public:                                                                 \
        void SaveToBuffer(void* dest, size_t capacity) const                \
        {                                                                   \
            std::memcpy(dest, this, sizeof(*this) < capacity ? sizeof(*this) : capacity); \
        }                                                                   \
        size_t GetDataSize() const { return sizeof(*this); }

#define TILING_DATA_FIELD_DEF(type, field)                     \
    type field##_ = 0;                                         \
    void set_##field(type v) { field##_ = v; }                 \
    type get_##field() const { return field##_; }

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
    arr_type* get_##field() { return field##_; }

// A tiling-data class inside another, a public member the tiling fills through its own set_X.
#define TILING_DATA_FIELD_DEF_STRUCT(struct_type, field) struct_type field{};

#define END_TILING_DATA_DEF }

#define REGISTER_TILING_DATA_CLASS(op, name) static_assert(true, "REGISTER_TILING_DATA_CLASS")

#endif  // HSWC_HOST_TILING_DATA_DEF_H
