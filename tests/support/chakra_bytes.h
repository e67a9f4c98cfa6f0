#pragma once
// Chakra ET 0.0.4 trace files built in a test, byte by byte (protobuf wire
// format, as scripts/tools/chakra_traces.py writes them), so a test can put any value
// in any field: durations and uint64 attributes past int64, roots past int.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace photonsim::testing_support {

struct ChakraAttr {
  enum class Kind { int64, uint64, text, boolean } kind = Kind::int64;
  std::string name;
  uint64_t number = 0;  // int64: the value's two's complement
  std::string text;
};

struct ChakraNode {
  uint64_t id = 0;
  std::string name;
  int type = 4;  // COMP_NODE; COMM_SEND_NODE 5, COMM_RECV_NODE 6, COMM_COLL_NODE 7
  std::vector<uint64_t> data_deps;
  uint64_t duration_micros = 0;
  std::vector<ChakraAttr> attrs;
};

inline ChakraAttr chakra_int(std::string name, int64_t value) {
  return {ChakraAttr::Kind::int64, std::move(name), static_cast<uint64_t>(value), ""};
}
inline ChakraAttr chakra_uint(std::string name, uint64_t value) {
  return {ChakraAttr::Kind::uint64, std::move(name), value, ""};
}
inline ChakraAttr chakra_bool(std::string name, bool value) {
  return {ChakraAttr::Kind::boolean, std::move(name), value ? 1u : 0u, ""};
}
inline ChakraAttr chakra_text(std::string name, std::string value) {
  return {ChakraAttr::Kind::text, std::move(name), 0, std::move(value)};
}

namespace chakra_wire {

inline std::string varint(uint64_t value) {
  std::string out;
  do {
    const auto bits = static_cast<char>(value & 0x7F);
    value >>= 7;
    out += static_cast<char>(value != 0 ? (bits | 0x80) : bits);
  } while (value != 0);
  return out;
}
inline std::string number(int field, uint64_t value) {
  return varint(static_cast<uint64_t>(field) << 3) + varint(value);
}
inline std::string bytes(int field, const std::string& data) {
  return varint((static_cast<uint64_t>(field) << 3) | 2) + varint(data.size()) + data;
}

}  // namespace chakra_wire

// One rank's file: the GlobalMetadata, then each node, length-delimited.
inline std::string chakra_trace(const std::vector<ChakraNode>& nodes) {
  using namespace chakra_wire;
  const auto delimited = [](const std::string& message) { return varint(message.size()) + message; };
  std::string out = delimited(bytes(1, "0.0.4"));
  for (const ChakraNode& n : nodes) {
    std::string m = number(1, n.id) + bytes(2, n.name) + number(3, static_cast<uint64_t>(n.type));
    std::string deps;
    for (uint64_t d : n.data_deps) deps += varint(d);
    if (!deps.empty()) m += bytes(5, deps);
    if (n.duration_micros != 0) m += number(7, n.duration_micros);
    for (const ChakraAttr& a : n.attrs) {
      std::string attr = bytes(1, a.name);
      switch (a.kind) {
        case ChakraAttr::Kind::int64:
          attr += number(9, a.number);
          break;
        case ChakraAttr::Kind::uint64:
          attr += number(13, a.number);
          break;
        case ChakraAttr::Kind::text:
          attr += bytes(29, a.text);
          break;
        case ChakraAttr::Kind::boolean:
          attr += number(27, a.number);
          break;
      }
      m += bytes(10, attr);
    }
    out += delimited(m);
  }
  return out;
}

// One file per rank, DIR/t.R.et, under a fresh DIR; returns the prefix DIR/t.
inline std::string write_chakra_traces(const std::filesystem::path& dir,
                                       const std::vector<std::vector<ChakraNode>>& ranks) {
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  for (size_t r = 0; r < ranks.size(); ++r) {
    std::ofstream(dir / ("t." + std::to_string(r) + ".et"), std::ios::binary) << chakra_trace(ranks[r]);
  }
  return (dir / "t").string();
}

}  // namespace photonsim::testing_support
