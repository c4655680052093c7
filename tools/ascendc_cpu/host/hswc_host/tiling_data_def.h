// hswc_host/tiling_data_def.h - register/tilingdata_base.h's tiling-data classes
// (BEGIN_TILING_DATA_DEF / TILING_DATA_FIELD_DEF / END_TILING_DATA_DEF): a class of the named
// fields, packed in declaration order with each field at its natural alignment, with set_X/get_X
// and SaveToBuffer as the documented API has them. REGISTER_TILING_DATA_CLASS has no effect.
#ifndef HSWC_HOST_TILING_DATA_DEF_H
#define HSWC_HOST_TILING_DATA_DEF_H

#include <cstddef>
#include <cstdint>
#include <cstring>

#define BEGIN_TILING_DATA_DEF(name)                                         \
    class name {                                                            \
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

#define END_TILING_DATA_DEF }

#define REGISTER_TILING_DATA_CLASS(op, name) static_assert(true, "REGISTER_TILING_DATA_CLASS")

#endif  // HSWC_HOST_TILING_DATA_DEF_H
