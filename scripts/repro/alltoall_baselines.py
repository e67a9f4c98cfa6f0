"""The all-to-all paper's baseline sets, as scripts/repro/alltoall_grid.py runs them and
scripts/repro/claims.py reads them back: one list, so the two cannot disagree.
  photonsim: FAST, MixNet (in rounds and routed by max concurrent flow), DirectConnect
      (GenKautz, Circulant) routed concurrently, TopoOpt split over 4 paths;
  paper: FAST, MixNet, DirectConnect's topologies in the paper's rounds, TopoOpt on one path.
Standard library only."""

BASELINE_SETS = {
    "photonsim": ["FAST", "MixNet", "MixNet, max concurrent flow", "DirectConnect (GenKautz)",
                  "DirectConnect (Circulant)", "TopoOpt"],
    "paper": ["FAST", "MixNet", "DirectConnect (GenKautz), rounds", "DirectConnect (Circulant), rounds",
              "TopoOpt (K = 1)"],
}


def baselines(which, distribution):
    """The paper leaves MixNet out for uniform flows (all equal: its greedy has nothing to go on)."""
    return [n for n in BASELINE_SETS[which] if not (n.startswith("MixNet") and distribution == "uniform")]
