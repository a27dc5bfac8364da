#include "base/trace.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>
#include <vector>

#include <fmt/format.h>

namespace ge::trace {

std::atomic<bool> g_enabled{false};

namespace {

struct Event {
  int track;
  std::string name;
  int64_t start_ns, dur_ns;
  std::string args;
};

struct Buffer {
  std::mutex mu;
  std::vector<Event> events;
  uint64_t dropped = 0;
  Clock::time_point origin = Clock::now();
  std::atomic<int> next_host{1};
  std::atomic<uint64_t> session{0};  // bumped by Start: host tracks are numbered per session
};

Buffer& Buf() {
  static Buffer* b = new Buffer();  // never destroyed: core threads may record during exit
  return *b;
}

thread_local int t_core = 0;
thread_local int t_host = 0;
thread_local uint64_t t_host_session = ~uint64_t{0};

std::string TrackName(int track) {
  if (track >= kCoreTrack) return fmt::format("core {}", track - kCoreTrack);
  if (track == kHostStreamTrack) return "host stream";
  if (track >= kStreamTrack) return fmt::format("stream {}", track - kStreamTrack);
  return track == 1 ? std::string("host") : fmt::format("host thread {}", track - 1);
}

}  // namespace

// Length of the valid UTF-8 sequence at s[i], 0 if it is not one.
static size_t Utf8Length(const std::string& s, size_t i) {
  const auto b = static_cast<unsigned char>(s[i]);
  const size_t len = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 0;
  if (len == 0 || i + len > s.size()) return 0;
  for (size_t k = 1; k < len; ++k)
    if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return 0;
  return len;
}

std::string Quote(const std::string& s) {
  std::string out = "\"";
  for (size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {  // valid UTF-8 as is; a stray byte as U+FFFD (the file stays valid JSON)
      const size_t len = Utf8Length(s, i);
      if (len == 0) {
        out += "\\ufffd";
      } else {
        out.append(s, i, len);
        i += len - 1;
      }
      continue;
    }
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20)
          out += fmt::format("\\u{:04x}", c);
        else
          out += static_cast<char>(c);
    }
  }
  out += '"';
  return out;
}

void Start() {
  Buffer& b = Buf();
  std::lock_guard<std::mutex> lk(b.mu);
  b.events.clear();
  b.dropped = 0;
  b.origin = Clock::now();
  b.next_host.store(1);
  ++b.session;
  g_enabled.store(true, std::memory_order_release);
}

void Stop() {
  g_enabled.store(false, std::memory_order_release);
  Buffer& b = Buf();
  std::lock_guard<std::mutex> lk(b.mu);
  std::vector<Event>().swap(b.events);
}

int HostTrack() {
  Buffer& b = Buf();
  // Sessions are started from one thread between runs; a stale number from an earlier session
  // is renumbered.
  if (t_host == 0 || t_host_session != b.session.load(std::memory_order_relaxed)) {
    std::lock_guard<std::mutex> lk(b.mu);
    t_host = std::min(b.next_host.fetch_add(1), kStreamTrack - 1);
    t_host_session = b.session.load(std::memory_order_relaxed);
  }
  return t_host;
}

int CoreIndex() { return t_core; }
void SetCoreIndex(int index) { t_core = index; }

void Record(int track, std::string name, Clock::time_point start, Clock::time_point end, std::string args) {
  Buffer& b = Buf();
  std::lock_guard<std::mutex> lk(b.mu);
  if (!Enabled()) return;
  if (b.events.size() >= kMaxEvents) {
    ++b.dropped;
    return;
  }
  const int64_t s = std::chrono::duration_cast<std::chrono::nanoseconds>(start - b.origin).count();
  const int64_t d = std::chrono::duration_cast<std::chrono::nanoseconds>(end - start).count();
  b.events.push_back(Event{track, std::move(name), std::max<int64_t>(s, 0), std::max<int64_t>(d, 0), std::move(args)});
}

bool StopAndWrite(const std::string& path, std::string* error) {
  g_enabled.store(false, std::memory_order_release);
  Buffer& b = Buf();
  std::vector<Event> events;
  uint64_t dropped;
  {
    std::lock_guard<std::mutex> lk(b.mu);
    events.swap(b.events);
    dropped = b.dropped;
  }
  // Per track by start time; an enclosing event (same start, longer) first, so nesting reads
  // in order.
  std::stable_sort(events.begin(), events.end(), [](const Event& a, const Event& c) {
    if (a.track != c.track) return a.track < c.track;
    if (a.start_ns != c.start_ns) return a.start_ns < c.start_ns;
    return a.dur_ns > c.dur_ns;
  });
  std::map<int, bool> tracks;
  for (const Event& e : events) tracks[e.track] = true;
  std::string out;
  out.reserve(events.size() * 128 + 1024);
  out += "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"tool\":\"ge\",\"dropped_events\":";
  out += std::to_string(dropped);
  out += "},\"traceEvents\":[\n";
  out += R"({"ph":"M","pid":1,"tid":0,"name":"process_name","args":{"name":"ge"}})";
  for (const auto& [track, unused] : tracks) {
    out += fmt::format(",\n{{\"ph\":\"M\",\"pid\":1,\"tid\":{},\"name\":\"thread_name\",\"args\":{{\"name\":{}}}}}",
                       track, Quote(TrackName(track)));
    out += fmt::format(
        ",\n{{\"ph\":\"M\",\"pid\":1,\"tid\":{},\"name\":\"thread_sort_index\",\"args\":{{\"sort_index\":{}}}}}", track,
        track);
  }
  for (const Event& e : events) {
    const char* cat = e.track >= kCoreTrack ? "core" : e.track >= kStreamTrack ? "stream" : "host";
    out += fmt::format(
        ",\n{{\"ph\":\"X\",\"pid\":1,\"tid\":{},\"cat\":\"{}\",\"name\":{},\"ts\":{}.{:03},\"dur\":{}.{:03}", e.track,
        cat, Quote(e.name), e.start_ns / 1000, e.start_ns % 1000, e.dur_ns / 1000, e.dur_ns % 1000);
    if (!e.args.empty()) out += ",\"args\":" + e.args;
    out += "}";
  }
  out += "\n]}\n";
  std::ofstream f(path, std::ios::binary);
  f << out;
  f.close();
  if (!f) {
    *error = fmt::format("--profile: cannot write '{}'", path);
    return false;
  }
  return true;
}

}  // namespace ge::trace
