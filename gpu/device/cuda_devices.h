#pragma once
// What CUDA devices this process can use, asked once without throwing: the CLI's --backend
// auto, the GUI's backend panel and the CUDA tests' skip decision all start here. No CUDA
// header, so app/ code can include it.
#include <cstdint>
#include <string>
#include <vector>

namespace ringviz::gpu {

struct DeviceInfo {
  int index = 0;  // the CUDA device ordinal
  std::string name;
  std::uint64_t total_bytes = 0;
  std::uint64_t free_bytes = 0;  // when probed
  int compute_major = 0;
  int compute_minor = 0;
  int multiprocessors = 0;
};

// How the bytes of one transfer travel from the sender's buffer to the receiver's.
enum class LinkKind {
  same_device,          // both ranks live on one GPU: a device-to-device copy or kernel
  peer_to_peer,         // the receiver's GPU reads the sender's memory directly (NVLink/PCIe)
  staged_through_host,  // no peer access: the driver copies through host memory
};

struct CudaProbe {
  bool usable = false;
  // Why CUDA cannot be used (empty when usable): one sentence naming the cause.
  std::string reason;
  int driver_version = 0;   // e.g. 13000 for CUDA 13.0; 0 when no driver answered
  int runtime_version = 0;
  std::vector<DeviceInfo> devices;
  // can_access_peer[a][b]: GPU a can read GPU b's memory directly.
  std::vector<std::vector<bool>> can_access_peer;
};

// Never throws. Any error from cudaGetDeviceCount (no driver, a driver too old, no device)
// means "no device", with the runtime's own words in `reason`. The result is computed once
// per process; later calls return the first answer.
const CudaProbe& probe_cuda();

// Lets GPU `reader` read GPU `owner`'s memory directly, where the probe (or
// cudaDeviceCanAccessPeer) said it can. True when it now can: access an earlier caller in this
// process enabled counts. Never throws and leaves no error behind.
bool enable_peer_access(int reader, int owner);

// "CUDA 13.0" style version text from the numbers above.
std::string cuda_version_text(int version);

}  // namespace ringviz::gpu
