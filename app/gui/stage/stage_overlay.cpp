#include "app/gui/stage/stage_overlay.h"

#include "app/gui/replay/job_caption.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <imgui.h>

#include "app/gui/render/imgui_helpers.h"
#include "app/gui/render/theme.h"
#include "app/gui/runtime/gui_app.h"
#include "app/gui/teaching/lesson_player.h"
#include "app/gui/text/caption_wrap.h"
#include "app/gui/text/strings.h"

namespace ringviz::gui {

namespace {

// One line of `text` centred on `centre_x`, top at `y`.
void centred_text(ImDrawList* dl, ImFont* font, float size, float centre_x, float y, ImU32 colour,
                  const std::string& text) {
  const float w = font->CalcTextSizeA(size, 1e9f, 0.0f, text.c_str(), text.c_str() + text.size()).x;
  dl->AddText(font, size, ImVec2(std::round(centre_x - w * 0.5f), std::round(y)), colour, text.c_str(),
              text.c_str() + text.size());
}

float text_width(ImFont* font, float size, const std::string& text) {
  return font->CalcTextSizeA(size, 1e9f, 0.0f, text.c_str(), text.c_str() + text.size()).x;
}

// What both cards start from: the whole frame in the view's background (left clear for a
// transparent recording), and the lesson's caption font at its size.
struct Card {
  ImVec2 display;
  ImDrawList* dl;
  const ViewColours& colours;
  ImFont* font;
  float size;
};

Card begin_card(GuiApp& app, const LessonPlayer& player, bool transparent) {
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  ImDrawList* dl = ImGui::GetForegroundDrawList();
  const ViewColours& colours = view_colours(app.preferences().theme);
  if (!transparent) dl->AddRectFilled(ImVec2(0, 0), display, to_imcol(colours.view_background));
  ImFont* font = player.caption_font() ? player.caption_font() : ImGui::GetFont();
  const float size = player.caption_font() ? player.caption_pixels() : ImGui::GetFontSize();
  return {display, dl, colours, font, size};
}

}  // namespace

std::string StageOverlay::card_text() {
  std::string text;
  for (Language language : {Language::en, Language::zh}) {
    const UiStrings& t = ui_strings_for(language);
    text += t.stage_recap;
    text += t.stage_made_with;
  }
  return text;
}

void StageOverlay::after_panels(GuiApp& app, const PanelLayout& panels) {
  header_ = {};
  header_pixels_ = 0;
  if (part_ == StagePart::title) return draw_title_card(app);
  if (part_ == StagePart::end) return draw_end_card(app);
  if (app.views().current() == CentreView::ring && app.model().ready() && panels.caption.h > 0)
    draw_header(app, panels.caption);
}

void StageOverlay::draw_header(GuiApp& app, const Rect& area) {
  const Session& session = app.model().session();
  const RoundMoment moment = app.playback().moment();
  const int rounds = session.round_count();
  const bool finished = rounds > 0 && moment.round == rounds && !moment.in_flight && moment.rest_round == rounds &&
                        moment.flash <= 0;
  const RoundCaptionKey key{app.model().generation(), moment.round, finished, app.language()};
  if (!(key == key_)) {
    const Config& config = app.model().config();
    caption_ = round_caption(app.language(), config, session.schedule(), session.traffic(), moment.round, finished);
    const TrafficFormula formula =
        traffic_formula(app.language(), config.algorithm, config.op, config.ranks, formula_buffer_bytes(config),
                        config.root);
    title_ = caption_.title;
    formula_line_ = formula.formula + "  " + formula.values;
    key_ = key;
  }
  ImFont* font = ImGui::GetFont();
  const float size = ImGui::GetFontSize();
  const ViewColours& colours = view_colours(app.preferences().theme);
  Rgb title_colour = colours.text;
  if (caption_.phase)
    title_colour = *caption_.phase == Phase::reduce_scatter ? colours.phase_reduce_scatter : colours.phase_all_gather;
  ImDrawList* dl = ImGui::GetForegroundDrawList();
  const float pad = std::round(size * 0.4f);
  const float line = std::round(size * 1.15f);
  const float top = area.y + std::max(0.0f, std::round((area.h - line * 2) * 0.5f));
  // The formula line loses its words before its numbers when the frame is narrow. A job's
  // collective says instead which it is and how it ran, without the link's peak if that is too
  // long.
  std::string formula = formula_line_;
  const std::size_t colon = formula.find(':');
  if (app.replay().job()) {
    formula = job_caption(app.replay(), app.language(), true, false);
    if (text_width(font, size, formula) > area.w - 2 * pad) formula = job_caption(app.replay(), app.language(), false, false);
  } else if (text_width(font, size, formula) > area.w - 2 * pad && colon != std::string::npos) {
    formula = formula.substr(colon + 1);
  }
  dl->PushClipRect(to_imvec(area.min()), to_imvec(area.max()), true);
  centred_text(dl, font, size, area.centre().x, top, to_imcol(title_colour), title_);
  centred_text(dl, font, size, area.centre().x, top + line, to_imcol(colours.muted_text), formula);
  dl->PopClipRect();
  header_ = area;
  header_pixels_ = size;
}

void StageOverlay::draw_title_card(GuiApp& app) {
  if (!player_.active()) return;
  const Card card = begin_card(app, player_, transparent_);
  const auto& [display, dl, colours, font, size] = card;
  const Language language = player_.language();
  const Lesson& lesson = player_.lesson();
  // The title at twice the caption's size (whole multiples keep the glyphs sharp), the
  // summary under it at the caption's.
  const float title_size = size * 2;
  const std::vector<std::string> title =
      wrap_caption(*font, title_size, lesson.title.in(language), display.x * 0.9f, 2);
  const std::vector<std::string> summary =
      wrap_caption(*font, size, lesson.summary.in(language), std::min(display.x * 0.85f, size * 40), 4);
  const float block = title_size * 1.2f * static_cast<float>(title.size()) + size * 1.2f +
                      size * 1.25f * static_cast<float>(summary.size());
  float y = std::round((display.y - block) * 0.45f);
  for (const std::string& line : title) {
    centred_text(dl, font, title_size, display.x * 0.5f, y, to_imcol(colours.text), line);
    y += title_size * 1.2f;
  }
  const float bar = std::max(2.0f, std::round(size * 0.12f));
  dl->AddRectFilled(ImVec2(std::round(display.x * 0.5f - size * 3), std::round(y + size * 0.3f)),
                    ImVec2(std::round(display.x * 0.5f + size * 3), std::round(y + size * 0.3f + bar)),
                    IM_COL32(255, 214, 10, 255));
  y += size * 1.2f;
  for (const std::string& line : summary) {
    centred_text(dl, font, size, display.x * 0.5f, y, to_imcol(colours.muted_text), line);
    y += size * 1.25f;
  }
}

void StageOverlay::draw_end_card(GuiApp& app) {
  if (!player_.active()) return;
  const Card card = begin_card(app, player_, transparent_);
  const auto& [display, dl, colours, font, size] = card;
  const Language language = player_.language();
  const Lesson& lesson = player_.lesson();
  const UiStrings& t = app.text();
  // The recap: the lesson's title, then its scenes in order, as many as fit.
  const float line = size * 1.3f;
  const float foot = ImGui::GetFontSize() * 2.5f;
  const int room = std::max(1, static_cast<int>((display.y - foot - line * 3.5f) / line));
  const int scenes = static_cast<int>(lesson.scenes.size());
  const int listed = std::min(scenes, room);
  float y = std::round((display.y - foot - line * (2.5f + static_cast<float>(listed))) * 0.5f);
  centred_text(dl, font, size, display.x * 0.5f, y, to_imcol(colours.muted_text), t.stage_recap);
  y += line;
  const std::vector<std::string> title = wrap_caption(*font, size, lesson.title.in(language), display.x * 0.9f, 1);
  if (!title.empty()) centred_text(dl, font, size, display.x * 0.5f, y, to_imcol(colours.text), title[0]);
  y += line * 1.5f;
  // Left-aligned as a list, the block centred by its widest line.
  std::vector<std::string> lines;
  float widest = 0;
  for (int i = 0; i < listed; ++i) {
    char number[16];
    std::snprintf(number, sizeof number, "%d. ", i + 1);
    const std::string text = i + 1 == listed && listed < scenes ? std::string("...")
                                                                : number + lesson.scenes[static_cast<std::size_t>(i)].title.in(language);
    const std::vector<std::string> cut = wrap_caption(*font, size, text, display.x * 0.85f, 1);
    lines.push_back(cut.empty() ? std::string() : cut[0]);
    widest = std::max(widest, text_width(font, size, lines.back()));
  }
  const float left = std::round((display.x - widest) * 0.5f);
  for (const std::string& text : lines) {
    dl->AddText(font, size, ImVec2(left, std::round(y)), to_imcol(colours.text), text.c_str(), text.c_str() + text.size());
    y += line;
  }
  centred_text(dl, ImGui::GetFont(), ImGui::GetFontSize(), display.x * 0.5f, display.y - foot,
               to_imcol(colours.muted_text), t.stage_made_with);
}

}  // namespace ringviz::gui
