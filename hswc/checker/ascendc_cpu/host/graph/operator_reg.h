// graph/operator_reg.h - the graph-registration macros an op's prototype header (op_graph/
// *_proto.h) is written in, for tilings that include that header (ops-nn's ClippedSwiglu's
// op_host/clipped_swiglu_tiling.h). No tiling reads a prototype: REG_OP(Name) .INPUT(...)
// ... .OP_END_FACTORY_REG(Name) becomes one unused constant, every clause's arguments dropped
// unread (the same macro names CANN's header defines, so a tiling that builds against CANN
// does not use them otherwise).
#ifndef HSWC_GRAPH_OPERATOR_REG_H
#define HSWC_GRAPH_OPERATOR_REG_H
#include "../hswc_host/all.h"

namespace hswc_host {
struct OpPrototype {
    constexpr OpPrototype Clause() const { return *this; }
};
}  // namespace hswc_host

#define REG_OP(name) \
    [[maybe_unused]] static constexpr ::hswc_host::OpPrototype hswc_prototype_##name = ::hswc_host::OpPrototype()
#define INPUT(...) Clause()
#define OPTIONAL_INPUT(...) Clause()
#define DYNAMIC_INPUT(...) Clause()
#define OUTPUT(...) Clause()
#define DYNAMIC_OUTPUT(...) Clause()
#define ATTR(...) Clause()
#define REQUIRED_ATTR(...) Clause()
#define DATATYPE(...) Clause()
#define GRAPH(...) Clause()
#define OP_END_FACTORY_REG(name) Clause();
#endif
