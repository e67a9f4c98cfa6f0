// flow_item: every line of its subset gives exactly the node yaml-cpp's parser
// builds (maps, keys, scalars, lists, order, duplicates), and every line
// outside it gives nothing, so yaml-cpp reads it.
#include "sim/config/flow_item.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace photonsim {
namespace {

// The same tree, scalar for scalar, in the same order.
void expect_same(const YAML::Node& fast, const YAML::Node& parsed, const std::string& line) {
  ASSERT_EQ(fast.Type(), parsed.Type()) << line;
  if (parsed.IsScalar()) {
    EXPECT_EQ(fast.Scalar(), parsed.Scalar()) << line;
  } else if (parsed.IsSequence()) {
    ASSERT_EQ(fast.size(), parsed.size()) << line;
    for (size_t i = 0; i < parsed.size(); ++i) expect_same(fast[i], parsed[i], line);
  } else if (parsed.IsMap()) {
    ASSERT_EQ(fast.size(), parsed.size()) << line;
    auto f = fast.begin();
    for (auto p = parsed.begin(); p != parsed.end(); ++p, ++f) {
      expect_same(f->first, p->first, line);
      expect_same(f->second, p->second, line);
    }
  }
}

TEST(FlowItem, ReadsItsSubsetAsYamlCppDoes) {
  for (const std::string line : {
           "- {name: n1, type: compute, gpus: [0], duration: 1us, after: n0}",
           "- {name: r0.s0.l0.fwd.attn.ar, type: collective, collective: allreduce, gpus: [\"0-3\", 8, \"16-31/4\"], "
           "message: 2MB, after: [a, b]}",
           "- {name: p2p.3->0.tag3.0, type: p2p, src: 3, dst: 0, bytes: 64KB}",
           "-   {  name:   x ,type: compute,  gpus: [ ],duration: 1.5us }   # a comment",
           "- {name: x, name: y, after: []}",
           "- {name: \"a b: #c, [d]\", type: compute}\r",
           "- {a: true, b: false, c: 5, d: .inf, e: (x), f: a/b+c<d=e, g: \"null\", h: \"\"}",
       }) {
    const std::optional<YAML::Node> fast = flow_item(line);
    ASSERT_TRUE(fast.has_value()) << line;
    expect_same(*fast, YAML::Load(line + "\n")[0], line);
  }
}

TEST(FlowItem, LeavesEverythingElseToYamlCpp) {
  for (const std::string line : {
           "- {name: null}",
           "- {name: Null}",
           "- {name: ~}",
           "- {name: 'x'}",
           "- {name: \"a\\\"b\"}",
           "- {name: x,}",
           "- {name: [a, ]}",
           "- {name: {a: b}}",
           "- {name: &a x}",
           "- {name: *a}",
           "- {name: !tag x}",
           "-\t{name: x}",
           "- {name: x}#c",
           "- {name: a b}",
           "- {name: -1}",
           "- {name:x}",
           "- {name : x}",
           "- {name: x} extra",
           "- {name: x",
           "- [a, b]",
           "  - {name: x}",
           "- {gpus: [-1]}",
           "- {}",
           "- {name: |}",
           "- {name: \"\xc3\xa9\"}",
           "- {name: a:b}",
           "- {name: x}, - {name: y}",
           "-{name: x}",
           "- {name: [[a]]}",
           "- {? a : b}",
           "- {name: x, gpus: [0, [1]]}",
           "- {name:\tx}",
           "",
       }) {
    EXPECT_FALSE(flow_item(line).has_value()) << line;
  }
}

// Seeded random lines from YAML's pieces, well and badly put together: each
// one flow_item reads, yaml-cpp reads to the same node.
TEST(FlowItem, AgreesWithYamlCppOnRandomLines) {
  // Each piece: pieces flow_item reads first, then others; mostly the first.
  struct Pieces {
    std::vector<std::string> good, bad;
  };
  const Pieces keys{{"name", "type", "a.b", "k-1", "after"},
                    {"null", "~", "x y", "'q'", "\"q\"", "-k", "k:", "[a]", ""}};
  const Pieces values{{"n1", "1us", "0-3", "\"0-3\"", "\"a, b\"", "\"\"", "[]", "[ ]", "[0, 1]", "[\"0-3\", 8]",
                       "[a,b]", "p2p.3->0", "(x)", ".5", "true", "\"a: b\""},
                      {"[a, ]", "[[a]]", "null", "~", "-1", "a b", "a#b", "a #b", "'x'", "\"x\\\"y\"", "{}", "&a x",
                       "*a", "!t x", "", "a:b", "{a: b}"}};
  const Pieces separators{{", ", ",", " ,", " , ", ",  "}, {" ", ",,"}};
  const Pieces colons{{": ", ":  "}, {":", " : ", ":\t"}};
  const Pieces heads{{"- {", "-  {", "- { "}, {"-{", "  - {", "- [", "-\t{"}};
  const Pieces tails{{"}", " }", "} ", "}  # c"}, {"}#c", "", "}}", "},", "} x"}};
  std::mt19937 rng(7);
  const auto pick = [&](const Pieces& from) {
    const std::vector<std::string>& list = rng() % 8 == 0 ? from.bad : from.good;
    return list[rng() % list.size()];
  };
  size_t read = 0;
  for (int round = 0; round < 20000; ++round) {
    std::string line = pick(heads);
    const int pairs = 1 + static_cast<int>(rng() % 4);
    for (int p = 0; p < pairs; ++p) {
      if (p > 0) line += pick(separators);
      line += pick(keys) + pick(colons) + pick(values);
    }
    line += pick(tails);
    const std::optional<YAML::Node> fast = flow_item(line);
    if (!fast) continue;
    ++read;
    YAML::Node parsed;
    ASSERT_NO_THROW(parsed = YAML::Load(line + "\n")) << line;
    ASSERT_TRUE(parsed.IsSequence() && parsed.size() == 1) << line;
    expect_same(*fast, parsed[0], line);
  }
  EXPECT_GT(read, 1000U);  // the subset is not empty
}

}  // namespace
}  // namespace photonsim
