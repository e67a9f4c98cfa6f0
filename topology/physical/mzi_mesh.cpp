#include "topology/physical/mzi_mesh.h"

#include <climits>
#include <cstdint>
#include <string>

#include "core/error.h"

namespace photonsim {

namespace {

void check_node(const MziMesh& mesh, int node) {
  if (!mesh.contains(node))
    throw Error("MZI mesh: node " + std::to_string(node) + " is outside the " + std::to_string(mesh.rows()) + " x " +
                std::to_string(mesh.cols()) + " mesh (0.." + std::to_string(mesh.nodes() - 1) + ")");
}

}  // namespace

MziMesh::MziMesh(int rows, int cols, int wavelengths) : rows_(rows), cols_(cols), wavelengths_(wavelengths) {
  if (rows < 1 || cols < 1)
    throw Error("MZI mesh: rows and cols must be at least 1 (got " + std::to_string(rows) + " x " +
                std::to_string(cols) + ")");
  if (wavelengths < 1)
    throw Error("MZI mesh: wavelengths must be at least 1 (got " + std::to_string(wavelengths) + ")");
  // Two waveguides per node at most, and each waveguide's wavelengths are indexed too.
  if (int64_t{rows} * cols * 2 * wavelengths > INT_MAX)
    throw Error("MZI mesh: " + std::to_string(rows) + " x " + std::to_string(cols) + " with " +
                std::to_string(wavelengths) + " wavelengths is too large");

  const int horizontal = rows * (cols - 1);
  ends_.resize(static_cast<size_t>(horizontal + (rows - 1) * cols));
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c + 1 < cols; ++c)
      ends_[static_cast<size_t>(r * (cols - 1) + c)] = {r * cols + c, r * cols + c + 1};
  for (int r = 0; r + 1 < rows; ++r)
    for (int c = 0; c < cols; ++c)
      ends_[static_cast<size_t>(horizontal + r * cols + c)] = {r * cols + c, (r + 1) * cols + c};

  offsets_.reserve(static_cast<size_t>(nodes()) + 1);
  links_.reserve(2 * ends_.size());
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      offsets_.push_back(static_cast<int>(links_.size()));
      const int u = r * cols + c;
      // Increasing node id: up, left, right, down.
      if (r > 0) links_.push_back({u - cols, horizontal + (r - 1) * cols + c});
      if (c > 0) links_.push_back({u - 1, r * (cols - 1) + c - 1});
      if (c + 1 < cols) links_.push_back({u + 1, r * (cols - 1) + c});
      if (r + 1 < rows) links_.push_back({u + cols, horizontal + r * cols + c});
    }
  }
  offsets_.push_back(static_cast<int>(links_.size()));
}

int MziMesh::node(int r, int c) const {
  if (r < 0 || r >= rows_ || c < 0 || c >= cols_)
    throw Error("MZI mesh: (" + std::to_string(r) + ", " + std::to_string(c) + ") is outside the " +
                std::to_string(rows_) + " x " + std::to_string(cols_) + " mesh");
  return r * cols_ + c;
}

bool MziMesh::on_border(int n) const {
  check_node(*this, n);
  const int r = row(n), c = col(n);
  return r == 0 || c == 0 || r == rows_ - 1 || c == cols_ - 1;
}

std::span<const MziMesh::Link> MziMesh::neighbours(int n) const {
  check_node(*this, n);
  const auto first = static_cast<size_t>(offsets_[static_cast<size_t>(n)]);
  const auto last = static_cast<size_t>(offsets_[static_cast<size_t>(n) + 1]);
  return {links_.data() + first, last - first};
}

int MziMesh::waveguide(int a, int b) const {
  check_node(*this, b);
  for (const Link& link : neighbours(a))
    if (link.node == b) return link.waveguide;
  return -1;
}

std::pair<int, int> MziMesh::ends(int w) const {
  if (w < 0 || static_cast<size_t>(w) >= ends_.size())
    throw Error("MZI mesh: waveguide " + std::to_string(w) + " is outside the mesh (0.." +
                std::to_string(ends_.size() - 1) + ")");
  return ends_[static_cast<size_t>(w)];
}

}  // namespace photonsim
