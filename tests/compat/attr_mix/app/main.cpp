// Calls the generated aclnnAttrMixCustom with the attributes run_compat.py's model has:
// main LIB X.npy OUT.npy
#include "../../app/app_util.h"
#include "aclnn_attr_mix_custom.h"

int main(int argc, char** argv)
{
    if (argc != 4) {
        std::fprintf(stderr, "usage: %s LIB X.npy OUT.npy\n", argv[0]);
        return 2;
    }
    aclrtStream stream = nullptr;
    if (!compat_app::Init(argv[1], &stream)) return 1;
    compat_app::HostArray hx;
    CHECK_RET(compat_app::LoadNpy(argv[2], &hx), "LoadNpy");
    compat_app::DeviceTensor x, y;
    CHECK_RET(compat_app::ToDevice(hx, &x) && compat_app::NewOutput(hx.descr, hx.shape, &y), "tensors");

    const float scaleValues[] = {0.5f, -1.0f, 2.0f};
    const int64_t shiftValues[] = {1, -2};
    const bool maskValues[] = {true, true, false, true};
    aclFloatArray* scales = aclCreateFloatArray(scaleValues, 3);
    aclIntArray* shifts = aclCreateIntArray(shiftValues, 2);
    aclBoolArray* mask = aclCreateBoolArray(maskValues, 4);
    char mode[] = "clip";
    uint64_t workspaceSize = 0;
    aclOpExecutor* executor = nullptr;
    CHECK_RET(aclnnAttrMixCustomGetWorkspaceSize(x.tensor, scales, shifts, true, mask, mode, -1.5, 2.5, 3, y.tensor,
                                                 &workspaceSize, &executor) == ACLNN_SUCCESS,
              "aclnnAttrMixCustomGetWorkspaceSize");
    if (compat_app::RunPhase2(aclnnAttrMixCustom, workspaceSize, executor, stream) != 0) return 1;
    CHECK_RET(compat_app::SaveOutput(argv[3], &y), "SaveOutput");
    aclDestroyFloatArray(scales);
    aclDestroyIntArray(shifts);
    aclDestroyBoolArray(mask);
    return 0;
}
