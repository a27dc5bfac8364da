// make_model OUT.onnx OP_TYPE ARG...: writes a one-node ONNX model calling a custom operator
// (domain "com.ascend.compat"), for the compat port test (run_compat.py).
//   --in NAME:DTYPE:DIMS       a graph input ("-" as NAME: an omitted optional input)
//   --const NAME:DTYPE:DIMS:V,V,...  an initializer
//   --out NAME:DTYPE:DIMS      a graph output
//   --attr NAME:KIND:VALUE     KIND i (int), f (float), s (string), ints, floats
// DTYPE: float32, float16, int64, int32. DIMS: comma-separated; a name (N) is a symbolic dim.
#include <onnx/onnx_pb.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::vector<std::string> Split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, sep)) out.push_back(item);
  if (!s.empty() && s.back() == sep) out.push_back("");
  return out;
}

int ElemType(const std::string& d) {
  if (d == "float32") return onnx::TensorProto::FLOAT;
  if (d == "float16") return onnx::TensorProto::FLOAT16;
  if (d == "int64") return onnx::TensorProto::INT64;
  if (d == "int32") return onnx::TensorProto::INT32;
  std::cerr << "make_model: unknown dtype " << d << "\n";
  std::exit(2);
}

void SetType(onnx::ValueInfoProto* vi, const std::string& name, const std::string& dtype, const std::string& dims) {
  vi->set_name(name);
  auto* tt = vi->mutable_type()->mutable_tensor_type();
  tt->set_elem_type(ElemType(dtype));
  auto* shape = tt->mutable_shape();
  for (const auto& d : Split(dims, ',')) {
    if (d.empty()) continue;
    if (std::isdigit(static_cast<unsigned char>(d[0])))
      shape->add_dim()->set_dim_value(std::stoll(d));
    else
      shape->add_dim()->set_dim_param(d);
  }
}

void AddConst(onnx::GraphProto* g, const std::vector<std::string>& f) {
  auto* t = g->add_initializer();
  t->set_name(f[0]);
  t->set_data_type(ElemType(f[1]));
  for (const auto& d : Split(f[2], ','))
    if (!d.empty()) t->add_dims(std::stoll(d));
  for (const auto& v : Split(f[3], ',')) {
    if (v.empty()) continue;
    if (f[1] == "int64")
      t->add_int64_data(std::stoll(v));
    else if (f[1] == "int32")
      t->add_int32_data(std::stoi(v));
    else
      t->add_float_data(std::stof(v));
  }
}

void AddAttr(onnx::NodeProto* n, const std::vector<std::string>& f) {
  auto* a = n->add_attribute();
  a->set_name(f[0]);
  const std::string& kind = f[1];
  const std::string& v = f[2];
  if (kind == "i") {
    a->set_type(onnx::AttributeProto::INT);
    a->set_i(std::stoll(v));
  } else if (kind == "f") {
    a->set_type(onnx::AttributeProto::FLOAT);
    a->set_f(std::stof(v));
  } else if (kind == "s") {
    a->set_type(onnx::AttributeProto::STRING);
    a->set_s(v);
  } else if (kind == "ints") {
    a->set_type(onnx::AttributeProto::INTS);
    for (const auto& x : Split(v, ',')) a->add_ints(std::stoll(x));
  } else if (kind == "floats") {
    a->set_type(onnx::AttributeProto::FLOATS);
    for (const auto& x : Split(v, ',')) a->add_floats(std::stof(x));
  } else {
    std::cerr << "make_model: unknown attribute kind " << kind << "\n";
    std::exit(2);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: make_model OUT.onnx OP_TYPE [--in|--const|--out|--attr SPEC]...\n";
    return 2;
  }
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.set_producer_name("ge compat make_model");
  m.add_opset_import()->set_version(17);
  auto* dom = m.add_opset_import();
  dom->set_domain("com.ascend.compat");
  dom->set_version(1);
  auto* g = m.mutable_graph();
  g->set_name(argv[2]);
  auto* n = g->add_node();
  n->set_name(std::string(argv[2]) + "_0");
  n->set_op_type(argv[2]);
  n->set_domain("com.ascend.compat");
  for (int i = 3; i + 1 < argc; i += 2) {
    std::string flag = argv[i];
    std::vector<std::string> f = Split(argv[i + 1], ':');
    if (flag == "--in") {
      if (f[0] == "-") {
        n->add_input("");
        continue;
      }
      SetType(g->add_input(), f[0], f[1], f[2]);
      n->add_input(f[0]);
    } else if (flag == "--const") {
      AddConst(g, f);
      n->add_input(f[0]);
    } else if (flag == "--out") {
      SetType(g->add_output(), f[0], f[1], f[2]);
      n->add_output(f[0]);
    } else if (flag == "--attr") {
      AddAttr(n, f);
    } else {
      std::cerr << "make_model: unknown flag " << flag << "\n";
      return 2;
    }
  }
  std::ofstream out(argv[1], std::ios::binary);
  if (!m.SerializeToOstream(&out)) {
    std::cerr << "make_model: cannot write " << argv[1] << "\n";
    return 1;
  }
  return 0;
}
