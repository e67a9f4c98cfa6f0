#!/usr/bin/python3
"""Measured against predicted completion time for every row of a sweep's
results.csv, coloured by algorithm, with the y = x line and a +-band (default
2 %), and two error panels (error % against alpha_r and against the
predicted time) where a 23 % disagreement is as visible as a 0.1 % one: the
points outside the band are where a synthesizer's cost model and the
packet-level simulation disagree (docs/model.md, "Measured vs predicted").
The figure is photonsim.plots.measured_vs_predicted.

usage: plot_measured_vs_predicted.py RESULTS.csv OUT_PREFIX [--band PCT] [--by COLUMN] [--title T]
  --by: the column that colours the points (default algorithm)
writes OUT_PREFIX.png and OUT_PREFIX.pdf and prints the worst error per algorithm
"""
import sys

import photonsim_plots as pp

args = pp.argument_parser(__doc__)
args.add_argument("results", help="a sweep's results.csv (or its folder)")
args.add_argument("prefix", help="OUT_PREFIX: writes OUT_PREFIX.png and OUT_PREFIX.pdf")
args.add_argument("--band", type=float, default=2.0, help="the +- band in percent (default 2)")
args.add_argument("--by", default="algorithm", help="the column that colours the points (default algorithm)")
args.add_argument("--title", default=None, help="the figure's title (default: the fabric)")
args = args.parse_args()
plots = pp.plots()
try:
    plots.measured_vs_predicted(args.results, args.prefix, by=args.by, band=args.band, title=args.title)
    worst = plots.worst_errors(args.results, by=args.by)
except (OSError, ValueError) as e:
    sys.exit(f"plot_measured_vs_predicted.py: {args.results}: {e}")
print(f"{args.by:<20}{'worst error %':>15}")
for name, error in worst.items():
    print(f"{name:<20}{error:>15.3f}")
print(f"wrote {args.prefix}.png and {args.prefix}.pdf")
