// register/op_def_registry.h - forwards to the CPU model of the tiling context (hswc_host/all.h).
#ifndef HSWC_FWD_REGISTER_OP_DEF_REGISTRY_H
#define HSWC_FWD_REGISTER_OP_DEF_REGISTRY_H
#include "../hswc_host/all.h"
#endif
