"""photonsim from Python: the simulator's own C++ pipeline, in process.

    import photonsim
    r = photonsim.run("configs/quickstart.yaml")            # or a dict
    r.measured_ps, r.predicted_ps, r.error_pct, r.steps      # r.steps: a DataFrame
    df = photonsim.sweep("configs/quickstart.yaml", {"fabric.reconfig_delay": "1us..1ms x1"})
    s = photonsim.synthesize("configs/quickstart.yaml"); s.save("s.pb")
    photonsim.replay(s, "configs/quickstart.yaml")
    photonsim.plan("configs/quickstart.yaml")                # every planner, ranked
    photonsim.load_results("results/sweep")                  # any --out or sweep folder
    photonsim.plots.vs_alpha_r(df, "time")                   # figures: PNG + PDF

Every function takes a config as a path (relative files resolve from its
folder) or as a dict (relative files resolve from `base_dir`, default the
working directory), plus `overrides` ({"dotted.key": value} or ["key=value"],
as --set). A bad input raises PhotonsimError carrying photonsim's one-line
message (file:line and key). The compiled module loads on first use, so the
pure-Python parts (load_results, plots, transformer_graph) work without it.
"""

from photonsim._checkout import build_to_import as _build_to_import

_other_build = _build_to_import(__path__[0])
if _other_build is not None:
    # Inside another checkout: load its build instead (photonsim/_checkout.py says when).
    import importlib as _importlib
    import sys as _sys

    _sys._photonsim_switched_build = True  # once: the build switched to keeps itself
    _sys.path.insert(0, _other_build)
    for _name in [n for n in _sys.modules if n == __name__ or n.startswith(__name__ + ".")]:
        del _sys.modules[_name]
    _sys.modules[__name__] = _importlib.import_module(__name__)
else:
    from photonsim._api import (
        PhotonsimError,
        Result,
        Schedule,
        build_info,
        load_schedule,
        plan,
        replay,
        run,
        synthesize,
        version,
    )
    from photonsim.graphs import transformer_graph
    from photonsim.results import load_results
    from photonsim.sweeps import sweep


def __getattr__(name):
    # photonsim.plots loads matplotlib only when first used.
    if name == "plots":
        import importlib

        return importlib.import_module("photonsim.plots")
    raise AttributeError(f"module 'photonsim' has no attribute {name!r}")


__all__ = [
    "PhotonsimError",
    "Result",
    "Schedule",
    "build_info",
    "load_results",
    "load_schedule",
    "plots",
    "plan",
    "replay",
    "run",
    "sweep",
    "synthesize",
    "transformer_graph",
    "version",
]
