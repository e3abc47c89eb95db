#include "gpu/device/cuda_check.h"

#include <cuda_runtime.h>

namespace ringviz::gpu {

namespace {

std::string runtime_version_text() {
  int version = 0;
  cudaRuntimeGetVersion(&version);
  return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}

}  // namespace

bool is_sticky_cuda_error(cudaError_t status) {
  switch (status) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorAssert:
    case cudaErrorLaunchTimeout:
    case cudaErrorECCUncorrectable:
      return true;
    default:
      return false;
  }
}

std::string describe_cuda_error(cudaError_t status) {
  std::string text = std::string(cudaGetErrorString(status)) + " (" + cudaGetErrorName(status) + ")";
  switch (status) {
    case cudaErrorInsufficientDriver: {
      int driver = 0;
      cudaDriverGetVersion(&driver);
      text += driver == 0
                  ? "; no NVIDIA driver is loaded on this machine"
                  : "; the NVIDIA driver supports CUDA " + std::to_string(driver / 1000) + "." +
                        std::to_string((driver % 1000) / 10) + " but this build needs " +
                        runtime_version_text() + ": update the driver";
      break;
    }
    case cudaErrorNoDevice:
      text += "; no CUDA-capable GPU is visible (check CUDA_VISIBLE_DEVICES and nvidia-smi)";
      break;
    case cudaErrorNoKernelImageForDevice:
      text += "; this build has no code for this GPU: reconfigure with "
              "-DCMAKE_CUDA_ARCHITECTURES=native and rebuild";
      break;
    case cudaErrorMemoryAllocation:
      text += "; choose a smaller --count or fewer --gpus";
      break;
    default:
      if (is_sticky_cuda_error(status))
        text += "; the GPU's context is lost until ringviz restarts (use --backend cpu meanwhile)";
      break;
  }
  return text;
}

void throw_cuda_error(cudaError_t status, std::string_view what) {
  cudaGetLastError();
  throw CudaError("CUDA: " + std::string(what) + ": " + describe_cuda_error(status));
}

DeviceGuard::DeviceGuard(int device) {
  if (cudaGetDevice(&previous_) != cudaSuccess) previous_ = -1;
  if (previous_ != device)
    check_cuda(cudaSetDevice(device), [&] { return "selecting GPU " + std::to_string(device); });
}

DeviceGuard::~DeviceGuard() {
  if (previous_ >= 0) cudaSetDevice(previous_);
}

QuietDeviceGuard::QuietDeviceGuard(int device) noexcept {
  if (cudaGetDevice(&previous_) != cudaSuccess) previous_ = -1;
  if (previous_ != device && cudaSetDevice(device) != cudaSuccess) cudaGetLastError();
}

QuietDeviceGuard::~QuietDeviceGuard() {
  if (previous_ >= 0 && cudaSetDevice(previous_) != cudaSuccess) cudaGetLastError();
}

}  // namespace ringviz::gpu
