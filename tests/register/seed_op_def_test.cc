// The seed example from the Ascend documentation compiles exactly as written and registers
// what it declares.
#include <gtest/gtest.h>

#include <algorithm>

#include "register/op_def_registry.h"

namespace ge {
static graphStatus InferShapeFunc(gert::InferShapeContext* context) {
  *context->GetOutputShape(0) = *context->GetInputShape(0);
  return GRAPH_SUCCESS;
}
static graphStatus InferDataTypeFunc(gert::InferDataTypeContext* context) {
  return context->SetOutputDataType(0, context->GetInputDataType(0));
}
}  // namespace ge

namespace ops {
// ---- the seed, as written ----
// clang-format off
class CustomOp : public OpDef { public: CustomOp(const char* name) : OpDef(name) {
  this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
  this->Input("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
  this->Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
  this->SetInferShape(ge::InferShapeFunc); this->SetInferDataType(ge::InferDataTypeFunc);
  this->AICore().AddConfig("ascendxxx"); this->EnableFallBack(); } };
OP_ADD(CustomOp);
// clang-format on
// ---- end of seed ----
}  // namespace ops

namespace {

TEST(SeedOpDef, RegistersPrototype) {
  auto def = ops::GetOpDef("CustomOp");
  ASSERT_NE(def, nullptr);
  EXPECT_EQ(def->GetOpType(), "CustomOp");
  ASSERT_EQ(def->GetInputs().size(), 2u);
  EXPECT_EQ(def->GetInputs()[0].GetName(), "x");
  EXPECT_EQ(def->GetInputs()[1].GetName(), "y");
  EXPECT_EQ(def->GetInputs()[0].GetParamType(), ops::REQUIRED);
  EXPECT_EQ(def->GetInputs()[0].GetDataTypes(), std::vector<ge::DataType>{ge::DT_FLOAT});
  EXPECT_EQ(def->GetInputs()[0].GetFormats(), std::vector<ge::Format>{ge::FORMAT_ND});
  ASSERT_EQ(def->GetOutputs().size(), 1u);
  EXPECT_EQ(def->GetOutputs()[0].GetName(), "z");
  EXPECT_TRUE(def->IsFallBackEnabled());
  EXPECT_EQ(def->GetAclnnSupport(), "support_aclnn");
  EXPECT_EQ(def->GetAICore().GetConfigs().count("ascendxxx"), 1u);
}

TEST(SeedOpDef, RegistryReturnsItsFunctions) {
  auto registry = gert::DefaultOpImplSpaceRegistryV2::GetInstance().GetSpaceRegistry();
  const auto* impl = registry->GetOpImpl("CustomOp");
  ASSERT_NE(impl, nullptr);
  EXPECT_EQ(impl->infer_shape, &ge::InferShapeFunc);
  EXPECT_EQ(impl->infer_datatype, &ge::InferDataTypeFunc);
  EXPECT_EQ(registry->GetOpImpl("NoSuchOp"), nullptr);
}

TEST(SeedOpDef, InferShapeRunsThroughContext) {
  gert::Tensor x(gert::StorageShape({2, 3}, {2, 3}), ge::DT_FLOAT, ge::FORMAT_ND, nullptr);
  gert::Tensor y = x, z;
  gert::OpContextData data;
  data.inputs = {&x, &y};
  data.outputs = {&z};
  gert::InferShapeContext ctx(&data);
  const auto* impl = gert::DefaultOpImplSpaceRegistryV2::GetInstance().GetSpaceRegistry()->GetOpImpl("CustomOp");
  ASSERT_EQ(impl->infer_shape(&ctx), ge::GRAPH_SUCCESS);
  EXPECT_EQ(z.GetStorageShape(), gert::Shape({2, 3}));
  gert::InferDataTypeContext dctx(&data);
  ASSERT_EQ(impl->infer_datatype(&dctx), ge::GRAPH_SUCCESS);
  EXPECT_EQ(z.GetDataType(), ge::DT_FLOAT);
}

TEST(OpDefAttrs, AclnnOnlyConfig) {
  ops::OpDef def("Tmp");
  ops::OpAICoreConfig cfg;
  cfg.ExtendCfgInfo("aclnnSupport.value", "aclnn_only");
  def.AICore().AddConfig("ascend910b", cfg);
  def.EnableFallBack();
  EXPECT_EQ(def.GetAclnnSupport(), "aclnn_only");
  ops::OpDef plain("Tmp2");
  EXPECT_EQ(plain.GetAclnnSupport(), "");
}

TEST(RuntimeAttrs, TypedAccessByIndex) {
  gert::RuntimeAttrs attrs;
  gert::RuntimeAttrValue i, l, f;
  i.kind = gert::RuntimeAttrValue::kInt;
  i.i = 7;
  l.kind = gert::RuntimeAttrValue::kListInt;
  l.ints = {1, 2, 3};
  f.kind = gert::RuntimeAttrValue::kFloat;
  f.f = 0.5f;
  attrs.Append("axis", i, true);
  attrs.Append("pads", l, false);
  attrs.Append("alpha", f, true);
  ASSERT_NE(attrs.GetInt(0), nullptr);
  EXPECT_EQ(*attrs.GetInt(0), 7);
  EXPECT_EQ(attrs.GetFloat(0), nullptr);  // wrong kind
  ASSERT_NE(attrs.GetListInt(1), nullptr);
  EXPECT_EQ(attrs.GetListInt(1)->GetSize(), 3u);
  EXPECT_EQ(attrs.GetListInt(1)->GetData()[2], 3);
  EXPECT_FLOAT_EQ(*attrs.GetAttrPointer<float>(2), 0.5f);
  EXPECT_FALSE(attrs.IsSet(1));
  EXPECT_EQ(attrs.GetInt(5), nullptr);
}

}  // namespace

// Built-in operators copy shared dtype lists (kAllTypes, kFloatTypes) when OP_ADD runs at static
// initialization; the lists must be initialized by then, or the OpDef ends up with an empty
// list ("any dtype") and the dtype check before a run never fires.
TEST(OpDefRegistration, BuiltinOpsCarryTheirDtypeLists) {
  for (const char* type : {"Trilu", "CumSum", "Transpose", "Sqrt", "Cast", "ReverseSequence"}) {
    auto def = ops::GetOpDef(type);
    ASSERT_NE(def, nullptr) << type;
    ASSERT_FALSE(def->GetInputs().empty()) << type;
    const auto& dtypes = def->GetInputs()[0].GetDataTypes();
    EXPECT_GE(dtypes.size(), 4u) << type;
    EXPECT_NE(std::find(dtypes.begin(), dtypes.end(), ge::DT_FLOAT), dtypes.end()) << type;
  }
  const auto& cast_in = ops::GetOpDef("Cast")->GetInputs()[0].GetDataTypes();
  EXPECT_NE(std::find(cast_in.begin(), cast_in.end(), ge::DT_STRING), cast_in.end());
  const auto& trilu_in = ops::GetOpDef("Trilu")->GetInputs()[0].GetDataTypes();
  EXPECT_EQ(std::find(trilu_in.begin(), trilu_in.end(), ge::DT_STRING), trilu_in.end());
}
