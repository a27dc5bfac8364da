// The device runtime's C API (aclrt*): devices, memory, streams, events, kernel launch and
// models (task lists loaded once, executed by one call). Names and shapes follow Ascend ACL;
// GE-specific additions (kernel launch with tiling, explicit model building) are marked "GE".
// No function throws; every failure returns an error code and sets aclGetRecentErrMsg().
#ifndef GE_INCLUDE_ACL_ACL_RT_H_
#define GE_INCLUDE_ACL_ACL_RT_H_

#include <stddef.h>
#include <stdint.h>

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef void* aclrtStream;
typedef void* aclrtContext;
typedef void* aclrtEvent;
typedef struct aclmdlRI_* aclmdlRI;  // a loaded model: a bound task list on one or more streams

typedef enum aclrtMemMallocPolicy {
  ACL_MEM_MALLOC_HUGE_FIRST = 0,
  ACL_MEM_MALLOC_HUGE_ONLY = 1,
  ACL_MEM_MALLOC_NORMAL_ONLY = 2,
} aclrtMemMallocPolicy;

typedef enum aclrtMemcpyKind {
  ACL_MEMCPY_HOST_TO_HOST = 0,
  ACL_MEMCPY_HOST_TO_DEVICE = 1,
  ACL_MEMCPY_DEVICE_TO_HOST = 2,
  ACL_MEMCPY_DEVICE_TO_DEVICE = 3,
} aclrtMemcpyKind;

typedef enum aclrtCallbackBlockType {
  ACL_CALLBACK_NO_BLOCK = 0,
  ACL_CALLBACK_BLOCK = 1,
} aclrtCallbackBlockType;

typedef void (*aclrtCallback)(void* userData);

// ---- device -------------------------------------------------------------------------------
aclError aclInit(const char* configPath);
aclError aclFinalize(void);
aclError aclrtSetDevice(int32_t deviceId);
aclError aclrtResetDevice(int32_t deviceId);
aclError aclrtGetDeviceCount(uint32_t* count);
aclError aclrtSynchronizeDevice(void);
// GE: number of core threads ("AI cores"); set before the device starts (0 = machine's cores),
// or through GE_DEVICE_CORES.
aclError aclrtSetDeviceCoreNum(uint32_t coreNum);
aclError aclrtGetDeviceCoreNum(uint32_t* coreNum);

// ---- contexts -----------------------------------------------------------------------------
// One device, so a context is a name for it that a thread makes current: streams, memory and
// models are device-wide and usable from any context. A thread that set none has the device's
// default context (created with the device). Unknown handles are ACL_ERROR_RT_PARAM_INVALID.
// Creates a context on device 0 and makes it the calling thread's current one.
aclError aclrtCreateContext(aclrtContext* context, int32_t deviceId);
// A thread whose current context it was falls back to the default context.
aclError aclrtDestroyContext(aclrtContext context);
aclError aclrtSetCurrentContext(aclrtContext context);
aclError aclrtGetCurrentContext(aclrtContext* context);

// ---- memory -------------------------------------------------------------------------------
aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy policy);
aclError aclrtFree(void* devPtr);
aclError aclrtMallocHost(void** hostPtr, size_t size);
aclError aclrtFreeHost(void* hostPtr);
aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind);
aclError aclrtMemcpyAsync(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind,
                          aclrtStream stream);
aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count);
aclError aclrtMemsetAsync(void* devPtr, size_t maxCount, int32_t value, size_t count, aclrtStream stream);
// free/total device bytes under the configured limit
aclError aclrtGetMemInfo(int32_t attr, size_t* free, size_t* total);
// GE: device memory limit in bytes (0 = unlimited; also GE_DEVICE_MEM_LIMIT). Allocation past
// it returns ACL_ERROR_RT_MEMORY_ALLOCATION with a message naming the sizes.
aclError aclrtSetDeviceMemLimit(size_t bytes);

// ---- streams and events -------------------------------------------------------------------
aclError aclrtCreateStream(aclrtStream* stream);
// Waits for the stream's pending work, then destroys it.
aclError aclrtDestroyStream(aclrtStream stream);
aclError aclrtSynchronizeStream(aclrtStream stream);
aclError aclrtCreateEvent(aclrtEvent* event);
aclError aclrtDestroyEvent(aclrtEvent event);
aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream);
aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event);
aclError aclrtSynchronizeEvent(aclrtEvent event);
aclError aclrtLaunchCallback(aclrtCallback fn, void* userData, aclrtCallbackBlockType blockType, aclrtStream stream);
// GE: a host function run on the stream's thread in stream order (cf. cudaLaunchHostFunc) whose
// result counts like a task's: a code other than ACL_SUCCESS becomes the stream's error,
// returned by the next aclrtSynchronizeStream with the message the function set on its thread
// (aclGetRecentErrMsg). What aclmdlExecuteAsync enqueues.
typedef aclError (*aclrtHostFunc)(void* userData);
aclError aclrtLaunchHostFunc(aclrtHostFunc fn, void* userData, aclrtStream stream);

// ---- kernels (GE) -------------------------------------------------------------------------
// A kernel runs SPMD: the device calls it once per block, blocks spread over the core threads.
typedef struct aclrtKernelArgs {
  void* const* addrs;  // device addresses: inputs, outputs, workspace (as the op defines)
  uint32_t numAddrs;
  const void* tiling;  // tiling data written by the op's tiling function
  uint32_t tilingSize;
  uint32_t blockIdx;      // this block
  uint32_t blockDim;      // number of blocks of this launch
  const void* errorSlot;  // GE: set by the runtime, for aclrtReportKernelError
} aclrtKernelArgs;
typedef void (*aclrtKernelFunc)(const aclrtKernelArgs* args);

// GE: a kernel reports that its input data is invalid (e.g. an index out of range); `msg` names
// the input and the value. The kernel then returns without touching memory out of bounds. The
// first report of a launch wins; the launch's stream returns ACL_ERROR_RT_KERNEL_DATA at its next
// synchronize (a model: that execution returns it), the recent error message being
// "<launch name>: <msg>" (or `msg` for an unnamed launch). Safe from concurrent blocks.
void aclrtReportKernelError(const aclrtKernelArgs* args, const char* msg);

// Copies addrs and tiling at launch, so the caller may reuse its buffers at once. Errors its
// kernel reports name the launch as the calling thread's current launch name, if GE set one
// (the node whose fallback function launches it).
aclError aclrtLaunchKernel(aclrtKernelFunc func, uint32_t blockDim, void* const* addrs, uint32_t numAddrs,
                           const void* tiling, uint32_t tilingSize, aclrtStream stream);

// GE: aclrtLaunchKernel naming the launch (e.g. its graph node) in the errors its kernel reports.
// `name` is not copied: it must stay valid until the stream has run the launch.
aclError aclrtLaunchKernelWithName(const char* name, aclrtKernelFunc func, uint32_t blockDim, void* const* addrs,
                                   uint32_t numAddrs, const void* tiling, uint32_t tilingSize, aclrtStream stream);

// ---- models (GE; cf. Ascend rtModel / aclmdlRI) --------------------------------------------
// A model is a task list over `numStreams` model-internal streams, built once, then executed
// any number of times by one call. Tasks on one model stream run in order; model events order
// tasks across model streams. Execution waits for prior work on `stream` and later work on
// `stream` waits for the whole model.
aclError aclmdlRICreate(uint32_t numStreams, uint32_t numEvents, aclmdlRI* model);
aclError aclmdlRIAddKernelTask(aclmdlRI model, uint32_t modelStream, aclrtKernelFunc func, uint32_t blockDim,
                               void* const* addrs, uint32_t numAddrs, const void* tiling, uint32_t tilingSize);
// GE: aclmdlRIAddKernelTask naming the task (copied) in the errors its kernel reports.
aclError aclmdlRIAddKernelTaskWithName(aclmdlRI model, uint32_t modelStream, const char* name, aclrtKernelFunc func,
                                       uint32_t blockDim, void* const* addrs, uint32_t numAddrs, const void* tiling,
                                       uint32_t tilingSize);
aclError aclmdlRIAddMemcpyTask(aclmdlRI model, uint32_t modelStream, void* dst, const void* src, size_t count);
aclError aclmdlRIAddCallbackTask(aclmdlRI model, uint32_t modelStream, aclrtCallback fn, void* userData);
aclError aclmdlRIAddEventRecord(aclmdlRI model, uint32_t modelStream, uint32_t modelEvent);
aclError aclmdlRIAddEventWait(aclmdlRI model, uint32_t modelStream, uint32_t modelEvent);
// Freezes the task list; no tasks may be added afterwards.
aclError aclmdlRILoadComplete(aclmdlRI model);
aclError aclmdlRIExecuteAsync(aclmdlRI model, aclrtStream stream);
aclError aclmdlRIExecute(aclmdlRI model, int32_t timeoutMs);  // synchronous, -1 = no timeout
aclError aclmdlRIGetTaskNum(aclmdlRI model, uint32_t* numTasks);
// Zero-copy I/O: rebinds address argument `addrIndex` of kernel task `taskIndex` (counting every
// task added to `modelStream`, in order) of a loaded model. Waits for pending executions of the
// model first; later executions use the new address.
aclError aclmdlRIUpdateTaskAddr(aclmdlRI model, uint32_t modelStream, uint32_t taskIndex, uint32_t addrIndex,
                                void* addr);
// GE: per-kernel-task timing of a loaded single-stream model (ACL_ERROR_RT_FEATURE_NOT_SUPPORT for
// several streams). While enabled, every execution adds each kernel task's duration (steady
// clock, ns) to its total; disabled (the default) it costs nothing measurable.
aclError aclmdlRISetProfiling(aclmdlRI model, int enable);
// The totals by kernel task, in the order the kernel tasks were added (`count` entries; missing
// ones are 0), and the number of executions they cover (may be null); then clears them.
aclError aclmdlRIGetKernelTimes(aclmdlRI model, uint64_t* ns, uint32_t count, uint32_t* executions);
aclError aclmdlRIDestroy(aclmdlRI model);

#ifdef __cplusplus
}
#endif

#endif  // GE_INCLUDE_ACL_ACL_RT_H_
