// libFuzzer target: the settings file. load_preferences never throws: every input gives
// preferences (defaults when damaged) and at most a notice; a sanitizer report is a finding.
#include <cstdint>
#include <cstdio>
#include <string>

#include <unistd.h>

#include "app/gui/runtime/settings.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string path = "/tmp/ringviz-fuzz-settings-" + std::to_string(::getpid()) + ".json";
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) __builtin_trap();
  std::fwrite(data, 1, size, file);
  std::fclose(file);
  const ringviz::gui::LoadedPreferences loaded = ringviz::gui::load_preferences(path);
  // A notice is one line: it is printed as such.
  if (loaded.notice.find('\n') != std::string::npos) __builtin_trap();
  return 0;
}
