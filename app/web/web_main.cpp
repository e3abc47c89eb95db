// The page's entry point (docs/architecture.md, "The browser build"): the browser host opens
// the view the address's fragment names and draws a frame per animation frame of the browser.
// The functions below are what web/shell.html calls (and the browser test's hook).
#include <cstdlib>
#include <iostream>
#include <string>

#include <emscripten.h>

#include "app/web/browser_page.h"

namespace {

ringviz::web::BrowserPage* page = nullptr;
std::string answer;  // the last string handed to JavaScript, kept alive until the next call

void draw_frame() { page->frame(); }

}  // namespace

extern "C" {

// The page's state as JSON: frames drawn, operation, GPUs, round, view, language, modes, link.
EMSCRIPTEN_KEEPALIVE const char* ringviz_web_state() {
  answer = page ? page->state_json() : std::string("{}");
  return answer.c_str();
}

// The link of the view on screen ("#op=...").
EMSCRIPTEN_KEEPALIVE const char* ringviz_web_link() {
  answer = page ? page->link() : std::string();
  return answer.c_str();
}

// The address's fragment changed (a link pasted, back or forward): show that view.
EMSCRIPTEN_KEEPALIVE void ringviz_web_follow_fragment(const char* fragment) {
  if (page) page->follow_fragment(fragment);
}

// The Chinese font's fetch ended (web/shell.html, fetchChineseFont): written to its path in
// the page's file system when `ok`, else `error` says why not.
EMSCRIPTEN_KEEPALIVE void ringviz_web_font_fetched(int ok, const char* error) {
  if (page) page->font_fetched(ok != 0, error);
}

// The file picker put a file at `path` in the page's file system: replay it.
EMSCRIPTEN_KEEPALIVE void ringviz_web_open_file(const char* path) {
  if (page) page->open_file(path);
}

}  // extern "C"

int main() {
  // Where the packaged data lies in the page's file system (web/CMakeLists.txt, --preload-file):
  // the lessons (captures and jobs beside them, as installed on the desktop); the Chinese font
  // is fetched to its path when first asked for (BrowserPage::request_chinese_font).
  setenv("RINGVIZ_LESSONS", "/ringviz/lessons", 1);
  setenv("RINGVIZ_CJK_FONT", "/ringviz/fonts/wqy-microhei.ttc", 1);
  static ringviz::web::BrowserPage the_page;
  std::string error;
  if (!the_page.open(error)) {
    std::cerr << "ringviz: " << error << "\n";
    EM_ASM({ ringvizPage.notice("ringviz cannot draw here: " + UTF8ToString($0)); }, error.c_str());
    return 1;
  }
  page = &the_page;
  page->follow_fragment(emscripten_run_script_string("location.hash"));
  // The browser calls draw_frame once per animation frame; main returns and the page lives on.
  emscripten_set_main_loop(draw_frame, 0, false);
  return 0;
}
