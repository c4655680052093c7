// tiling_harness.cpp - runs an op's own op_host tiling on the CPU model of the tiling context.
//
// Linked with the op's *_def.cpp and *_tiling*.cpp, compiled unchanged with -I of this folder
// (hswc_host/all.h stands in for CANN's host headers), and with tiling_fields.cpp when the
// kernel's tiling struct is known: each run then also prints the struct's fields. It takes no
// macro of the op's, so it is one object for every op.
//
// Usage:
//   tiling_run --describe
//       the op definitions: `op NAME`, `input NAME DTYPE,... [optional]`, `output NAME DTYPE,... [optional]`,
//       `attr NAME TYPE DEFAULT`, `config SOC KEY=VALUE ...` (and `config_input SOC NAME
//       DTYPE,...`), then `tiling NAME` per registered tiling.
//   tiling_run --op NAME --soc SOC --core-num N --ub-size BYTES
//              --input DTYPE:D0xD1... | none (per input of the definition; none: an optional
//              input left out) --output DTYPE:D0x... (per output)
//              [--attr float:V | int:V | bool:V | string:V | none: (per attribute, in order)]
//       runs the op's TilingParse then Tiling once and prints `status ok` (or `status failed`),
//       `block_dim N`, `tiling_key K`, `template NAME=V ...`, `workspace A,B,...`,
//       `tiling SIZE HEX`, `attrs_read I,...` and `field NAME VALUE` per struct field;
//       with --fields-of CLASS, `field NAME VALUE` per scalar field of the tiling-data class
//       CLASS (BEGIN_TILING_DATA_DEF) read from the bytes the tiling wrote.
//   tiling_run --tiling-header OP [CLASS...]
//       the kernel's tiling struct CANN's kernel build generates from the tiling-data class
//       REGISTER_TILING_DATA_CLASS(OP, CLASS) names (its nested classes first), as a header:
//       `struct CLASS` with the class's fields, laid out as the host model lays them out (each
//       offset and the size asserted), then those registered for one tiling key
//       (REGISTER_TILING_DATA_CLASS(OP_<key>, C)) and each CLASS the tiling defines; a first
//       line `// tiling-data class CLASS`, a second `// tiling-data classes A B ...`; exit 3 when
//       there is none of them.
// DTYPE is a ge::DataType number. Exit status: 0 ok, 1 the tiling failed (its log lines on
// stderr: `hswc_tiling: E NODE: MESSAGE`), 2 usage.
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "hswc_host/all.h"

// tiling_fields.cpp's, when it is linked (a weak reference: null otherwise).
void HswcPrintTilingFields(const void* data, size_t capacity) __attribute__((weak));

namespace Ops::Base {
const gert::Shape& EnsureNotScalar(const gert::Shape& s)
{
    static const gert::Shape one = {1};
    return s.IsScalar() ? one : s;
}
}  // namespace Ops::Base

namespace {

[[noreturn]] void Usage(const std::string& message)
{
    std::fprintf(stderr, "tiling_run: %s\n", message.c_str());
    std::exit(2);
}

std::string DtypeList(const std::vector<ge::DataType>& types)
{
    std::string out;
    for (ge::DataType t : types) {
        out += (out.empty() ? "" : ",") + std::to_string(static_cast<int>(t));
    }
    return out.empty() ? "-" : out;
}

void Describe()
{
    for (const auto& op : hswc_host::OpDefs()) {
        std::printf("op %s\n", op->name.c_str());
        for (const auto& p : op->inputs) {
            std::printf("input %s %s%s\n", p->name.c_str(), DtypeList(p->dtypes).c_str(),
                        p->option == ops::OPTIONAL ? " optional" : "");
        }
        for (const auto& p : op->outputs) {
            std::printf("output %s %s%s\n", p->name.c_str(), DtypeList(p->dtypes).c_str(),
                        p->option == ops::OPTIONAL ? " optional" : "");
        }
        for (const auto& a : op->attrs) {
            std::printf("attr %s %s %s\n", a->name.c_str(), a->type.c_str(), a->value.empty() ? "-" : a->value.c_str());
        }
        for (const auto& [soc, config] : op->aicore.configs) {
            std::printf("config %s", soc.c_str());
            for (const auto& [k, v] : config.extend) {
                std::printf(" %s=%s", k.c_str(), v.c_str());
            }
            std::printf("\n");
            for (const auto& p : config.inputs) {
                std::printf("config_input %s %s %s\n", soc.c_str(), p->name.c_str(), DtypeList(p->dtypes).c_str());
            }
        }
    }
    for (const auto& [name, entry] : hswc_host::Tilings()) {
        std::printf("tiling %s\n", name.c_str());
    }
}

gert::TensorInfo Tensor(const std::string& text)
{
    const size_t colon = text.find(':');
    if (colon == std::string::npos) {
        Usage("expected DTYPE:D0xD1..., got '" + text + "'");
    }
    gert::TensorInfo t;
    t.desc.SetDataType(static_cast<ge::DataType>(std::atoi(text.substr(0, colon).c_str())));
    gert::Shape shape;
    std::string dims = text.substr(colon + 1);
    size_t start = 0;
    while (!dims.empty() && start <= dims.size()) {
        const size_t x = dims.find('x', start);
        shape.AppendDim(std::strtoll(dims.substr(start, x - start).c_str(), nullptr, 10));
        if (x == std::string::npos) {
            break;
        }
        start = x + 1;
    }
    t.shape = gert::StorageShape(shape, shape);
    return t;
}

gert::RuntimeAttrs::Value Attr(const std::string& text)
{
    using Kind = gert::RuntimeAttrs::Kind;
    const size_t colon = text.find(':');
    if (colon == std::string::npos) {
        Usage("expected TYPE:VALUE, got '" + text + "'");
    }
    const std::string type = text.substr(0, colon);
    const std::string value = text.substr(colon + 1);
    gert::RuntimeAttrs::Value v;
    if (type == "float") {
        v.kind = Kind::kFloat;
        v.f = std::strtof(value.c_str(), nullptr);
    } else if (type == "int") {
        v.kind = Kind::kInt;
        v.i = std::strtoll(value.c_str(), nullptr, 0);
    } else if (type == "bool") {
        v.kind = Kind::kBool;
        v.b = value == "1" || value == "true";
    } else if (type == "string") {
        v.kind = Kind::kString;
        v.s = value;
    } else if (type == "list_int") {  // as op_def.h writes a ListInt: "-1,2"
        v.kind = Kind::kListInt;
        for (size_t start = 0; start < value.size();) {
            const size_t comma = std::min(value.find(',', start), value.size());
            v.list.push_back(std::strtoll(value.substr(start, comma - start).c_str(), nullptr, 0));
            start = comma + 1;
        }
    } else if (type != "none") {
        Usage("unknown attribute type '" + type + "'");
    }
    return v;
}

std::string KernelTypeName(const std::string& type)
{
    const size_t colon = type.rfind("::");
    return colon == std::string::npos ? type : type.substr(colon + 2);
}

void StructOf(const std::string& name, std::vector<std::string>& done, std::string& out)
{
    if (std::find(done.begin(), done.end(), name) != done.end()) {
        return;
    }
    done.push_back(name);
    const auto found = hswc_host::TilingClasses().find(name);
    if (found == hswc_host::TilingClasses().end()) {
        return;  // a class with no fields recorded (none here), or one the kernel declares
    }
    const hswc_host::TilingClassInfo& info = found->second;
    const std::vector<hswc_host::TilingFieldInfo> fields = info.Sorted();
    for (const auto& f : fields) {
        if (f.kind == hswc_host::TilingFieldKind::kStruct) {
            StructOf(KernelTypeName(f.type), done, out);
        }
    }
    out += "struct alignas(8) " + name + " {\n";
    for (const auto& f : fields) {
        const std::string type = f.kind == hswc_host::TilingFieldKind::kStruct ? KernelTypeName(f.type) : f.type;
        out += "    " + type + " " + f.name + (f.count ? "[" + std::to_string(f.count) + "]" : "") + "{};\n";
    }
    out += "};\n";
    out += "static_assert(sizeof(" + name + ") == " + std::to_string(info.size) + ", \"" + name +
           ": the host's size\");\n";
    for (const auto& f : fields) {
        out += "static_assert(offsetof(" + name + ", " + f.name + ") == " + std::to_string(f.offset) + ", \"" +
               name + "::" + f.name + ": the host's offset\");\n";
    }
}

int TilingHeader(const std::string& op, const std::vector<std::string>& wanted)
{
    std::vector<std::string> classes;
    const auto found = hswc_host::TilingClassOfOp().find(op);
    if (found != hswc_host::TilingClassOfOp().end()) {
        classes.push_back(found->second);
    }
    // The classes registered for one tiling key of the op, REGISTER_TILING_DATA_CLASS(OP_<key>, C)
    // (metadef's per-key form; ops-nn's SoftmaxV2 registers five): the kernel's tiling-key
    // branches name each, and CANN's kernel build generates them all.
    for (const auto& [type, cls] : hswc_host::TilingClassOfOp()) {
        const std::string prefix = op + "_";
        if (type.size() > prefix.size() && type.compare(0, prefix.size(), prefix) == 0 &&
            type.find_first_not_of("0123456789", prefix.size()) == std::string::npos &&
            std::find(classes.begin(), classes.end(), cls) == classes.end()) {
            classes.push_back(cls);
        }
    }
    // A class the kernel names that the op's tiling defines without registering it for the op
    // (ConfusionSoftmaxGrad's kernel reads SoftmaxGrad's SoftmaxGradARTilingData; assumed
    // generated alike).
    for (const std::string& w : wanted) {
        if (hswc_host::TilingClasses().count(w) != 0 && std::find(classes.begin(), classes.end(), w) == classes.end()) {
            classes.push_back(w);
        }
    }
    if (classes.empty()) {
        std::fprintf(stderr, "tiling_run: no REGISTER_TILING_DATA_CLASS for op '%s'\n", op.c_str());
        return 3;
    }
    std::string body;
    std::vector<std::string> done;
    std::string names;
    for (const std::string& cls : classes) {
        StructOf(cls, done, body);
        names += " " + cls;
    }
    std::printf("// tiling-data class %s\n", classes[0].c_str());
    std::printf("// tiling-data classes%s\n", names.c_str());
    std::printf("// The kernel's view of %s's tiling data: the structs CANN's kernel build generates from the\n"
                "// classes REGISTER_TILING_DATA_CLASS registers for it, written by the host model\n"
                "// (hswc/checker/ascendc_cpu/host/tiling_harness.cpp --tiling-header) from their fields.\n",
                op.c_str());
    std::printf("#ifndef HSWC_GENERATED_TILING_DATA_%s\n#define HSWC_GENERATED_TILING_DATA_%s\n", op.c_str(), op.c_str());
    std::printf("#include <cstddef>\n#include <cstdint>\n%s#endif\n", body.c_str());
    return 0;
}

template <typename T>
T Load(const uint8_t* bytes)
{
    T v;
    std::memcpy(&v, bytes, sizeof v);
    return v;
}

void PrintClassFields(const std::string& cls, const gert::TilingData& data)
{
    const auto found = hswc_host::TilingClasses().find(cls);
    if (found == hswc_host::TilingClasses().end()) {
        return;
    }
    const auto* bytes = static_cast<const uint8_t*>(data.GetData());
    using Kind = hswc_host::TilingFieldKind;
    for (const auto& f : found->second.Sorted()) {
        if (f.offset + f.size > data.GetCapacity()) {
            continue;
        }
        const uint8_t* at = bytes + f.offset;
        if (f.kind == Kind::kBool) {
            std::printf("field %s %d\n", f.name.c_str(), at[0] ? 1 : 0);
        } else if (f.kind == Kind::kFloat && f.size == 4) {
            std::printf("field %s %.17g\n", f.name.c_str(), static_cast<double>(Load<float>(at)));
        } else if (f.kind == Kind::kFloat && f.size == 8) {
            std::printf("field %s %.17g\n", f.name.c_str(), Load<double>(at));
        } else if (f.kind == Kind::kSigned || f.kind == Kind::kUnsigned) {
            uint64_t raw = 0;
            std::memcpy(&raw, at, f.size);  // little-endian, as the device
            if (f.kind == Kind::kSigned && f.size < 8 && (raw >> (8 * f.size - 1)) & 1) {
                raw |= ~uint64_t{0} << (8 * f.size);
            }
            if (f.kind == Kind::kSigned) {
                std::printf("field %s %lld\n", f.name.c_str(), static_cast<long long>(raw));
            } else {
                std::printf("field %s %llu\n", f.name.c_str(), static_cast<unsigned long long>(raw));
            }
        }
    }
}

int Run(int argc, char** argv)
{
    std::string fieldsOf;
    std::string op, soc = "ascend910b";
    gert::TilingContext context;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) {
                Usage(a + " needs a value");
            }
            return argv[++i];
        };
        if (a == "--op") {
            op = value();
        } else if (a == "--soc") {
            soc = value();
        } else if (a == "--core-num") {
            context.platform.coreNumAiv = static_cast<uint32_t>(std::strtoul(value().c_str(), nullptr, 10));
            context.platform.coreNumAic = context.platform.coreNumAiv / 2;
        } else if (a == "--ub-size") {
            context.platform.ubSize = std::strtoull(value().c_str(), nullptr, 10);
        } else if (a == "--input") {
            const std::string text = value();
            if (text == "none") {  // an optional input the caller leaves out
                context.irInputs.push_back(-1);
            } else {
                context.irInputs.push_back(static_cast<int>(context.inputs.size()));
                context.inputs.push_back(Tensor(text));
            }
        } else if (a == "--output") {
            context.outputs.push_back(Tensor(value()));
        } else if (a == "--attr") {
            context.attrs.Add(Attr(value()));
        } else if (a == "--fields-of") {
            fieldsOf = value();
        } else {
            Usage("unknown argument " + a);
        }
    }
    context.platform.socName = soc;
    context.nodeName = op;
    context.nodeType = op;
    auto found = hswc_host::Tilings().find(op);
    if (found == hswc_host::Tilings().end() || found->second.tiling == nullptr) {
        std::string registered;
        for (const auto& [name, tiling] : hswc_host::Tilings()) {
            registered += (registered.empty() ? "" : ", ") + name;
        }
        Usage("no tiling registered for op '" + op + "' (IMPL_OP_OPTILING registers " +
              (registered.empty() ? std::string("none") : registered) + ")");
    }
    const hswc_host::TilingEntry& entry = found->second;
    std::shared_ptr<void> compileInfo = entry.makeCompileInfo ? entry.makeCompileInfo() : nullptr;
    bool ok = true;
    if (entry.parse != nullptr) {
        gert::TilingParseContext parse;
        parse.nodeName = op;
        parse.platform = &context.platform;
        parse.compileInfo = compileInfo.get();
        ok = entry.parse(&parse) == ge::GRAPH_SUCCESS;
        if (!ok) {
            std::fprintf(stderr, "hswc_tiling: E %s: TilingParse failed\n", op.c_str());
        }
    }
    context.compileInfo = compileInfo.get();
    ok = ok && entry.tiling(&context) == ge::GRAPH_SUCCESS;
    std::printf("status %s\n", ok ? "ok" : "failed");
    std::printf("block_dim %u%s\n", context.blockDim, context.blockDimSet ? "" : " unset");
    std::printf("tiling_key %" PRIu64 "\n", context.tilingKey);
    if (!context.templateChosen) {
        for (const auto& [key, choice] : hswc_host::EncodedChoices()) {
            if (key == context.tilingKey) {
                context.templateChoice = choice;
                context.templateChosen = true;
            }
        }
    }
    if (context.templateChosen) {
        std::printf("template");
        for (size_t k = 0; k < context.templateChoice.names.size(); ++k) {
            std::printf(" %s=%" PRIu64, context.templateChoice.names[k].c_str(), context.templateChoice.values[k]);
        }
        std::printf("\n");
    }
    std::printf("workspace");
    for (size_t w : context.workspace) {
        std::printf(" %zu", w);
    }
    std::printf("\n");
    const gert::TilingData& data = *context.GetRawTilingData();
    std::printf("tiling %zu ", data.GetDataSize());
    for (size_t k = 0; k < data.GetDataSize(); ++k) {
        std::printf("%02x", static_cast<const uint8_t*>(data.GetData())[k]);
    }
    std::printf("\nattrs_read");
    for (size_t k = 0; k < context.attrs.GetAttrNum(); ++k) {
        if (context.attrs.WasRead(k)) {
            std::printf(" %zu", k);
        }
    }
    std::printf("\n");
    if (HswcPrintTilingFields != nullptr) {
        HswcPrintTilingFields(data.GetData(), data.GetCapacity());
    }
    if (!fieldsOf.empty()) {
        PrintClassFields(fieldsOf, data);
    }
    return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv)
{
    if (argc == 2 && std::strcmp(argv[1], "--describe") == 0) {
        Describe();
        return 0;
    }
    if (argc >= 3 && std::strcmp(argv[1], "--tiling-header") == 0) {
        return TilingHeader(argv[2], std::vector<std::string>(argv + 3, argv + argc));
    }
    return Run(argc, argv);
}
