#include "app/cli/memory/memory_measured.h"

#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/job/job_document.h"
#include "core/job/memory_comparison.h"
#include "core/model/input_error.h"
#include "core/output/terminal_text.h"

namespace ringviz::cli {

namespace {

std::string amount(std::int64_t bytes, ByteUnit unit) {
  // A measured job is small: GB would print 0.000xyz; bytes stay exact whatever --unit says.
  return unit == ByteUnit::bytes ? std::to_string(bytes) : format_bytes(static_cast<double>(bytes), unit, false);
}

std::string signed_amount(std::int64_t bytes, ByteUnit unit) {
  return (bytes > 0 ? "+" : "") + amount(bytes, unit);
}

std::string tolerance_text(const MemoryTermComparison& t, ByteUnit unit, Language lang) {
  if (t.low == 0 && t.high == 0) return "0";
  if (t.low == -t.high) return "±" + amount(t.high, unit);
  return amount(t.low, unit) + en_zh(lang, " to ", " 至 ") + signed_amount(t.high, unit);
}

std::string ranks_text(const std::vector<int>& ranks, int world_size, Language lang) {
  std::string list;
  for (std::size_t i = 0; i < ranks.size(); ++i) list += (i > 0 ? ", " : "") + std::to_string(ranks[i]);
  if (lang == Language::zh) return "共 " + std::to_string(world_size) + " 个 rank 中的 rank " + list;
  return (ranks.size() == 1 ? "rank " : "ranks ") + list + " of " + std::to_string(world_size);
}

void print_table(const MemoryComparison& c, const std::vector<int>& ranks, ByteUnit unit) {
  const Language lang = c.language;
  const MeasuredMemory& m = c.measured;
  const MeasuredShape& s = m.shape;
  std::cout << "\n" << m.label << " (" << ranks_text(ranks, m.world_size, lang) << "): Ψ = " << s.parameters
            << ", L = " << s.layers << ", h = " << s.hidden << ", a = " << s.heads << ", f = " << s.ffn
            << ", V = " << s.vocab << ", s = " << s.seq << ", b = " << s.micro_batch
            << en_zh(lang, "; model: convention ", "；模型：约定 ") << convention_name(c.convention)
            << en_zh(lang, ", strategy ", "，策略 ") << strategy_name(m.strategy) << en_zh(lang, ", recompute ", "，重算 ")
            << recompute_name(m.recompute) << en_zh(lang, ", ", "，") << m.element_bytes.activations
            << en_zh(lang, "-byte activations, ", " 字节的激活，") << m.element_bytes.masks
            << en_zh(lang, "-byte dropout masks\n", " 字节的 dropout 掩码\n");
  std::ostringstream out;
  out << pad_right(en_zh(lang, "term", "项"), 26) << pad_left(en_zh(lang, "measured", "实测"), 12)
      << pad_left(en_zh(lang, "model", "模型"), 12) << pad_left(en_zh(lang, "difference", "差"), 12) << "  "
      << pad_right(en_zh(lang, "tolerance", "容差"), 22) << pad_right("", 8) << en_zh(lang, "why\n", "原因\n");
  for (const MemoryTermComparison& t : c.terms)
    out << pad_right(t.name, 26) << pad_left(amount(t.measured, unit), 12) << pad_left(amount(t.model, unit), 12)
        << pad_left(signed_amount(t.difference(), unit), 12) << "  " << pad_right(tolerance_text(t, unit, lang), 22)
        << pad_right(t.within() ? en_zh(lang, "within", "容差内") : en_zh(lang, "OUTSIDE", "超出"), 8) << t.why
        << "\n";
  std::cout << out.str();
}

nlohmann::json comparison_json(const MemoryComparison& c) {
  const MeasuredMemory& m = c.measured;
  nlohmann::json terms = nlohmann::json::array();
  for (const MemoryTermComparison& t : c.terms)
    terms.push_back({{"term", t.name}, {"layer", t.layer}, {"measured", t.measured}, {"model", t.model},
                     {"difference", t.difference()}, {"tolerance", {t.low, t.high}}, {"within", t.within()},
                     {"why", t.why}});
  return {{"label", m.label},
          {"rank", m.rank},
          {"world_size", m.world_size},
          {"strategy", strategy_name(m.strategy)},
          {"recompute", recompute_name(m.recompute)},
          {"convention", convention_name(c.convention)},
          {"within", c.within()},
          {"terms", std::move(terms)}};
}

}  // namespace

void print_measured_memory(const std::string& path, ByteUnit unit, bool json, Language lang) {
  Job job;
  try {
    job = read_job_document(path);
  } catch (const InputError& error) {
    throw InputError("--from-job: " + std::string(error.what()));
  }
  if (job.memory.empty())
    throw InputError("--from-job: " + path + " measured no memory; record the job with ringviz_torch.measure "
                     "(docs/memory.md, \"Measured against the model\")");
  std::vector<MemoryComparison> comparisons;
  for (const MeasuredMemory& measured : job.memory) {
    try {
      comparisons.push_back(compare_measured_memory(measured, json ? Language::en : lang));
    } catch (const InputError& error) {
      throw InputError("--from-job: " + path + ": " + error.what());
    }
  }
  if (json) {
    nlohmann::json list = nlohmann::json::array();
    for (const MemoryComparison& c : comparisons) list.push_back(comparison_json(c));
    std::cout << nlohmann::json({{"schema", "ringviz.memory.measured/1"}, {"job", path}, {"comparisons", list}}).dump(2)
              << "\n";
    return;
  }
  std::cout << "ringviz memory --from-job " << path
            << en_zh(lang,
                     ": bytes one training step held, measured by ringviz_torch.measure, beside the memory model's "
                     "for the same shapes (difference = measured - model; each term must lie within its tolerance)\n",
                     "：ringviz_torch.measure 实测的一个训练步所占字节，与内存模型对同样形状的估计并列"
                     "（差 = 实测 - 模型；每一项都须落在容差内）\n");
  // One table per configuration and distinct result: ranks that measured and were modelled the
  // same are listed together.
  std::vector<std::pair<const MemoryComparison*, std::vector<int>>> groups;
  for (const MemoryComparison& c : comparisons) {
    auto same = std::find_if(groups.begin(), groups.end(), [&](const auto& group) {
      return group.first->measured.label == c.measured.label && group.first->terms == c.terms;
    });
    if (same == groups.end())
      groups.push_back({&c, {c.measured.rank}});
    else
      same->second.push_back(c.measured.rank);
  }
  std::stable_sort(groups.begin(), groups.end(), [&](const auto& a, const auto& b) {
    // Configurations in the order the job measured them.
    const auto index = [&](const MemoryComparison* c) {
      for (std::size_t i = 0; i < comparisons.size(); ++i)
        if (comparisons[i].measured.label == c->measured.label) return i;
      return comparisons.size();
    };
    return index(a.first) < index(b.first);
  });
  int outside = 0;
  for (const auto& [comparison, ranks] : groups) {
    print_table(*comparison, ranks, unit);
    for (const MemoryTermComparison& t : comparison->terms) outside += t.within() ? 0 : 1;
  }
  std::cout << "\n"
            << (outside == 0 ? en_zh(lang, "every term is within its tolerance", "每一项都在容差内")
                             : std::to_string(outside) + en_zh(lang, " term(s) outside their tolerance", " 项超出容差"))
            << "\n";
}

}  // namespace ringviz::cli
