#include "core/teaching/subtitles.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <system_error>

#include "core/output/output_file.h"
#include "core/teaching/video_frames.h"

namespace ringviz {

namespace {

// The lesson time frame k shows, computed exactly as the recorder does so that a boundary
// falls on the same frame for both.
double frame_time(const SubtitleWindow& window, long long k) {
  return window.from + static_cast<double>(k) / window.fps;
}

// The first frame whose time is at or after `start`: the first frame on which a step starting
// there is on screen (lesson_frame gives a boundary to the later step). The estimate is then
// corrected with the exact comparison, since (start - from) x fps may round either way.
long long first_frame_at(const SubtitleWindow& window, double start) {
  long long k = std::max(0LL, static_cast<long long>(std::ceil((start - window.from) * window.fps - 1e-6)));
  while (k > 0 && frame_time(window, k - 1) >= start) --k;
  while (frame_time(window, k) < start) ++k;
  return k;
}

// The caption as cue text: lines trimmed, empty lines dropped (an empty line ends a cue in
// both formats, so it could not survive anyway).
std::string cue_text(const std::string& caption) {
  std::string text;
  std::size_t at = 0;
  while (at <= caption.size()) {
    std::size_t end = caption.find('\n', at);
    if (end == std::string::npos) end = caption.size();
    std::string line = caption.substr(at, end - at);
    const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
    while (!line.empty() && blank(line.back())) line.pop_back();
    std::size_t first = 0;
    while (first < line.size() && blank(line[first])) ++first;
    line.erase(0, first);
    if (!line.empty()) text += (text.empty() ? "" : "\n") + line;
    at = end + 1;
  }
  return text;
}

std::string timestamp(double seconds, char separator) {
  const long long ms = std::isfinite(seconds) && seconds > 0 ? std::llround(seconds * 1000.0) : 0;
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%02lld:%02lld:%02lld%c%03lld", ms / 3'600'000, ms / 60'000 % 60,
                ms / 1000 % 60, separator, ms % 1000);
  return buffer;
}

std::string webvtt_escaped(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '&') out += "&amp;";
    else if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else out += c;
  }
  return out;
}

}  // namespace

long long subtitle_frame_count(const Lesson& lesson, const SubtitleWindow& window) {
  const double seconds = window.seconds ? *window.seconds : std::max(0.0, lesson.duration() - window.from);
  return video_frame_count(seconds, window.fps);
}

std::optional<SubtitleWindow> lesson_window_in_video(int fps, double video_from, std::optional<double> video_seconds,
                                                     double title_seconds, std::optional<double> lesson_end) {
  SubtitleWindow window;
  window.fps = std::max(1, fps);
  window.from = std::max(0.0, video_from - title_seconds);
  window.video_offset = std::max(0.0, title_seconds - video_from);
  if (video_seconds) {
    // The video's last frame shows video_from + (frames - 1) / fps: before the card ends, the
    // lesson is never on screen, and a cue would start after the video ended.
    const long long frames = video_frame_count(*video_seconds, window.fps);
    if (video_from + static_cast<double>(frames - 1) / window.fps < title_seconds) return std::nullopt;
    window.seconds = std::max(1.0 / window.fps, video_from + *video_seconds - title_seconds - window.from);
  }
  if (lesson_end) {
    if (window.from >= *lesson_end) return std::nullopt;  // starts on the end card
    const double shown = *lesson_end - window.from;
    window.seconds = window.seconds ? std::min(*window.seconds, shown) : shown;
  }
  return window;
}

std::vector<SubtitleCue> subtitle_cues(const Lesson& lesson, Language language, const SubtitleWindow& window) {
  std::vector<SubtitleCue> cues;
  if (window.fps < 1) return cues;
  const long long count = subtitle_frame_count(lesson, window);
  // Steps in playing order; each is on screen from its first frame to the next step's first
  // frame (the last step to the end of the video, which holds the final state).
  std::vector<const LessonStep*> steps;
  for (const LessonScene& scene : lesson.scenes)
    for (const LessonStep& step : scene.steps) steps.push_back(&step);
  for (std::size_t i = 0; i < steps.size(); ++i) {
    // The first step is on screen from the lesson's start, whatever its start time says.
    const long long begin = i == 0 ? 0 : std::min(count, first_frame_at(window, steps[i]->start_seconds));
    const long long end = i + 1 == steps.size() ? count : std::min(count, first_frame_at(window, steps[i + 1]->start_seconds));
    if (end <= begin) continue;  // before or after the window, or shorter than a frame
    std::string text = cue_text(steps[i]->caption.in(language));
    if (text.empty()) continue;
    const double fps = window.fps;
    cues.push_back({window.video_offset + static_cast<double>(begin) / fps,
                    window.video_offset + static_cast<double>(end) / fps, std::move(text)});
  }
  return cues;
}

std::string srt_timestamp(double seconds) { return timestamp(seconds, ','); }
std::string webvtt_timestamp(double seconds) { return timestamp(seconds, '.'); }

std::string format_srt(const std::vector<SubtitleCue>& cues) {
  std::string out;
  for (std::size_t i = 0; i < cues.size(); ++i) {
    if (i > 0) out += '\n';
    out += std::to_string(i + 1) + '\n' + srt_timestamp(cues[i].start) + " --> " + srt_timestamp(cues[i].end) +
           '\n' + cues[i].text + '\n';
  }
  return out;
}

std::string format_webvtt(const std::vector<SubtitleCue>& cues) {
  std::string out = "WEBVTT\n";
  for (const SubtitleCue& cue : cues)
    out += '\n' + webvtt_timestamp(cue.start) + " --> " + webvtt_timestamp(cue.end) + '\n' +
           webvtt_escaped(cue.text) + '\n';
  return out;
}

std::filesystem::path subtitle_path(const std::filesystem::path& video, bool video_is_folder,
                                    const std::string& lesson_name, const std::string& extension) {
  std::filesystem::path path = video;
  if (!path.has_filename()) path = path.parent_path();  // "frames/"
  const std::string name = path.filename().string();
  if (name.empty() || name == "." || name == "..") return path / (lesson_name + extension);
  if (video_is_folder) return path += extension;  // "frames.d/" -> "frames.d.srt", nothing replaced
  return path.replace_extension(extension);
}

bool write_subtitle_files(const std::vector<SubtitleCue>& cues, const std::filesystem::path& srt,
                          const std::filesystem::path& vtt, std::string& error) {
  if (!write_output_file(srt, format_srt(cues), error)) return false;
  if (write_output_file(vtt, format_webvtt(cues), error)) return true;
  // A pair or nothing: subtitles in one format only would look like a finished recording.
  std::error_code ignored;
  std::filesystem::remove(srt, ignored);
  return false;
}

}  // namespace ringviz
