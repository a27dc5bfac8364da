// Calls the generated aclnnAxpyOpt: main LIB X.npy BIAS.npy|- OUT.npy ALPHA WITH_RELU
#include <cstdlib>

#include "../../app/app_util.h"
#include "aclnn_axpy_opt.h"

int main(int argc, char** argv)
{
    if (argc != 7) {
        std::fprintf(stderr, "usage: %s LIB X.npy BIAS.npy|- OUT.npy ALPHA WITH_RELU\n", argv[0]);
        return 2;
    }
    aclrtStream stream = nullptr;
    if (!compat_app::Init(argv[1], &stream)) return 1;
    compat_app::HostArray hx, hb;
    CHECK_RET(compat_app::LoadNpy(argv[2], &hx), "LoadNpy x");
    bool hasBias = std::string(argv[3]) != "-";
    compat_app::DeviceTensor x, bias, y;
    CHECK_RET(compat_app::ToDevice(hx, &x), "ToDevice x");
    if (hasBias) {
        CHECK_RET(compat_app::LoadNpy(argv[3], &hb) && compat_app::ToDevice(hb, &bias), "bias");
    }
    CHECK_RET(compat_app::NewOutput(hx.descr, hx.shape, &y), "NewOutput");

    uint64_t workspaceSize = 0;
    aclOpExecutor* executor = nullptr;
    double alpha = std::atof(argv[5]);
    bool withRelu = std::atoi(argv[6]) != 0;
    CHECK_RET(aclnnAxpyOptGetWorkspaceSize(x.tensor, hasBias ? bias.tensor : nullptr, alpha, withRelu, y.tensor,
                                           &workspaceSize, &executor) == ACLNN_SUCCESS,
              "aclnnAxpyOptGetWorkspaceSize");
    if (compat_app::RunPhase2(aclnnAxpyOpt, workspaceSize, executor, stream) != 0) return 1;
    CHECK_RET(compat_app::SaveOutput(argv[4], &y), "SaveOutput");
    return 0;
}
