#pragma once
// Contract: the floating-point tolerances photonsim's numerical code uses,
// each named by what it decides, in one place. All are relative (a fraction
// of the quantity compared) unless the comment says otherwise. Changing one
// changes results: the goldens and the figures in docs/ pin them.
namespace photonsim::tolerance {

// Two costs or throughputs this close (relative) are a tie, settled by a fixed
// rule (the earlier candidate); LP answers are far more precise than this.
inline constexpr double kTie = 1e-9;

// A relative difference below this is rounding in a sum of doubles, not a
// difference: a DP's better candidate, demand left to route, a path share.
inline constexpr double kRoundingNoise = 1e-12;

// An LP edge flow or residual at or below this share of its demand is set to
// exactly zero before paths are read from it.
inline constexpr double kZeroFlow = 1e-14;

// A path carrying less than this share of its pair's demand is LP noise, not a
// route (replaying it would add a flow of a few bytes).
inline constexpr double kNegligiblePathShare = 1e-9;

// A routing must carry all of each demand but this share.
inline constexpr double kUncarriedDemand = 1e-6;

// CLP's primal and dual feasibility tolerances where photonsim sets them tight
// (its defaults are 1e-7).
inline constexpr double kLpFeasibility = 1e-10;

// Column generation: a path enters when its reduced cost is below -kColumnPrice.
inline constexpr double kColumnPrice = 1e-10;

// Max concurrent flow: an answer is accepted within this relative gap of its
// dual bound.
inline constexpr double kDualityGap = 1e-9;

// Absolute: added before flooring a computed count (steps per decade) so that
// 2.9999999999 floors to 3.
inline constexpr double kFloorGuard = 1e-9;

}  // namespace photonsim::tolerance
