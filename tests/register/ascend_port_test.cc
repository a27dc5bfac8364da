// The Ascend op-development surface GE provides beyond the seed: the tiling-data layout, the
// platform a tiling function sees, TilingParse's compile info, the per-op aclnn mode and SoC
// checks, ge::TypeUtils. Expected values are worked out by hand from the declarations.
#include <gtest/gtest.h>

#include <cstddef>
#include <sstream>

#include "aclnn/acl_meta.h"
#include "ge/log.h"
#include "graph/utils/type_utils.h"
#include "kernel_tiling/kernel_tiling.h"
#include "register/op_def.h"
#include "register/tilingdata_base.h"
#include "tiling/platform/platform_ascendc.h"

namespace port_test {
BEGIN_TILING_DATA_DEF(Inner)
TILING_DATA_FIELD_DEF(uint16_t, a);
TILING_DATA_FIELD_DEF(uint64_t, b);
END_TILING_DATA_DEF;
BEGIN_TILING_DATA_DEF(Outer)
TILING_DATA_FIELD_DEF(uint8_t, flag);
TILING_DATA_FIELD_DEF_ARR(int32_t, 3, arr);
TILING_DATA_FIELD_DEF_STRUCT(Inner, inner);
TILING_DATA_FIELD_DEF(float, f);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(PortTestOp, Outer)

// The same fields as a plain C struct: the layout the kernel side must see.
struct OuterC {
  uint8_t flag;
  int32_t arr[3];
  struct {
    uint16_t a;
    uint64_t b;
  } inner;
  float f;
};
}  // namespace port_test

namespace ge::testing {
namespace {

TEST(TilingDataTest, FieldsHaveTheNaturalLayoutAndRoundTrip) {
  port_test::Outer t;
  EXPECT_EQ(t.GetDataSize(), sizeof(port_test::OuterC));  // 1+3pad+12+(8: 2+6pad)+8... = 40
  EXPECT_EQ(t.GetDataSize(), 40u);
  t.set_flag(7);
  const int32_t arr[3] = {-1, 2, 300000};
  t.set_arr(arr);
  t.inner.set_a(0xBEEF);
  t.inner.set_b(0x0102030405060708ULL);
  t.set_f(2.5f);
  std::vector<uint8_t> buf(64, 0xAA);
  t.SaveToBuffer(buf.data(), buf.size());
  port_test::OuterC c;
  std::memcpy(&c, buf.data(), sizeof(c));
  EXPECT_EQ(c.flag, 7);
  EXPECT_EQ(c.arr[2], 300000);
  EXPECT_EQ(c.inner.a, 0xBEEF);
  EXPECT_EQ(c.inner.b, 0x0102030405060708ULL);
  EXPECT_EQ(c.f, 2.5f);
  EXPECT_EQ(buf[40], 0xAA);  // nothing written past GetDataSize()
  GET_TILING_DATA_WITH_STRUCT(port_test::Outer, k, buf.data());
  EXPECT_EQ(k.get_arr()[0], -1);
  EXPECT_EQ(k.inner.get_b(), 0x0102030405060708ULL);
  // A buffer too small is left untouched.
  std::vector<uint8_t> small(8, 0x55);
  t.SaveToBuffer(small.data(), small.size());
  EXPECT_EQ(small[0], 0x55);
  auto& factory = optiling::CTilingDataClassFactory::GetInstance();
  EXPECT_EQ(factory.GetTilingDataSize("PortTestOp"), 40u);
  EXPECT_NE(factory.CreateTilingDataInstance("PortTestOp"), nullptr);
  EXPECT_EQ(factory.CreateTilingDataInstance("NoSuchOp"), nullptr);
}

TEST(PlatformTest, AnswersFromTheDevice) {
  platform_ascendc::PlatformAscendC p(GetDevicePlatformInfos(5));
  EXPECT_EQ(p.GetCoreNum(), 5u);
  EXPECT_EQ(p.GetCoreNumAic(), 5u);
  EXPECT_EQ(p.GetCoreNumAiv(), 5u);
  uint64_t ub = 0;
  p.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
  EXPECT_EQ(ub, 192u * 1024u);
  EXPECT_EQ(p.GetSocVersion(), platform_ascendc::SocVersion::ASCEND910B);
  EXPECT_EQ(p.GetLibApiWorkSpaceSize(), 0u);
  EXPECT_EQ(p.CalcTschBlockDim(7, 5, 5), 7u);    // one vector core per cube core
  EXPECT_EQ(p.CalcTschBlockDim(7, 20, 40), 4u);  // Ascend's 1:2 split: ceil(7 / 2)
  EXPECT_EQ(p.CalcTschBlockDim(7, 0, 40), 7u);
  std::string v;
  EXPECT_TRUE(p.GetPlatFormInfo()->GetPlatformRes("SoCInfo", "ai_core_cnt", v));
  EXPECT_EQ(v, "5");
}

TEST(PlatformTest, UbSizeIsConfigured) {
  setenv("GE_CORE_UB_SIZE", "65536", 1);
  platform_ascendc::PlatformAscendC p(GetDevicePlatformInfos(11));  // a core count not seen before
  unsetenv("GE_CORE_UB_SIZE");
  uint64_t ub = 0;
  p.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
  EXPECT_EQ(ub, 65536u);
}

struct ParseInfo {
  uint32_t cores = 0;
  int parses = 0;
};
int g_parse_calls = 0;
graphStatus ParseFunc(gert::TilingParseContext* ctx) {
  ++g_parse_calls;
  auto* info = ctx->GetCompiledInfo<ParseInfo>();
  info->cores = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo()).GetCoreNum();
  return GRAPH_SUCCESS;
}
graphStatus TilingReadsInfo(gert::TilingContext*) { return GRAPH_SUCCESS; }
IMPL_OP_OPTILING(PortParseOp).Tiling(TilingReadsInfo).TilingParse<ParseInfo>(ParseFunc);

TEST(TilingParseTest, RunsOncePerCoreCount) {
  const auto* a = static_cast<const ParseInfo*>(gert::GetOpCompileInfo("PortParseOp", 3));
  const auto* b = static_cast<const ParseInfo*>(gert::GetOpCompileInfo("PortParseOp", 3));
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a, b);
  EXPECT_EQ(a->cores, 3u);
  EXPECT_EQ(g_parse_calls, 1);
  gert::OpContextData d;
  d.node_type = "PortParseOp";
  d.core_num = 3;
  gert::TilingContext ctx(&d);
  EXPECT_EQ(ctx.GetCompileInfo<ParseInfo>(), a);
  EXPECT_EQ(gert::GetOpCompileInfo("UnregisteredOp", 3), nullptr);
}

class ModesDisagree : public ops::OpDef {
 public:
  explicit ModesDisagree(const char* n) : OpDef(n) {
    this->Input("x").DataType({DT_FLOAT});
    this->Output("y").DataType({DT_FLOAT}).Follow("x");
    ops::OpAICoreConfig only("ascend310p"), support("ascend610");
    only.ExtendCfgInfo("aclnnSupport.value", "aclnn_only");
    support.ExtendCfgInfo("aclnnSupport.value", "support_aclnn");
    this->AICore().AddConfig("ascend310p", only).AddConfig("ascend610", support);
    this->EnableFallBack();
  }
};
class DeviceOnly : public ops::OpDef {
 public:
  explicit DeviceOnly(const char* n) : OpDef(n) {
    this->Input("x").DataType({DT_FLOAT});
    this->Output("y").DataType({DT_FLOAT});
    // "kirinx90" sorts after "ascend910b": the device's config decides, not the order.
    ops::OpAICoreConfig support("ascend910b"), only("kirinx90");
    support.ExtendCfgInfo("aclnnSupport.value", "support_aclnn");
    support.Input("x").DataType({DT_FLOAT16});
    only.ExtendCfgInfo("aclnnSupport.value", "aclnn_only");
    this->AICore().AddConfig("ascend910b", support).AddConfig("kirinx90", only);
    this->EnableFallBack();
  }
};

TEST(OpDefTest, AclnnModeIsDecidedPerOp) {
  ModesDisagree disagree("ModesDisagree");
  EXPECT_EQ(disagree.GetAclnnSupport(), "support_aclnn");  // no config for this device; they disagree
  DeviceOnly dev("DeviceOnly");
  EXPECT_EQ(dev.GetAclnnSupport(), "support_aclnn");  // ascend910b's config, though kirinx90 sorts last
  dev.ApplyDeviceConfig();
  ASSERT_EQ(dev.GetInputs()[0].GetDataTypes().size(), 1u);
  EXPECT_EQ(dev.GetInputs()[0].GetDataTypes()[0], DT_FLOAT16);  // the device's per-SoC override
}

TEST(OpDefTest, UnknownSocNameWarns) {
  std::ostringstream out;
  const int id = AddLogCallback([&](LogLevel, const std::string& m) { out << m << "\n"; });
  ops::OpAICoreDef core;
  core.AddConfig("ascend910b");
  core.AddConfig("ascend9l0b");
  RemoveLogCallback(id);
  EXPECT_EQ(out.str().find("\"ascend910b\""), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("AddConfig(\"ascend9l0b\"): unknown SoC name"), std::string::npos) << out.str();
}

TEST(OpDefTest, ParamAndAttrDeclarationsAreKept) {
  ops::OpDef def("Decl");
  def.Input("x").DataTypeList({DT_FLOAT, DT_BF16}).FormatList({FORMAT_ND}).UnknownShapeFormat({FORMAT_NCHW});
  def.Input("s").Scalar().To(DT_FLOAT).ValueDepend(ops::OPTIONAL, ops::DependScope::TILING);
  def.Output("y").InitValue(ops::ScalarVar(ops::ScalarType::FLOAT32, 1.5f)).OutputShapeDependOnCompute();
  def.Attr("flags").ListBool({true, false, true});
  def.Attr("pairs").ListListInt({{1, 2}, {3}});
  EXPECT_EQ(def.GetInputs()[0].GetDataTypeList().size(), 2u);
  EXPECT_EQ(def.GetInputs()[0].GetFormats().size(), 0u);  // UnknownShapeFormat is its own list
  EXPECT_EQ(def.GetInputs()[0].GetUnknownShapeFormats()[0], FORMAT_NCHW);
  EXPECT_TRUE(def.GetInputs()[1].IsScalar());
  EXPECT_EQ(def.GetInputs()[1].GetDependScope(), ops::DependScope::TILING);
  EXPECT_EQ(def.GetOutputs()[0].GetInitValues()[0].AsDouble(), 1.5);
  EXPECT_EQ(def.GetAttrs()[0].GetDefault().bools, (std::vector<uint8_t>{1, 0, 1}));
  EXPECT_EQ(def.GetAttrs()[1].GetDefault().list_ints[1], std::vector<int64_t>{3});
}

TEST(TypeUtilsTest, NamesRoundTrip) {
  EXPECT_EQ(TypeUtils::DataTypeToSerialString(DT_FLOAT16), "DT_FLOAT16");
  EXPECT_EQ(TypeUtils::SerialStringToDataType("DT_BF16"), DT_BF16);
  EXPECT_EQ(TypeUtils::SerialStringToDataType("DT_NOPE"), DT_UNDEFINED);
  EXPECT_EQ(TypeUtils::FormatToSerialString(FORMAT_FRACTAL_NZ), "FRACTAL_NZ");
  EXPECT_EQ(TypeUtils::SerialStringToFormat("NCHW"), FORMAT_NCHW);
  EXPECT_STREQ(TypeUtils::DataTypeToAscendString(DT_INT64).GetString(), "DT_INT64");
  uint32_t len = 0;
  EXPECT_TRUE(TypeUtils::GetDataTypeLength(DT_BF16, len));
  EXPECT_EQ(len, 2u);
}

TEST(ShapeTest, IndexAndScalar) {
  gert::Shape s{2, 3, 4};
  EXPECT_EQ(s[1], 3);
  s[1] = 5;
  EXPECT_EQ(s.GetDim(1), 5);
  s.SetScalar();
  EXPECT_TRUE(s.IsScalar());
}

TEST(AclMetaTest, ViewGetters) {
  float storage[24] = {};
  const int64_t view[] = {2, 3}, strides[] = {1, 4}, dims[] = {4, 6};
  aclTensor* t = aclCreateTensor(view, 2, ACL_FLOAT16, strides, 5, ACL_FORMAT_FRACTAL_NZ, dims, 2, storage);
  ASSERT_NE(t, nullptr);
  int64_t* got = nullptr;
  uint64_t n = 0;
  ASSERT_EQ(aclGetStorageShape(t, &got, &n), ACLNN_SUCCESS);
  EXPECT_EQ(std::vector<int64_t>(got, got + n), (std::vector<int64_t>{4, 6}));
  delete[] got;
  ASSERT_EQ(aclGetViewStrides(t, &got, &n), ACLNN_SUCCESS);
  EXPECT_EQ(std::vector<int64_t>(got, got + n), (std::vector<int64_t>{1, 4}));
  delete[] got;
  int64_t offset = 0;
  EXPECT_EQ(aclGetViewOffset(t, &offset), ACLNN_SUCCESS);
  EXPECT_EQ(offset, 5);
  aclFormat format = ACL_FORMAT_ND;
  EXPECT_EQ(aclGetFormat(t, &format), ACLNN_SUCCESS);
  EXPECT_EQ(format, ACL_FORMAT_FRACTAL_NZ);
  EXPECT_NE(aclGetViewOffset(nullptr, &offset), ACLNN_SUCCESS);
  aclDestroyTensor(t);
  const bool flags[] = {true, false, true};
  aclBoolArray* b = aclCreateBoolArray(flags, 3);
  EXPECT_EQ(aclGetBoolArraySize(b, &n), ACLNN_SUCCESS);
  EXPECT_EQ(n, 3u);
  aclDestroyBoolArray(b);
}

int g_registered_checks = 0;
graphStatus RegisteredCheck(const Operator&, AscendString& result) {
  ++g_registered_checks;
  result = AscendString(R"({"ret_code": "1"})");
  return GRAPH_SUCCESS;
}
optiling::OpCheckFuncHelper g_check_helper(FUNC_CHECK_SUPPORTED, "PortCheckedOp", RegisteredCheck);

TEST(OpDefTest, CheckFunctionsRegisteredByHelper) {
  EXPECT_EQ(optiling::GetRegisteredOpCheckFunc(FUNC_CHECK_SUPPORTED, "PortCheckedOp"), &RegisteredCheck);
  EXPECT_EQ(optiling::GetRegisteredOpCheckFunc(FUNC_OP_SELECT_FORMAT, "PortCheckedOp"), nullptr);
}

}  // namespace
}  // namespace ge::testing
