// The device singleton: configuration from the environment, handle registries.
#include "runtime/device.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <thread>
#include <vector>

#include "base/error_message.h"
#include "base/log.h"
#include "runtime/spin_wait.h"

namespace ge::rt {
namespace {

uint64_t EnvU64(const char* name, uint64_t fallback) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return fallback;
  char* end = nullptr;
  unsigned long long x = std::strtoull(v, &end, 10);
  if (end == v || *end != '\0') {
    GELOGW("ignoring {}={}: not a non-negative integer", name, v);
    return fallback;
  }
  return x;
}

}  // namespace

int64_t SpinMicros() {
  static const int64_t us = static_cast<int64_t>(EnvU64("GE_DEVICE_SPIN_US", 300));
  return us;
}

uint32_t Device::DefaultCoreNum() {
  const uint32_t hw = std::max(1u, std::thread::hardware_concurrency());
  const uint64_t env = EnvU64("GE_DEVICE_CORES", 0);
  return env == 0 ? hw : static_cast<uint32_t>(std::min<uint64_t>(env, 1024));
}

Device::Device()
    : pool_(DefaultCoreNum()),
      memory_(static_cast<size_t>(EnvU64("GE_DEVICE_MEM_LIMIT", 0))),
      default_stream_(std::make_unique<Stream>(&pool_)) {
  GELOGI("CPU device started: {} cores, memory limit {} bytes", pool_.size(), memory_.limit());
}

Device& Device::Get() {
  static Device* device = new Device();  // never destroyed: see the header
  return *device;
}

void Device::SetCoreNum(uint32_t num_cores) {
  const uint32_t n = num_cores == 0 ? DefaultCoreNum() : std::min(num_cores, 1024u);
  if (n != pool_.size()) pool_.Resize(n);
}

Stream* Device::CreateStream() {
  auto stream = std::make_shared<Stream>(&pool_);
  Stream* raw = stream.get();
  std::unique_lock lk(mu_);
  streams_.emplace(raw, std::move(stream));
  return raw;
}

aclError Device::DestroyStream(void* handle) {
  std::shared_ptr<Stream> stream;
  {
    std::unique_lock lk(mu_);
    auto it = streams_.find(handle);
    if (it == streams_.end()) {
      SetRecentErrMsg(fmt::format("aclrtDestroyStream: {} is not a live stream", handle));
      return ACL_ERROR_RT_PARAM_INVALID;
    }
    stream = std::move(it->second);
    streams_.erase(it);
  }
  aclError ret = stream->Synchronize();
  stream.reset();  // joins the stream thread (unless Synchronize() holds another reference)
  return ret;
}

Stream* Device::FindStream(void* handle, const char* what) {
  if (handle == nullptr) return default_stream_.get();
  std::shared_lock lk(mu_);
  auto it = streams_.find(handle);
  if (it != streams_.end()) return it->second.get();
  SetRecentErrMsg(fmt::format("{}: {} is not a live stream", what, handle));
  return nullptr;
}

aclError Device::Synchronize() {
  std::vector<std::shared_ptr<Stream>> all;
  {
    std::shared_lock lk(mu_);
    all.reserve(streams_.size());
    for (auto& [h, s] : streams_) all.push_back(s);
  }
  aclError first = default_stream_->Synchronize();
  for (auto& s : all) {
    aclError ret = s->Synchronize();
    if (first == ACL_SUCCESS) first = ret;
  }
  return first;
}

void* Device::CreateEvent() {
  auto event = std::make_shared<Event>();
  void* raw = event.get();
  std::unique_lock lk(mu_);
  events_.emplace(raw, std::move(event));
  return raw;
}

aclError Device::DestroyEvent(void* handle) {
  std::unique_lock lk(mu_);
  if (events_.erase(handle) == 0) {
    SetRecentErrMsg(fmt::format("aclrtDestroyEvent: {} is not a live event", handle));
    return ACL_ERROR_RT_PARAM_INVALID;
  }
  return ACL_SUCCESS;  // pending records/waits hold their own reference
}

std::shared_ptr<Event> Device::FindEvent(void* handle, const char* what) {
  if (handle != nullptr) {
    std::shared_lock lk(mu_);
    auto it = events_.find(handle);
    if (it != events_.end()) return it->second;
  }
  SetRecentErrMsg(fmt::format("{}: {} is not a live event", what, handle));
  return nullptr;
}

Model* Device::CreateModel(uint32_t num_streams, uint32_t num_events) {
  auto model = std::make_unique<Model>(&pool_, num_streams, num_events);
  Model* raw = model.get();
  std::unique_lock lk(mu_);
  models_.emplace(raw, std::move(model));
  return raw;
}

aclError Device::DestroyModel(void* handle) {
  std::unique_ptr<Model> model;
  {
    std::unique_lock lk(mu_);
    auto it = models_.find(handle);
    if (it == models_.end()) {
      SetRecentErrMsg(fmt::format("aclmdlRIDestroy: {} is not a live model", handle));
      return ACL_ERROR_RT_PARAM_INVALID;
    }
    model = std::move(it->second);
    models_.erase(it);
  }
  model.reset();  // waits for pending asynchronous executions
  return ACL_SUCCESS;
}

Model* Device::FindModel(void* handle, const char* what) {
  if (handle != nullptr) {
    std::shared_lock lk(mu_);
    auto it = models_.find(handle);
    if (it != models_.end()) return it->second.get();
  }
  SetRecentErrMsg(fmt::format("{}: {} is not a live model", what, handle));
  return nullptr;
}

}  // namespace ge::rt
