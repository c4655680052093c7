"""The cost model run on a module: lowered through hswc's pipeline, tiled by its own host code.

- profile.py    one launch of a kernel (`profile`, `lower`);
- launches.py   every launch of a function, one after the other (`profile_launches`).
The model itself (streams, the pipe scheduler, the report) is hswc.cost_model, below the passes.
"""

from hswc.profiling.profile import lower, profile

__all__ = ["lower", "profile"]
