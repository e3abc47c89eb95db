#include "app/cli/compare_fit.h"

#include <cstdio>
#include <iostream>

#include <nlohmann/json.hpp>

#include "core/output/terminal_text.h"
#include "core/fit/link_fit.h"

namespace ringviz::cli {

namespace {

std::string micros(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f µs", seconds * 1e6);
  return text;
}

// The per-round table, padded by display width in both languages: µ is one column but two
// bytes, which printf's widths count as two (so English times used to sit a column left).
void print_rounds(const LinkFit& fit, Language language) {
  const bool zh = language == Language::zh;
  std::cout << "\n" << pad_left(zh ? "轮" : "round", 6) << "  " << pad_right(zh ? "链路类" : "class", 14) << " "
            << pad_left(zh ? "字节/GPU" : "bytes/GPU", 12) << " " << pad_left(zh ? "实测" : "measured", 14) << " "
            << pad_left(zh ? "预测" : "predicted", 14) << "\n";
  for (const FittedRound& round : fit.rounds) {
    char bytes[32];
    std::snprintf(bytes, sizeof bytes, "%.0f", round.bytes);
    std::cout << pad_left(std::to_string(round.round), 6) << "  " << pad_right(round.link_class, 14) << " "
              << pad_left(bytes, 12) << " " << pad_left(micros(round.measured_seconds), 14) << " "
              << pad_left(micros(round.predicted_seconds), 14) << "\n";
  }
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
    print_rounds(fit, language);
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
  print_rounds(fit, language);
  return 0;
}

}  // namespace ringviz::cli
