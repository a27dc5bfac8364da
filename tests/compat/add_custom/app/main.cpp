// Calls the generated aclnnAddCustom: main LIB X.npy Y.npy Z.npy (writes Z).
#include "../../app/app_util.h"
#include "aclnn_add_custom.h"

int main(int argc, char** argv)
{
    if (argc != 5) {
        std::fprintf(stderr, "usage: %s LIB X.npy Y.npy OUT.npy\n", argv[0]);
        return 2;
    }
    aclrtStream stream = nullptr;
    if (!compat_app::Init(argv[1], &stream)) return 1;
    compat_app::HostArray hx, hy;
    CHECK_RET(compat_app::LoadNpy(argv[2], &hx) && compat_app::LoadNpy(argv[3], &hy), "LoadNpy");
    compat_app::DeviceTensor x, y, z;
    CHECK_RET(compat_app::ToDevice(hx, &x) && compat_app::ToDevice(hy, &y), "ToDevice");
    CHECK_RET(compat_app::NewOutput(hx.descr, hx.shape, &z), "NewOutput");

    uint64_t workspaceSize = 0;
    aclOpExecutor* executor = nullptr;
    CHECK_RET(aclnnAddCustomGetWorkspaceSize(x.tensor, y.tensor, z.tensor, &workspaceSize, &executor) == ACLNN_SUCCESS,
              "aclnnAddCustomGetWorkspaceSize");
    if (compat_app::RunPhase2(aclnnAddCustom, workspaceSize, executor, stream) != 0) return 1;
    CHECK_RET(compat_app::SaveOutput(argv[4], &z), "SaveOutput");
    aclDestroyTensor(x.tensor);
    x.tensor = nullptr;
    aclDestroyTensor(y.tensor);
    y.tensor = nullptr;
    aclDestroyTensor(z.tensor);
    z.tensor = nullptr;
    aclrtDestroyStream(stream);
    return 0;
}
