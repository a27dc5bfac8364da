// Calls the generated aclnnMatmulBiasCustom: main LIB A.npy B.npy BIAS.npy OUT.npy TRANS_A TRANS_B
#include <cstdlib>

#include "../../app/app_util.h"
#include "aclnn_matmul_bias_custom.h"

int main(int argc, char** argv)
{
    if (argc != 8) {
        std::fprintf(stderr, "usage: %s LIB A.npy B.npy BIAS.npy OUT.npy TRANS_A TRANS_B\n", argv[0]);
        return 2;
    }
    aclrtStream stream = nullptr;
    if (!compat_app::Init(argv[1], &stream)) return 1;
    bool transA = std::atoi(argv[6]) != 0, transB = std::atoi(argv[7]) != 0;
    compat_app::HostArray ha, hb, hbias;
    CHECK_RET(compat_app::LoadNpy(argv[2], &ha) && compat_app::LoadNpy(argv[3], &hb) &&
                  compat_app::LoadNpy(argv[4], &hbias),
              "LoadNpy");
    compat_app::DeviceTensor a, b, bias, c;
    CHECK_RET(compat_app::ToDevice(ha, &a) && compat_app::ToDevice(hb, &b) && compat_app::ToDevice(hbias, &bias),
              "ToDevice");
    std::vector<int64_t> cShape;
    cShape.push_back(transA ? ha.shape[1] : ha.shape[0]);
    cShape.push_back(transB ? hb.shape[0] : hb.shape[1]);
    CHECK_RET(compat_app::NewOutput("<f4", cShape, &c), "NewOutput");
    uint64_t workspaceSize = 0;
    aclOpExecutor* executor = nullptr;
    CHECK_RET(aclnnMatmulBiasCustomGetWorkspaceSize(a.tensor, b.tensor, bias.tensor, transA, transB, c.tensor,
                                                    &workspaceSize, &executor) == ACLNN_SUCCESS,
              "aclnnMatmulBiasCustomGetWorkspaceSize");
    if (compat_app::RunPhase2(aclnnMatmulBiasCustom, workspaceSize, executor, stream) != 0) return 1;
    CHECK_RET(compat_app::SaveOutput(argv[5], &c), "SaveOutput");
    return 0;
}
