#include "app/cli/compare_fit.h"

#include <cstdio>
#include <iostream>

#include <nlohmann/json.hpp>

#include "core/output/terminal_text.h"
#include "core/topology/link_fit.h"

namespace ringviz::cli {

namespace {

std::string micros(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f µs", seconds * 1e6);
  return text;
}

}  // namespace

int run_fit(const std::string& path, ReportFormat format, Language language) {
  const RecordedRun run = read_recorded_run(path);
  const LinkFit fit = fit_link_classes(run, path);
  if (format == ReportFormat::json) {
    nlohmann::json out;
    out["schema"] = "ringviz.fit/1";
    out["classes"] = nlohmann::json::array();
    for (const FittedLinkClass& fitted : fit.classes)
      out["classes"].push_back({{"class", fitted.name},
                                {"rounds", fitted.rounds},
                                {"alpha_seconds", fitted.alpha_seconds},
                                {"beta_seconds_per_byte", fitted.beta_seconds_per_byte
                                                              ? nlohmann::json(*fitted.beta_seconds_per_byte)
                                                              : nlohmann::json(nullptr)}});
    out["rounds"] = nlohmann::json::array();
    for (const FittedRound& round : fit.rounds)
      out["rounds"].push_back({{"round", round.round},
                               {"class", round.link_class},
                               {"bytes", round.bytes},
                               {"measured_seconds", round.measured_seconds},
                               {"predicted_seconds", round.predicted_seconds}});
    std::cout << out.dump(2) << "\n";
    return 0;
  }
  if (language == Language::zh) {
    std::cout << "用最小二乘法在 " << path << " 的各轮上拟合的 α 和 β\n";
    for (const FittedLinkClass& fitted : fit.classes) {
      std::cout << "  " << fitted.name << "（" << fitted.rounds << " 轮）：";
      if (fitted.beta_seconds_per_byte) {
        char bandwidth[48];
        std::snprintf(bandwidth, sizeof bandwidth, "%.4g GB/s",
                      *fitted.beta_seconds_per_byte > 0 ? 1e-9 / *fitted.beta_seconds_per_byte : 0.0);
        std::cout << "α " << micros(fitted.alpha_seconds) << "，1/β " << bandwidth << "\n";
      } else {
        std::cout << "α + b·β " << micros(fitted.alpha_seconds) << "（每轮搬动的字节数相同，α 与 β 无法分开）\n";
      }
    }
    std::cout << "\n" << pad_left("轮", 6) << "  " << pad_right("链路类", 14) << " " << pad_left("字节/GPU", 12) << " "
              << pad_left("实测", 14) << " " << pad_left("预测", 14) << "\n";
    // The times padded by display width: µ is one column but two bytes, which printf's %14s counts.
    for (const FittedRound& round : fit.rounds) {
      char bytes[32];
      std::snprintf(bytes, sizeof bytes, "%.0f", round.bytes);
      std::cout << pad_left(std::to_string(round.round), 6) << "  " << pad_right(round.link_class, 14) << " "
                << pad_left(bytes, 12) << " " << pad_left(micros(round.measured_seconds), 14) << " "
                << pad_left(micros(round.predicted_seconds), 14) << "\n";
    }
    return 0;
  }
  std::cout << "α and β fitted by least squares over the rounds of " << path << "\n";
  for (const FittedLinkClass& fitted : fit.classes) {
    std::cout << "  " << fitted.name << " (" << fitted.rounds << (fitted.rounds == 1 ? " round" : " rounds") << "): ";
    if (fitted.beta_seconds_per_byte) {
      char bandwidth[48];
      std::snprintf(bandwidth, sizeof bandwidth, "%.4g GB/s",
                    *fitted.beta_seconds_per_byte > 0 ? 1e-9 / *fitted.beta_seconds_per_byte : 0.0);
      std::cout << "α " << micros(fitted.alpha_seconds) << ", 1/β " << bandwidth << "\n";
    } else {
      std::cout << "α + b·β " << micros(fitted.alpha_seconds)
                << " (every round moved the same bytes, so α and β cannot be told apart)\n";
    }
  }
  std::printf("\n%6s  %-14s %12s %14s %14s\n", "round", "class", "bytes/GPU", "measured", "predicted");
  for (const FittedRound& round : fit.rounds)
    std::printf("%6d  %-14s %12.0f %14s %14s\n", round.round, round.link_class.c_str(), round.bytes,
                micros(round.measured_seconds).c_str(), micros(round.predicted_seconds).c_str());
  return 0;
}

}  // namespace ringviz::cli
