// Helpers for operator tests: host tensors from literal values, and a model of one node whose
// inputs are graph inputs, built for a given mode.
#ifndef GE_TESTS_OPS_OPS_TEST_UTIL_H_
#define GE_TESTS_OPS_OPS_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "ge/graph.h"
#include "ge/model.h"

namespace ge::testing {

template <typename T>
inline HostTensor Tensor(DataType dt, std::vector<int64_t> dims, std::vector<T> vals) {
  HostTensor t(dt, Shape(dims));
  EXPECT_EQ(t.NumBytes(), vals.size() * sizeof(T));
  if (!vals.empty()) std::memcpy(t.mutable_data(), vals.data(), t.NumBytes());
  return t;
}
inline HostTensor F32(std::vector<int64_t> dims, std::vector<float> v) { return Tensor(DT_FLOAT, std::move(dims), v); }
inline HostTensor I64(std::vector<int64_t> dims, std::vector<int64_t> v) {
  return Tensor(DT_INT64, std::move(dims), v);
}
inline HostTensor I32(std::vector<int64_t> dims, std::vector<int32_t> v) {
  return Tensor(DT_INT32, std::move(dims), v);
}

template <typename T>
std::vector<T> Values(const HostTensor& t) {
  const T* p = t.data_as<T>();
  return std::vector<T>(p, p + t.NumElements());
}
inline std::vector<float> Floats(const HostTensor& t) { return Values<float>(t); }

// Runs the node in `mode`; fails the test on an error.
inline std::vector<HostTensor> RunOne(const struct OneNode& n, const std::string& mode);

// One node of `type` named "n": its inputs are graph inputs shaped like `inputs`, its output the
// graph output.
struct OneNode {
  std::string type;
  std::vector<HostTensor> inputs;
  AttrMap attrs;
  std::vector<int64_t> out_dims;
};

inline std::unique_ptr<Model> Build(const OneNode& n, const std::string& mode, Status* st) {
  auto g = std::make_shared<Graph>("g");
  std::vector<ValueId> ins;
  for (size_t i = 0; i < n.inputs.size(); ++i)
    ins.push_back(
        g->AddInput("in" + std::to_string(i), TensorDesc{n.inputs[i].dtype(), FORMAT_ND, n.inputs[i].shape()}));
  ValueId out = g->AddValue("out", TensorDesc{n.inputs[0].dtype(), FORMAT_ND, Shape(n.out_dims)});
  g->AddNode("n", n.type, ins, {out}, n.attrs);
  g->AddOutput(out);
  ModelOptions opt;
  opt.mode = mode;
  std::unique_ptr<Model> m;
  *st = Model::FromGraph(g, opt, &m);
  return m;
}

inline std::vector<HostTensor> RunOne(const OneNode& n, const std::string& mode) {
  Status st;
  auto m = Build(n, mode, &st);
  EXPECT_TRUE(st.ok()) << mode << ": " << st.message();
  std::vector<HostTensor> out;
  if (!st.ok()) return out;
  st = m->Run(n.inputs, &out);
  EXPECT_TRUE(st.ok()) << mode << ": " << st.message();
  return out;
}

}  // namespace ge::testing

#endif  // GE_TESTS_OPS_OPS_TEST_UTIL_H_
