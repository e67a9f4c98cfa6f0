#pragma once
// Contract: the MZI mesh of one server's optical interposer as a graph (PCCL,
// section 2 and Appendix B). MZI switches sit on a rows x cols grid, node id
// r * cols + c; a waveguide joins each pair of 4-neighbours. A waveguide is
// undirected: a circuit on wavelength w crossing it, either way, takes w on it,
// so it carries at most one circuit per wavelength (wavelengths() of them).
// Waveguide ids: the horizontal ones row by row ((r, c)-(r, c + 1) is
// r * (cols - 1) + c), then the vertical ones ((r, c)-(r + 1, c) is
// rows * (cols - 1) + r * cols + c). Adjacency is flat (CSR), each node's
// neighbours in increasing node id. Immutable; sizes below 1, or a mesh whose
// ids do not fit an int, throw Error, as do rows, columns or nodes out of range.
#include <cstddef>
#include <span>
#include <utility>
#include <vector>

namespace photonsim {

class MziMesh {
 public:
  struct Link {
    int node;       // the neighbour
    int waveguide;  // the waveguide to it
  };

  MziMesh(int rows, int cols, int wavelengths = 1);

  int rows() const { return rows_; }
  int cols() const { return cols_; }
  int wavelengths() const { return wavelengths_; }
  int nodes() const { return rows_ * cols_; }
  size_t waveguides() const { return ends_.size(); }

  bool contains(int node) const { return node >= 0 && node < nodes(); }
  int node(int row, int col) const;
  int row(int node) const { return node / cols_; }
  int col(int node) const { return node % cols_; }
  // On the mesh's boundary, where fibers to other servers attach.
  bool on_border(int node) const;

  // A node's neighbours (2 to 4, fewer on a 1-wide mesh), in increasing node id.
  std::span<const Link> neighbours(int node) const;
  // The waveguide between two nodes, -1 if they are not 4-neighbours.
  int waveguide(int a, int b) const;
  // The two nodes a waveguide joins, lower id first.
  std::pair<int, int> ends(int waveguide) const;

 private:
  int rows_;
  int cols_;
  int wavelengths_;
  std::vector<int> offsets_;  // node -> first of its links in links_
  std::vector<Link> links_;
  std::vector<std::pair<int, int>> ends_;
};

}  // namespace photonsim
