// leaky_ut_variant.cpp - where the fixture's A2/A3 kernel would be (op_kernel/CMakeLists.txt
// names arch35/leaky_ut_variant.cpp for Ascend 950): never built for ascend950.
#error "the Ascend 950 build takes op_kernel/arch35/leaky_ut_variant.cpp"
