// Calls the generated aclnnReduceSumAxisCustom: main LIB X.npy OUT.npy AXIS KEEP_DIMS
#include <cstdlib>

#include "../../app/app_util.h"
#include "aclnn_reduce_sum_axis_custom.h"

int main(int argc, char** argv)
{
    if (argc != 6) {
        std::fprintf(stderr, "usage: %s LIB X.npy OUT.npy AXIS KEEP_DIMS\n", argv[0]);
        return 2;
    }
    aclrtStream stream = nullptr;
    if (!compat_app::Init(argv[1], &stream)) return 1;
    compat_app::HostArray hx, haxes;
    CHECK_RET(compat_app::LoadNpy(argv[2], &hx), "LoadNpy");
    int64_t axis = std::atoll(argv[4]);
    bool keepDims = std::atoi(argv[5]) != 0;
    haxes.descr = "<i8";
    haxes.shape.push_back(1);
    haxes.bytes.resize(8);
    std::memcpy(&haxes.bytes[0], &axis, 8);
    compat_app::DeviceTensor x, axes, y;
    CHECK_RET(compat_app::ToDevice(hx, &x) && compat_app::ToDevice(haxes, &axes), "ToDevice");
    std::vector<int64_t> yShape;
    for (size_t d = 0; d < hx.shape.size(); ++d) {
        if (static_cast<int64_t>(d) != axis) {
            yShape.push_back(hx.shape[d]);
        } else if (keepDims) {
            yShape.push_back(1);
        }
    }
    CHECK_RET(compat_app::NewOutput(hx.descr, yShape, &y), "NewOutput");
    uint64_t workspaceSize = 0;
    aclOpExecutor* executor = nullptr;
    CHECK_RET(aclnnReduceSumAxisCustomGetWorkspaceSize(x.tensor, axes.tensor, keepDims, y.tensor, &workspaceSize,
                                                       &executor) == ACLNN_SUCCESS,
              "aclnnReduceSumAxisCustomGetWorkspaceSize");
    if (compat_app::RunPhase2(aclnnReduceSumAxisCustom, workspaceSize, executor, stream) != 0) return 1;
    CHECK_RET(compat_app::SaveOutput(argv[3], &y), "SaveOutput");
    return 0;
}
