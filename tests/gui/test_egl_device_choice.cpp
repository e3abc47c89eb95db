// Which EGL device a headless context is asked of first (docs/architecture.md, "The GUI: frame
// host, panels and views").
#include <doctest/doctest.h>

#include "app/platform/egl_device_choice.h"

namespace ringviz::platform {

namespace {

EglDeviceCandidate gpu(int index, std::optional<int> cuda_device) { return {index, cuda_device, false}; }
EglDeviceCandidate software(int index) { return {index, std::nullopt, true}; }

}  // namespace

TEST_CASE("the EGL device that is the preferred CUDA device is tried first, the others keep EGL's order") {
  const std::vector<EglDeviceCandidate> devices = {gpu(0, 1), gpu(1, 0), gpu(2, 2)};
  CHECK(egl_device_try_order(devices, 0) == std::vector<int>{1, 0, 2});
  CHECK(egl_device_try_order(devices, 2) == std::vector<int>{2, 0, 1});
}

TEST_CASE("without a CUDA preference, or with no device matching it, EGL's order stands") {
  const std::vector<EglDeviceCandidate> devices = {gpu(0, 1), gpu(1, std::nullopt), gpu(2, 0)};
  CHECK(egl_device_try_order(devices, std::nullopt) == std::vector<int>{0, 1, 2});
  CHECK(egl_device_try_order(devices, 5) == std::vector<int>{0, 1, 2});
  // Devices whose driver names no CUDA device (Mesa's DRM devices) are still tried.
  CHECK(egl_device_try_order({gpu(0, std::nullopt)}, 0) == std::vector<int>{0});
}

TEST_CASE("software devices are left to Mesa's surfaceless platform, so a machine without a GPU keeps it") {
  CHECK(egl_device_try_order({software(0)}, 0).empty());
  CHECK(egl_device_try_order({software(0), gpu(1, 0)}, std::nullopt) == std::vector<int>{1});
  CHECK(egl_device_try_order({}, 0).empty());
}

}  // namespace ringviz::platform
