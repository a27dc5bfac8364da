// ONNX models built in code that several test layers share (header-only: tests/common is on
// every test binary's include path and holds no test of its own).
#ifndef GE_TESTS_COMMON_ONNX_TEST_MODELS_H_
#define GE_TESTS_COMMON_ONNX_TEST_MODELS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "onnx/onnx_pb.h"

namespace ge::testing {

// A tensor value of element type `elem` with fixed dims.
inline void ValueInfo(onnx::ValueInfoProto* v, const std::string& name, int elem, const std::vector<int64_t>& dims) {
  v->set_name(name);
  auto* tt = v->mutable_type()->mutable_tensor_type();
  tt->set_elem_type(elem);
  tt->mutable_shape();
  for (int64_t d : dims) tt->mutable_shape()->add_dim()->set_dim_value(d);
}

// y = Loop(M absent, cond = true, x) named "forever", its body y = x + 1 with cond passed
// through: it never ends. The serialized ModelProto.
inline std::string InfiniteLoopModel() {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(17);
  auto* g = m.mutable_graph();
  g->set_name("forever");
  ValueInfo(g->add_input(), "x", onnx::TensorProto::FLOAT, {1});
  ValueInfo(g->add_output(), "y", onnx::TensorProto::FLOAT, {1});
  auto* cond = g->add_initializer();
  cond->set_name("cond");
  cond->set_data_type(onnx::TensorProto::BOOL);
  cond->add_int32_data(1);
  auto* loop = g->add_node();
  loop->set_op_type("Loop");
  loop->set_name("forever");
  loop->add_input("");
  loop->add_input("cond");
  loop->add_input("x");
  loop->add_output("y");
  auto* attr = loop->add_attribute();
  attr->set_name("body");
  attr->set_type(onnx::AttributeProto::GRAPH);
  auto* body = attr->mutable_g();
  body->set_name("body");
  ValueInfo(body->add_input(), "i", onnx::TensorProto::INT64, {});
  ValueInfo(body->add_input(), "c_in", onnx::TensorProto::BOOL, {});
  ValueInfo(body->add_input(), "x_in", onnx::TensorProto::FLOAT, {1});
  ValueInfo(body->add_output(), "c_out", onnx::TensorProto::BOOL, {});
  ValueInfo(body->add_output(), "x_out", onnx::TensorProto::FLOAT, {1});
  auto* one = body->add_initializer();
  one->set_name("one");
  one->set_data_type(onnx::TensorProto::FLOAT);
  one->add_dims(1);
  one->add_float_data(1.f);
  auto* id = body->add_node();
  id->set_op_type("Identity");
  id->add_input("c_in");
  id->add_output("c_out");
  auto* add = body->add_node();
  add->set_op_type("Add");
  add->add_input("x_in");
  add->add_input("one");
  add->add_output("x_out");
  return m.SerializeAsString();
}

}  // namespace ge::testing

#endif  // GE_TESTS_COMMON_ONNX_TEST_MODELS_H_
