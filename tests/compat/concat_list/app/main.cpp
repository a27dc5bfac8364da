// Calls the generated aclnnConcatListCustom: main LIB X0.npy X1.npy X2.npy OUT.npy CONCAT_DIM
#include <cstdlib>

#include "../../app/app_util.h"
#include "aclnn_concat_list_custom.h"

int main(int argc, char** argv)
{
    if (argc != 7) {
        std::fprintf(stderr, "usage: %s LIB X0.npy X1.npy X2.npy OUT.npy CONCAT_DIM\n", argv[0]);
        return 2;
    }
    aclrtStream stream = nullptr;
    if (!compat_app::Init(argv[1], &stream)) return 1;
    int64_t dim = std::atoll(argv[6]);
    compat_app::DeviceTensor xs[3], y;
    std::vector<int64_t> yShape;
    for (int i = 0; i < 3; ++i) {
        compat_app::HostArray h;
        CHECK_RET(compat_app::LoadNpy(argv[2 + i], &h) && compat_app::ToDevice(h, &xs[i]), "input");
        if (i == 0) {
            yShape = h.shape;
        } else {
            yShape[dim] += h.shape[dim];
        }
    }
    CHECK_RET(compat_app::NewOutput(xs[0].host.descr, yShape, &y), "NewOutput");
    const aclTensor* list[] = {xs[0].tensor, xs[1].tensor, xs[2].tensor};
    aclTensorList* x = aclCreateTensorList(list, 3);
    uint64_t workspaceSize = 0;
    aclOpExecutor* executor = nullptr;
    CHECK_RET(aclnnConcatListCustomGetWorkspaceSize(x, dim, y.tensor, &workspaceSize, &executor) == ACLNN_SUCCESS,
              "aclnnConcatListCustomGetWorkspaceSize");
    if (compat_app::RunPhase2(aclnnConcatListCustom, workspaceSize, executor, stream) != 0) return 1;
    CHECK_RET(compat_app::SaveOutput(argv[5], &y), "SaveOutput");
    aclDestroyTensorList(x);
    return 0;
}
