#pragma once
// What the two tree units (tree.cpp and tree_pipelined.cpp) share: the binary tree rooted at
// GPU 0, numbered like a heap (the parent of r is (r - 1) / 2, its children 2r + 1 and 2r + 2).
#include <string>

#include "core/algorithms/algorithm_unit.h"

namespace ringviz {

// Depth in the tree: GPU 0 at depth 0, GPUs 1 and 2 at depth 1 ...
int tree_depth(int rank);
// AllReduce as a reduce up the tree and a broadcast down it. Unpipelined, every hop moves the
// whole buffer; pipelined, every hop moves one slot per round and slot s + 1 follows one round
// behind slot s.
Schedule binary_tree_rounds(const Config& config, bool pipelined);
// The trees have AllReduce only.
bool tree_supports(Op op);
// Their phases are a reduce into GPU 0 and a broadcast from it.
PhaseWord tree_phase(const CaptionContext& context, const Round& round);
// Both move the whole buffer over every edge once each way.
TrafficFormula tree_traffic(Language language, Op op, int ranks, int root, double buffer_bytes,
                            const std::string& subject);
// D in the cost formulas counts the levels of a full binary tree.
inline constexpr Words kFullTreeNote{" (a full tree)", "（满二叉树）"};

}  // namespace ringviz
