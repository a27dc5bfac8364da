// The profiler behind `ge run/bench --profile`: a process-wide buffer of Chrome trace-event
// "complete" events (name, track, start, duration, args), written as JSON at the end.
//
// Off (the default) every probe is one relaxed atomic load (trace::Enabled()) and nothing else:
// no clock reading, no allocation, no lock. On, events go into one buffer under a mutex (the
// cost of profiling, not of the engine); past kMaxEvents further events are counted, not kept.
//
// Tracks (Chrome "tid"s of pid 1):
//   host threads   1..999     "host" (the first thread that records), "host thread N" after it:
//                             compile steps, and per node of a host segment infer shape / tiling /
//                             allocate / launch / fallback
//   model streams  1000 + s   "stream s": the tasks of sink segments' model stream s
//   host stream    1999       "host stream": kernels launched by host segments, as they execute
//   cores          2000 + c   "core c": each kernel block a core ran (core 0 is the submitting
//                             thread, which takes part in every launch)
#ifndef GE_SRC_BASE_TRACE_H_
#define GE_SRC_BASE_TRACE_H_

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <utility>

namespace ge::trace {

extern std::atomic<bool> g_enabled;
inline bool Enabled() { return g_enabled.load(std::memory_order_relaxed); }

constexpr size_t kMaxEvents = 2'000'000;
constexpr int kStreamTrack = 1000, kHostStreamTrack = 1999, kCoreTrack = 2000;

// Clears the buffer and starts recording (time 0 is now).
void Start();
// Stops recording and writes the events as a trace-event JSON object to `path`; false (with
// *error set) when the file cannot be written.
bool StopAndWrite(const std::string& path, std::string* error);
// Stops and drops the buffer.
void Stop();

using Clock = std::chrono::steady_clock;
// One complete event on `track`; `args` is a JSON object's text ("" for none).
void Record(int track, std::string name, Clock::time_point start, Clock::time_point end, std::string args = {});
// This thread's host track (assigned on first use).
int HostTrack();
// This thread's core index: set by the core pool for its threads (1..N-1); 0 otherwise.
int CoreIndex();
void SetCoreIndex(int index);

// JSON text helpers for args.
std::string Quote(const std::string& s);  // "..." with escapes

// A scope on this thread's host track; args() is called only when tracing is on.
template <typename ArgsFn>
class Scope {
 public:
  Scope(const char* name, ArgsFn args) : name_(name), args_(std::move(args)), on_(Enabled()) {
    if (on_) start_ = Clock::now();
  }
  ~Scope() { End(); }
  // Ends the scope early.
  void End() {
    if (on_) Record(HostTrack(), name_, start_, Clock::now(), args_());
    on_ = false;
  }
  Scope(const Scope&) = delete;
  Scope& operator=(const Scope&) = delete;

 private:
  const char* name_;
  ArgsFn args_;
  bool on_;
  Clock::time_point start_;
};

// A host-track scope without args.
class Step {
 public:
  explicit Step(const char* name) : name_(name), on_(Enabled()) {
    if (on_) start_ = Clock::now();
  }
  ~Step() {
    if (on_) Record(HostTrack(), name_, start_, Clock::now());
  }
  Step(const Step&) = delete;
  Step& operator=(const Step&) = delete;

 private:
  const char* name_;
  bool on_;
  Clock::time_point start_;
};

}  // namespace ge::trace

#endif  // GE_SRC_BASE_TRACE_H_
