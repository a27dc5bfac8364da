// Writes custom_op_static.onnx (x, y: float[2, 8]) and custom_op_dynamic.onnx (x, y:
// float[N, 8]): z = CustomOp(x, y) in the custom domain "com.example.custom", then Relu.
#include <onnx/onnx_pb.h>

#include <fstream>
#include <iostream>
#include <string>

namespace {

void AddInput(onnx::GraphProto* g, const std::string& name, bool dynamic, bool is_output = false) {
  auto* vi = is_output ? g->add_output() : g->add_input();
  vi->set_name(name);
  auto* tt = vi->mutable_type()->mutable_tensor_type();
  tt->set_elem_type(onnx::TensorProto::FLOAT);
  auto* s = tt->mutable_shape();
  if (dynamic)
    s->add_dim()->set_dim_param("N");
  else
    s->add_dim()->set_dim_value(2);
  s->add_dim()->set_dim_value(8);
}

bool Write(const std::string& path, bool dynamic) {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.set_producer_name("ge custom_op example");
  auto* op = m.add_opset_import();
  op->set_domain("");
  op->set_version(17);
  auto* custom = m.add_opset_import();
  custom->set_domain("com.example.custom");
  custom->set_version(1);
  auto* g = m.mutable_graph();
  g->set_name(dynamic ? "custom_op_dynamic" : "custom_op_static");
  AddInput(g, "x", dynamic);
  AddInput(g, "y", dynamic);
  auto* n = g->add_node();
  n->set_name("custom");
  n->set_op_type("CustomOp");
  n->set_domain("com.example.custom");
  n->add_input("x");
  n->add_input("y");
  n->add_output("s");
  auto* r = g->add_node();
  r->set_name("relu");
  r->set_op_type("Relu");
  r->add_input("s");
  r->add_output("z");
  AddInput(g, "z", dynamic, true);
  std::ofstream f(path, std::ios::binary);
  return m.SerializeToOstream(&f);
}

}  // namespace

int main(int argc, char** argv) {
  std::string dir = argc > 1 ? argv[1] : ".";
  if (!Write(dir + "/custom_op_static.onnx", false) || !Write(dir + "/custom_op_dynamic.onnx", true)) {
    std::cerr << "make_models: cannot write to " << dir << "\n";
    return 1;
  }
  std::cout << "wrote " << dir << "/custom_op_static.onnx and custom_op_dynamic.onnx\n";
  return 0;
}
