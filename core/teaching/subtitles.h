#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/model/text.h"
#include "core/teaching/lesson.h"

// Subtitles for a recorded lesson: one cue per caption, timed to the frames of the video that
// show it, written as SubRip (.srt) and WebVTT (.vtt) beside the video so that a player shows
// them and a translator can edit them.
//
// The times come from the same deterministic clock the recorder uses (frame k of the lesson
// shows lesson time from + k / fps, and lesson_frame() picks the step whose start is at or
// before that time), so a cue starts on the first frame that shows its caption and ends where
// the next caption's first frame begins: the subtitles can never disagree with the picture.

namespace ringviz {

// Which part of the lesson a video holds, and where in the video it starts.
struct SubtitleWindow {
  int fps = 60;                   // the recording's frame rate, at least 1
  double from = 0.0;              // the lesson time of the video's first lesson frame
  std::optional<double> seconds;  // how much of the lesson was recorded; none: to its end
  // Seconds of video before the lesson's first frame (a title card, say): every cue moves
  // this much later. 0 when the video starts with the lesson.
  double video_offset = 0.0;
};

struct SubtitleCue {
  double start = 0.0;  // seconds into the video
  double end = 0.0;    // exclusive; the next cue may start here
  std::string text;    // UTF-8, lines separated by '\n', never an empty line
};

// The part of the lesson a video shows that opens on `title_seconds` of title card (0: none)
// before the lesson: the video is `video_seconds` long (none: to the lesson's end) from video
// time `video_from`, at `fps`. The window starts at the lesson time the video reaches and its
// cues move by what is left of the card. `lesson_end`: the lesson time where an end card
// covers the picture (the stage's, at the lesson's end), so that no cue runs on into it; none
// when the video holds the lesson's last frame to its end. None when no frame of the video
// shows the lesson (it ends inside the title card, or starts on the end card): such a video
// has no cue at all.
std::optional<SubtitleWindow> lesson_window_in_video(int fps, double video_from, std::optional<double> video_seconds,
                                                     double title_seconds,
                                                     std::optional<double> lesson_end = std::nullopt);

// Frames a recording of `window` holds: video_frame_count of its seconds, as the recorder counts.
long long subtitle_frame_count(const Lesson& lesson, const SubtitleWindow& window);

// One cue per step whose caption is on screen in at least one frame of the window, in order,
// with the caption in `language`. Start times increase strictly and no cue overlaps the next.
// Steps whose caption is blank get no cue.
std::vector<SubtitleCue> subtitle_cues(const Lesson& lesson, Language language, const SubtitleWindow& window);

// "HH:MM:SS,mmm" (SubRip) and "HH:MM:SS.mmm" (WebVTT), rounded to the millisecond; hours
// grow past two digits when they must. Negative times read as 0.
std::string srt_timestamp(double seconds);
std::string webvtt_timestamp(double seconds);

// The whole file: numbered cues separated by blank lines (SubRip), or the "WEBVTT" header and
// cues with '&', '<' and '>' escaped (WebVTT, whose cue text is markup). UTF-8, no BOM.
std::string format_srt(const std::vector<SubtitleCue>& cues);
std::string format_webvtt(const std::vector<SubtitleCue>& cues);

// Where the subtitles of a video go, given its extension (".srt" or ".vtt"): beside it, under
// its name. A video file's extension is replaced (lesson.mp4 -> lesson.srt, which players pick
// up by themselves); a folder of PNG frames gains one (frames/ -> frames.srt), so that the
// folder keeps nothing but frames. A folder named "." or ".." (no name to take) holds them under
// `lesson_name` instead.
std::filesystem::path subtitle_path(const std::filesystem::path& video, bool video_is_folder,
                                    const std::string& lesson_name, const std::string& extension);

// Writes both files through OutputFile (a hidden temporary renamed into place). False with
// `error` set ("cannot write <path>: ...") when either fails; the .srt just written is then
// removed again, so that a pair or nothing is left.
bool write_subtitle_files(const std::vector<SubtitleCue>& cues, const std::filesystem::path& srt,
                          const std::filesystem::path& vtt, std::string& error);

}  // namespace ringviz
