// Calls the generated aclnnLayerNormCustom: main LIB X.npy GAMMA.npy BETA.npy|- OUT.npy EPSILON
#include <cstdlib>

#include "../../app/app_util.h"
#include "aclnn_layer_norm_custom.h"

int main(int argc, char** argv)
{
    if (argc != 7) {
        std::fprintf(stderr, "usage: %s LIB X.npy GAMMA.npy BETA.npy|- OUT.npy EPSILON\n", argv[0]);
        return 2;
    }
    aclrtStream stream = nullptr;
    if (!compat_app::Init(argv[1], &stream)) return 1;
    compat_app::HostArray hx, hg, hb;
    CHECK_RET(compat_app::LoadNpy(argv[2], &hx) && compat_app::LoadNpy(argv[3], &hg), "LoadNpy");
    bool hasBeta = std::string(argv[4]) != "-";
    compat_app::DeviceTensor x, gamma, beta, y;
    CHECK_RET(compat_app::ToDevice(hx, &x) && compat_app::ToDevice(hg, &gamma), "ToDevice");
    if (hasBeta) {
        CHECK_RET(compat_app::LoadNpy(argv[4], &hb) && compat_app::ToDevice(hb, &beta), "beta");
    }
    CHECK_RET(compat_app::NewOutput(hx.descr, hx.shape, &y), "NewOutput");
    uint64_t workspaceSize = 0;
    aclOpExecutor* executor = nullptr;
    CHECK_RET(aclnnLayerNormCustomGetWorkspaceSize(x.tensor, gamma.tensor, hasBeta ? beta.tensor : nullptr,
                                                   std::atof(argv[6]), y.tensor, &workspaceSize,
                                                   &executor) == ACLNN_SUCCESS,
              "aclnnLayerNormCustomGetWorkspaceSize");
    if (compat_app::RunPhase2(aclnnLayerNormCustom, workspaceSize, executor, stream) != 0) return 1;
    CHECK_RET(compat_app::SaveOutput(argv[5], &y), "SaveOutput");
    return 0;
}
