// Unit-test helpers of the fallback path (register/fallback_hook.h, compiler/placement.h): a graph
// run through static inference, the fallback decision and the host executor, with what the
// executor counted; and the public single-op helpers of tests/opapi.
#ifndef GE_SRC_OPAPI_FALLBACK_TEST_UTIL_H_
#define GE_SRC_OPAPI_FALLBACK_TEST_UTIL_H_

#include "compiler/placement.h"
#include "compiler/static_inference.h"
#include "executor/device_tensor.h"
#include "executor/host_executor.h"
#include "opapi_test_util.h"

namespace ge::testing {

// Compiles `graph` (static inference + fallback decision) and runs it on the host executor.
struct GraphRun {
  Status status;
  std::vector<Placement> placement;
  std::vector<HostTensor> outputs;
  HostNodeStats stats;
};
inline GraphRun CompileAndRun(std::shared_ptr<Graph> graph, const CompileOptions& opt,
                              const std::vector<HostTensor>& inputs) {
  GraphRun r;
  r.status = RunStaticInference(graph.get());
  if (r.status.ok()) r.status = DecidePlacement(*graph, opt, &r.placement);
  std::unique_ptr<HostExecutor> ex;
  if (r.status.ok()) r.status = HostExecutor::Create(graph, &r.placement, &ex);
  if (r.status.ok()) r.status = ex->Run(inputs, &r.outputs);
  if (ex) r.stats = ex->stats();
  return r;
}

inline HostTensor FloatTensor(std::vector<int64_t> dims, const std::vector<float>& v) {
  return HostTensor::FromBytes(DT_FLOAT, Shape(std::move(dims)), v.data(), v.size() * sizeof(float));
}
inline std::vector<float> ToFloats(const HostTensor& t) {
  const float* p = t.data_as<float>();
  return std::vector<float>(p, p + t.NumElements());
}

}  // namespace ge::testing

#endif  // GE_SRC_OPAPI_FALLBACK_TEST_UTIL_H_
