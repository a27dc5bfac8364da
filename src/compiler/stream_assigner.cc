// Stream assignment: chain continuation + least-loaded placement, then events reduced with
// per-task vector clocks (an event is added only when the consumer's clock does not already
// cover the producer).
#include "compiler/stream_assigner.h"

#include <algorithm>

#include <fmt/format.h>

namespace ge {

bool StreamAssignment::HappensBefore(int a, int b) const {
  if (a == kAfterAll || b == kBeforeAll) return false;
  if (a == kBeforeAll || b == kAfterAll) return true;
  const int sa = stream[a], sb = stream[b];
  if (sa < 0 || sb < 0) return false;
  if (sa == sb) return index[a] < index[b];
  return index[a] <= clock[static_cast<size_t>(b) * num_streams + sa];
}

std::string StreamAssignment::ToString() const {
  std::string s;
  for (int st = 0; st < num_streams; ++st) {
    s += fmt::format("{}s{}:", st ? " | " : "", st);
    for (size_t p = 0; p < stream.size(); ++p)
      if (stream[p] == st) s += fmt::format(" n{}", p);
  }
  if (!syncs.empty()) {
    s += " ; sync";
    for (const auto& y : syncs) s += fmt::format(" n{}->n{}", y.producer, y.consumer);
  }
  return s;
}

namespace {

// Picks the stream for task p: a predecessor's stream if that predecessor is its stream's
// tail (so a chain stays on one stream), else the least-loaded stream.
int PickStream(const StreamAssignerInput& in, int p, const std::vector<int>& stream, const std::vector<int>& tail,
               const std::vector<int64_t>& load) {
  for (int d : in.deps[p])
    if (stream[d] >= 0 && tail[stream[d]] == d) return stream[d];
  return static_cast<int>(std::min_element(load.begin(), load.end()) - load.begin());
}

}  // namespace

Status AssignStreams(const StreamAssignerInput& in, StreamAssignment* out) {
  const int n = static_cast<int>(in.is_task.size());
  if (in.deps.size() != in.is_task.size() || in.cost.size() != in.is_task.size())
    return Internal("stream assigner: inconsistent input sizes");
  const int max_streams = std::max(1, in.max_streams);
  StreamAssignment& a = *out;
  a = StreamAssignment();
  a.stream.assign(n, -1);
  a.index.assign(n, -1);
  a.event.assign(n, -1);
  std::vector<int> tail(max_streams, -1), count(max_streams, 0);
  std::vector<int64_t> load(max_streams, 0);
  for (int p = 0; p < n; ++p) {
    if (!in.is_task[p]) continue;
    for (int d : in.deps[p])
      if (d >= p || !in.is_task[d]) return Internal("stream assigner: position {} depends on {}", p, d);
    int s = PickStream(in, p, a.stream, tail, load);
    a.stream[p] = s;
    a.index[p] = count[s]++;
    tail[s] = p;
    load[s] += std::max<int64_t>(in.cost[p], 1);
  }
  a.num_streams = 1;
  for (int s = 0; s < max_streams; ++s)
    if (count[s] > 0) a.num_streams = s + 1;
  // Vector clocks, in position order; syncs only where the clock does not cover a dependency.
  const int S = a.num_streams;
  a.clock.assign(static_cast<size_t>(n) * S, -1);
  std::vector<int> last(S, -1);  // last task seen on each stream
  for (int p = 0; p < n; ++p) {
    if (!in.is_task[p]) continue;
    const int s = a.stream[p];
    int* c = &a.clock[static_cast<size_t>(p) * S];
    if (last[s] >= 0) {
      const int* pc = &a.clock[static_cast<size_t>(last[s]) * S];
      std::copy(pc, pc + S, c);
      c[s] = a.index[last[s]];
    }
    std::vector<int> deps = in.deps[p];
    std::sort(deps.begin(), deps.end(), std::greater<int>());  // later tasks imply more
    for (int d : deps) {
      const int sd = a.stream[d];
      if (sd == s || a.index[d] <= c[sd]) continue;
      if (a.event[d] < 0) a.event[d] = a.num_events++;
      a.syncs.push_back({d, p});
      const int* dc = &a.clock[static_cast<size_t>(d) * S];
      for (int k = 0; k < S; ++k) c[k] = std::max(c[k], dc[k]);
      c[sd] = std::max(c[sd], a.index[d]);
    }
    last[s] = p;
  }
  return Status::Ok();
}

int64_t EstimateParallelGainNs(const StreamAssignerInput& in, const StreamAssignment& a) {
  std::vector<int64_t> per_stream(static_cast<size_t>(std::max(a.num_streams, 1)), 0);
  int64_t total = 0;
  for (size_t p = 0; p < in.cost.size() && p < a.stream.size(); ++p) {
    if (a.stream[p] < 0) continue;
    const int64_t ns = EstimateTaskNs(in.cost[p]);
    per_stream[static_cast<size_t>(a.stream[p])] += ns;
    total += ns;
  }
  return total - *std::max_element(per_stream.begin(), per_stream.end());
}

}  // namespace ge
