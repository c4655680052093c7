// hswc_host/platform.h - the platform a tiling asks about (CPU model of fe::PlatFormInfos and
// platform_ascendc::PlatformAscendC).
//
// Written from the documented shape of asc-devkit's tiling/platform/platform_ascendc.h: core
// counts, UB size and the SoC version. The harness fills in the values of the SoC under test
// (hswc.platform: core count, UB bytes); the other memories are not modelled (size 0). Assumed:
// ascend910_93 reports SocVersion::ASCEND910B, as the header's comment on ASCEND910B says
// ("Ascend910_93 Serials").
#ifndef HSWC_HOST_PLATFORM_H
#define HSWC_HOST_PLATFORM_H

#include <cstdint>
#include <string>

/// The NPU architecture (platform/soc_spec.h's numbering): DAV_2201 for Atlas A2/A3, DAV_3510
/// for Ascend 950.
enum class NpuArch : uint32_t { DAV_2002 = 2002, DAV_2201 = 2201, DAV_3002 = 3002, DAV_3510 = 3510, DAV_5102 = 5102,
    DAV_RESV = 0xFFFFFFFF };

namespace fe {
class PlatFormInfos {
public:
    std::string socName = "ascend910b";
    uint32_t coreNumAiv = 48;
    uint32_t coreNumAic = 24;
    uint64_t ubSize = 196608;

    bool GetPlatformRes(const std::string& label, const std::string& key, std::string& value) const
    {
        return GetPlatformResWithLock(label, key, value);
    }
    bool GetPlatformResWithLock(const std::string& label, const std::string& key, std::string& value) const
    {
        if (label == "SoCInfo" && (key == "vector_core_cnt" || key == "ai_core_cnt")) {
            value = std::to_string(key == "vector_core_cnt" ? coreNumAiv : coreNumAic);
            return true;
        }
        if (label == "version" && (key == "Short_SoC_version" || key == "SoC_version")) {
            value = socName;
            return true;
        }
        return false;
    }
    uint32_t GetCoreNum() const { return coreNumAiv; }
};
}  // namespace fe

namespace platform_ascendc {
enum class CoreMemType { L0_A = 0, L0_B = 1, L0_C = 2, L1 = 3, L2 = 4, UB = 5, HBM = 6, FB = 7, BT = 8, RESERVED };

enum class SocVersion {
    ASCEND910 = 0,
    ASCEND910B,
    ASCEND310P,
    ASCEND310B,
    ASCEND950,
    ASCEND910_55,
    ASCEND910_95 = ASCEND950,
    ASCEND910_93 = 13,
    RESERVED_VERSION = 99999
};

class PlatformAscendC {
public:
    PlatformAscendC() = delete;
    explicit PlatformAscendC(fe::PlatFormInfos* info) : info_(info) {}
    uint32_t GetCoreNum() const { return info_->coreNumAiv; }
    uint32_t GetCoreNumAic() const { return info_->coreNumAic; }
    uint32_t GetCoreNumAiv() const { return info_->coreNumAiv; }
    uint32_t GetCoreNumVector() const { return 0; }
    uint32_t GetLibApiWorkSpaceSize() const { return 0; }
    void GetCoreMemSize(const CoreMemType& type, uint64_t& size) const
    {
        size = type == CoreMemType::UB ? info_->ubSize : 0;
    }
    SocVersion GetSocVersion() const
    {
        return info_->socName == "ascend950" ? SocVersion::ASCEND950 : SocVersion::ASCEND910B;
    }
    NpuArch GetCurNpuArch() const
    {
        return info_->socName == "ascend950" ? NpuArch::DAV_3510 : NpuArch::DAV_2201;
    }
    uint32_t GetVecRegLen() const { return 256; }

private:
    fe::PlatFormInfos* info_;
};
}  // namespace platform_ascendc

#endif  // HSWC_HOST_PLATFORM_H
