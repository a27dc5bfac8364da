// Calls the generated aclnnGeGluCustom: main LIB X.npy OUT.npy APPROXIMATE
#include <cstdlib>

#include "../../app/app_util.h"
#include "aclnn_ge_glu_custom.h"

int main(int argc, char** argv)
{
    if (argc != 5) {
        std::fprintf(stderr, "usage: %s LIB X.npy OUT.npy APPROXIMATE\n", argv[0]);
        return 2;
    }
    aclrtStream stream = nullptr;
    if (!compat_app::Init(argv[1], &stream)) return 1;
    compat_app::HostArray hx;
    CHECK_RET(compat_app::LoadNpy(argv[2], &hx), "LoadNpy");
    compat_app::DeviceTensor x, y;
    CHECK_RET(compat_app::ToDevice(hx, &x), "ToDevice");
    std::vector<int64_t> yShape = hx.shape;
    yShape.back() /= 2;
    CHECK_RET(compat_app::NewOutput(hx.descr, yShape, &y), "NewOutput");
    uint64_t workspaceSize = 0;
    aclOpExecutor* executor = nullptr;
    CHECK_RET(aclnnGeGluCustomGetWorkspaceSize(x.tensor, -1, std::atoll(argv[4]), y.tensor, &workspaceSize,
                                               &executor) == ACLNN_SUCCESS,
              "aclnnGeGluCustomGetWorkspaceSize");
    if (compat_app::RunPhase2(aclnnGeGluCustom, workspaceSize, executor, stream) != 0) return 1;
    CHECK_RET(compat_app::SaveOutput(argv[4 - 1], &y), "SaveOutput");
    return 0;
}
