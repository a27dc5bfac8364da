// Stream assignment for a sink segment: puts independent branches on separate model streams
// (at most max_streams), and adds the events that cross-stream dependencies need, dropping
// every event already implied by another one (a vector-clock transitive reduction). Its result
// also answers "is task a known to be complete before task b starts?", which the memory planner
// uses to decide when a buffer may be reused.
#ifndef GE_SRC_COMPILER_STREAM_ASSIGNER_H_
#define GE_SRC_COMPILER_STREAM_ASSIGNER_H_

#include <climits>
#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"

namespace ge {

// Pseudo positions: a graph input is written before every task; a graph output is read after
// every task.
constexpr int kBeforeAll = -1;
constexpr int kAfterAll = INT_MAX;

// The default bound on model streams, chosen by measurement (bench/README.md,
// run_sink_bench.sh, 2-core VM): two streams run the branch models 1.5-1.66x faster than one
// on a quiet machine (the machine's own two-thread ceiling varies, see bench/README.md),
// chains are unaffected (they stay on one stream), and graphs whose branches are tiny lose
// (0.23 us -> 4.5 us for 2 branches of 5 ops: starting a helper and joining costs more than the
// branch). So by default a segment gets min(2, device cores) streams, and falls back to one when
// the estimated parallel gain is under kMinParallelGainNs. An explicit bound (--streams N,
// CompileOptions::max_streams) is used as given.
constexpr int kDefaultMaxStreams = 2;
constexpr int64_t kMinParallelGainNs = 8000;

// Rough task cost for that estimate: a fixed dispatch cost plus a streaming rate per output
// element (about what an elementwise kernel on this class of CPU does).
inline int64_t EstimateTaskNs(int64_t output_elements) { return 25 + output_elements / 64; }

struct StreamSync {
  int producer;  // position of the task whose completion is recorded
  int consumer;  // position of the task that waits for it
};

// Everything by schedule position (the topological order the segment was compiled in).
struct StreamAssignment {
  int num_streams = 1;
  int num_events = 0;
  std::vector<int> stream;        // -1: the position has no task (a view)
  std::vector<int> index;         // position of the task within its stream
  std::vector<int> event;         // event recorded right after the task, -1 if none
  std::vector<StreamSync> syncs;  // in consumer order: wait on event[producer] before consumer
  // clock[p * num_streams + s]: highest index on stream s known complete before task p starts.
  std::vector<int> clock;

  // Strict happens-before between two task positions (or kBeforeAll / kAfterAll).
  bool HappensBefore(int a, int b) const;
  // "s0: n0 n1 | s1: n2 ; sync n0->n2" — for tests.
  std::string ToString() const;
};

struct StreamAssignerInput {
  std::vector<std::vector<int>> deps;  // per position: positions of the tasks it reads from
  std::vector<bool> is_task;           // per position
  std::vector<int64_t> cost;           // per position: work estimate (output elements)
  int max_streams = kDefaultMaxStreams;
};

// A task continues the stream of a predecessor that is that stream's last task; otherwise it
// starts on the least-loaded stream. Deterministic.
Status AssignStreams(const StreamAssignerInput& in, StreamAssignment* out);

// What running `a`'s streams in parallel saves over one stream, by EstimateTaskNs: the total
// minus the busiest stream.
int64_t EstimateParallelGainNs(const StreamAssignerInput& in, const StreamAssignment& a);

}  // namespace ge

#endif  // GE_SRC_COMPILER_STREAM_ASSIGNER_H_
