"""From an elementwise body to AscendC calls: the body's DAG, the schedule's choices, the UB
plan, and the kernel's ascend ops."""
