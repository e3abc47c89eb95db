#include "core/topology/link_model.h"

#include "core/model/input_error.h"

namespace ringviz {

namespace {

// Every preset shares γ: a reduction kernel on an H100-class GPU reads two bytes and writes one
// per byte folded, at about 3 TB/s of HBM bandwidth, so roughly 1 ps per byte.
constexpr double kGammaH100 = 1e-12;

// Hop latencies are the wire and switch part of α, rounded: NVSwitch and NVLink forward in
// about 0.1 µs, a PCIe switch in about 0.25 µs, an InfiniBand NIC and switch in about 1 µs.
// Channel caps: one NCCL channel is one thread block copying or reducing; the figures are
// chosen so that NVSwitch's 450 GB/s needs five channels and a PCIe or NDR link two
// (docs/architecture.md, "Topology and contention").
const LinkModel kPresets[] = {
    {"nvlink4", "NVLink 4 (H100/H200)", 1.0e-6, 450e9, kGammaH100,
     "450 GB/s per direction per GPU through NVSwitch; α 1 µs: a small send/recv between "
     "kernels on two GPUs of one node",
     0.1e-6, 100e9},
    {"nvlink3", "NVLink 3 (A100)", 1.0e-6, 300e9, kGammaH100,
     "300 GB/s per direction per GPU through NVSwitch (12 links of 25 GB/s); α 1 µs as NVLink 4",
     0.1e-6, 100e9},
    {"pcie4", "PCIe 4.0 x16", 2.0e-6, 32e9, kGammaH100,
     "32 GB/s per direction (nominal x16); α 2 µs: peer-to-peer through the root complex", 0.25e-6, 16e9},
    {"pcie5", "PCIe 5.0 x16", 2.0e-6, 64e9, kGammaH100,
     "64 GB/s per direction (nominal x16); α 2 µs: peer-to-peer through the root complex", 0.25e-6, 32e9},
    {"ib100", "InfiniBand 100 Gb/s (EDR)", 5.0e-6, 12.5e9, kGammaH100,
     "12.5 GB/s per direction, one NIC per GPU; α 5 µs: NIC, switch and proxy thread", 1.0e-6, 6.25e9},
    {"ib400", "InfiniBand 400 Gb/s (NDR)", 5.0e-6, 50e9, kGammaH100,
     "50 GB/s per direction, one NIC per GPU; α 5 µs: NIC, switch and proxy thread", 1.0e-6, 25e9},
};

}  // namespace

std::span<const LinkModel> link_presets() { return kPresets; }

const LinkModel& find_link_preset(std::string_view key, std::string_view field) {
  std::string keys;
  for (const LinkModel& preset : kPresets) {
    if (preset.key == key) return preset;
    keys += (keys.empty() ? "" : ", ") + preset.key;
  }
  throw InputError(std::string(field) + ": unknown value '" + std::string(key) + "' (expected " + keys + ")");
}

std::string_view link_note_zh(std::string_view key) {
  if (key == "nvlink4") return "经 NVSwitch 每个 GPU 每个方向 450 GB/s；α 1 µs：同一节点两块 GPU 上的核函数之间一次小的发送/接收";
  if (key == "nvlink3") return "经 NVSwitch 每个 GPU 每个方向 300 GB/s（12 条 25 GB/s 的链路）；α 1 µs，同 NVLink 4";
  if (key == "pcie4") return "每个方向 32 GB/s（x16 标称）；α 2 µs：经根复合体的点对点传输";
  if (key == "pcie5") return "每个方向 64 GB/s（x16 标称）；α 2 µs：经根复合体的点对点传输";
  if (key == "ib100") return "每个方向 12.5 GB/s，每个 GPU 一块网卡；α 5 µs：网卡、交换机和代理线程";
  if (key == "ib400") return "每个方向 50 GB/s，每个 GPU 一块网卡；α 5 µs：网卡、交换机和代理线程";
  return "";
}

}  // namespace ringviz
