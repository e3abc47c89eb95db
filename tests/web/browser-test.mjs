// The page in a real browser (make test's "browser" stage; docs/architecture.md, "The browser
// build"): Debian's chromium, headless, driven by puppeteer-core over the DevTools protocol,
// loads build-web/ from a static server on 127.0.0.1 and checks what a student would do.
//
//   node browser-test.mjs test  WEB_DIR DESKTOP_RINGVIZ OUT_DIR
//   node browser-test.mjs bench WEB_DIR DESKTOP_RINGVIZ OUT_DIR
//   node browser-test.mjs profile WEB_DIR DESKTOP_RINGVIZ OUT_DIR   (RINGVIZ_PROFILE_GPUS, default 16)
//
// Every check prints one line; the first that fails ends the run with exit 1.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import puppeteer from 'puppeteer-core';

const [mode, webDir, desktop, outDir] = process.argv.slice(2);
if (!['test', 'bench', 'profile'].includes(mode) || !webDir || !desktop || !outDir) {
  console.error('usage: node browser-test.mjs test|bench|profile WEB_DIR DESKTOP_RINGVIZ OUT_DIR');
  process.exit(2);
}
const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..');
fs.mkdirSync(outDir, { recursive: true });

function fail(message) {
  console.error(`FAIL: ${message}`);
  process.exitCode = 1;
  throw new Error(message);
}
function check(condition, message, detail = '') {
  if (!condition) fail(`${message}${detail ? ` (${detail})` : ''}`);
  console.log(`ok: ${message}`);
}

// A static server for the page's files, on a port the system picks. The Chinese font (fetched
// only when Chinese is chosen) can be held back a while or refused, to see the page's loading
// state and its notice when the font does not come.
const types = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.data': 'application/octet-stream',
                '.ttc': 'font/collection' };
const fontName = 'wqy-microhei.ttc';
const fontServing = { delayMs: 0, refuse: false, requests: 0 };
const server = http.createServer((request, response) => {
  const name = decodeURIComponent(new URL(request.url, 'http://x').pathname);
  const file = path.join(webDir, name === '/' ? 'index.html' : name);
  const isFont = path.basename(file) === fontName;
  if (isFont) fontServing.requests += 1;
  if (!file.startsWith(path.resolve(webDir)) || !fs.existsSync(file) || fs.statSync(file).isDirectory() ||
      (isFont && fontServing.refuse)) {
    response.writeHead(404);
    response.end();
    return;
  }
  const send = () => {
    response.writeHead(200, { 'Content-Type': types[path.extname(file)] || 'application/octet-stream', 'Cache-Control': 'no-store' });
    fs.createReadStream(file).pipe(response);
  };
  if (isFont && fontServing.delayMs > 0) setTimeout(send, fontServing.delayMs); else send();
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${server.address().port}/`;

const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'ringviz-chromium-'));
const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  userDataDir: profile,
  args: ['--no-sandbox', '--disable-dev-shm-usage', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
         '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run',
         '--autoplay-policy=no-user-gesture-required'],
});

// The canvas sits under the page's 29-pixel bar: a viewport this much taller gives a canvas of
// exactly width x height, the desktop frame's size.
const kBar = 29;
// Every console line of every page opened, for the check that WebGL never complained.
const allMessages = [];
async function openPage(fragment, width, height, scale = 1) {
  const page = await browser.newPage();
  const messages = [];
  page.on('console', (m) => { messages.push(m.text()); allMessages.push(m.text()); });
  page.on('pageerror', (e) => messages.push(`page error: ${e.message}`));
  await page.setViewport({ width, height: height + kBar, deviceScaleFactor: scale });
  const started = Date.now();
  await page.goto(base + 'index.html' + fragment, { waitUntil: 'load' });
  await page.waitForFunction(() => typeof ringvizPage !== 'undefined' && ringvizPage.firstFrameMs !== null,
                             { timeout: 60000 }).catch(() => fail(`no first frame within 60 s: ${messages.join(' | ')}`));
  const firstFrameMs = await page.evaluate(() => ringvizPage.firstFrameMs);
  return { page, messages, firstFrameMs, wallMs: Date.now() - started };
}
const state = (page) => page.evaluate(() => ringvizPage.state());
// Frames drawn after now: whatever a key or a link changed is on the canvas then.
async function settle(page, frames = 4) {
  const start = (await state(page)).frames;
  await page.waitForFunction((n) => ringvizPage.state().frames >= n, { timeout: 30000 }, start + frames);
}
// A step animates the timeline to its next round without "playing": still means the round
// stayed the same over several frames.
async function untilStill(page) {
  await page.waitForFunction(() => !ringvizPage.state().playing, { timeout: 30000 });
  let last = -1;
  for (let tries = 0; tries < 200; ++tries) {
    await settle(page, 6);
    const round = (await state(page)).round;
    if (round === last) return;
    last = round;
  }
  fail('the timeline never came to rest');
}
// Held for 100 ms, as a person's key press is: Dear ImGui 1.86 reads whether a key is down once
// a frame, so a press and release that both land between two frames (puppeteer's default, no
// delay) is never seen, by the page or by the desktop window alike.
async function press(page, key) {
  await page.keyboard.press(key, { delay: 100 });
  await settle(page);
}
async function canvasShot(page, file) {
  const canvas = await page.$('#canvas');
  await canvas.screenshot({ path: file });
  return file;
}
function desktopShot(args, file, layout) {
  execFileSync(desktop, ['--headless', '--settings', 'off', ...args, '--screenshot', file, ...(layout ? ['--dump-layout', layout] : [])],
               { stdio: ['ignore', 'inherit', 'inherit'] });
}

async function runTest() {
  const W = 1280, H = 720;
  // 1. A link opens its view, paused at its round.
  const fragment = '#op=allreduce&gpus=8&round=3.5';
  const { page, messages, firstFrameMs } = await openPage(fragment, W, H);
  console.log(`first frame: ${firstFrameMs.toFixed(0)} ms after navigation start`);
  let s = await state(page);
  check(s.op === 'allreduce' && s.gpus === 8 && s.round === 3.5 && !s.playing, 'the link opens allreduce on 8 GPUs paused at round 3.5',
        JSON.stringify(s));
  check(s.width === W && s.height === H, `the canvas draws ${W}x${H} device pixels`, `${s.width}x${s.height}`);

  // 2. Its ring view's pixels against the desktop's headless frame of the same state.
  await settle(page);
  const browserPng = await canvasShot(page, path.join(outDir, 'browser-ring.png'));
  const desktopPng = path.join(outDir, 'desktop-ring.png');
  const layout = path.join(outDir, 'desktop-ring.json');
  desktopShot(['--size', `${W}x${H}`, '--op', 'allreduce', '--gpus', '8', '--round', '3.5'], desktopPng, layout);
  let compared = '';
  try {
    compared = execFileSync('python3', [path.join(here, 'compare_ring.py'), browserPng, desktopPng, layout], { encoding: 'utf8' });
    process.stdout.write(compared);
  } catch (error) {
    process.stdout.write(error.stdout || '');
    fail('the ring view differs from the desktop renderer beyond the stated tolerance');
  }
  check(true, 'the ring view matches the desktop headless renderer within tolerance');

  // A page that stands still stops drawing (the canvas keeps its last frame), as the desktop
  // window sleeps; it still counts the browser's animation frames.
  const still = await state(page);
  await settle(page, 20);
  s = await state(page);
  check(s.frames - still.frames >= 20 && s.drawn - still.drawn <= 3, 'a page that stands still draws nothing',
        `${s.frames - still.frames} animation frames, ${s.drawn - still.drawn} drawn`);

  // 3. Keys, as on the desktop.
  await press(page, 'ArrowRight');
  await untilStill(page);
  s = await state(page);
  check(s.round > 3.5, 'Right steps forward', `round ${s.round}`);
  const afterRight = s.round;
  await press(page, 'ArrowLeft');
  await untilStill(page);
  s = await state(page);
  check(s.round < afterRight, 'Left steps back', `round ${s.round}`);
  await press(page, 'Space');
  s = await state(page);
  check(s.playing, 'Space plays');
  await press(page, 'Space');
  s = await state(page);
  check(!s.playing, 'Space pauses');
  // 1, 2, 3: AllGather, ReduceScatter, AllReduce.
  await press(page, 'Digit1');
  s = await state(page);
  check(s.op === 'allgather', '1 switches to AllGather', s.op);
  await press(page, 'Digit2');
  s = await state(page);
  check(s.op === 'reducescatter', '2 switches to ReduceScatter', s.op);
  await press(page, 'Digit3');
  s = await state(page);
  check(s.op === 'allreduce', '3 switches to AllReduce', s.op);
  // Chinese: its font is not in the page's download but fetched now, the first time. Held back
  // a second here, so the loading state can be seen.
  check(fontServing.requests === 0 && s.chinese_font === 'not_asked', 'an English page never fetches the Chinese font',
        `${fontServing.requests} requests, ${s.chinese_font}`);
  fontServing.delayMs = 1500;
  await press(page, 'KeyL');
  s = await state(page);
  const loadingText = await page.$eval('#status', (e) => e.textContent);
  check(s.chinese_font === 'loading' && s.lang === 'en' && loadingText.includes('loading the Chinese font'),
        'while the font loads, the page says so and stays English', `${s.chinese_font} ${s.lang} '${loadingText}'`);
  await page.screenshot({ path: path.join(outDir, 'browser-font-loading.png') });  // the page's bar says it
  await page.waitForFunction(() => ringvizPage.state().lang === 'zh', { timeout: 30000 }).catch(() => {});
  fontServing.delayMs = 0;
  s = await state(page);
  check(s.lang === 'zh' && s.chinese_font === 'arrived', 'L switches to Chinese once the font is here', `${s.lang} ${s.chinese_font}`);
  await settle(page);
  await canvasShot(page, path.join(outDir, 'browser-zh.png'));
  await press(page, 'KeyL');
  s = await state(page);
  check(s.lang === 'en', 'L switches back to English', s.lang);
  await press(page, 'KeyP');
  s = await state(page);
  check(s.presentation, 'P turns presentation mode on');
  await press(page, 'KeyP');
  s = await state(page);
  check(!s.presentation, 'P turns it off');

  // 4. History: each settled change is an entry; back and forward walk them.
  await press(page, 'Digit1');
  await page.waitForFunction(() => location.hash.includes('op=allgather'), { timeout: 10000 }).catch(() => {});
  const withAllGather = await page.evaluate(() => location.hash);
  check(withAllGather.includes('op=allgather'), 'the address follows the view', withAllGather);
  await page.goBack();
  await settle(page);
  s = await state(page);
  check(s.op === 'allreduce', 'back returns to AllReduce', `${s.op} ${await page.evaluate(() => location.hash)}`);
  await page.goForward();
  await settle(page);
  s = await state(page);
  check(s.op === 'allgather', 'forward returns to AllGather', s.op);
  await press(page, 'Digit3');

  // 5. A link round-trips: the link of this view opens the same view in a fresh page.
  await press(page, 'ArrowRight');
  await untilStill(page);
  await press(page, 'KeyL');
  await press(page, 'KeyP');
  const before = await state(page);
  const link = await page.evaluate(() => ringvizPage.link());
  const second = await openPage(link, W, H);
  // Chinese once the page has fetched its font.
  await second.page.waitForFunction(() => ringvizPage.state().lang === 'zh', { timeout: 30000 }).catch(() => {});
  const after = await state(second.page);
  for (const key of ['op', 'gpus', 'round', 'view', 'lang', 'presentation', 'predict'])
    check(after[key] === before[key], `the copied link restores ${key}`, `${before[key]} -> ${after[key]} via ${link}`);
  await second.page.close();
  await press(page, 'KeyP');
  await press(page, 'KeyL');

  // A link opens another view, language and lesson scene.
  const memory = await openPage('#op=allreduce&gpus=4&view=memory&lang=zh', W, H);
  await memory.page.waitForFunction(() => ringvizPage.state().lang === 'zh', { timeout: 30000 }).catch(() => {});
  await settle(memory.page);
  s = await state(memory.page);
  check(s.view === 'memory' && s.lang === 'zh', 'a link opens the Memory view in Chinese', JSON.stringify(s));
  await canvasShot(memory.page, path.join(outDir, 'browser-memory-zh.png'));
  await memory.page.close();
  const lesson = await openPage('#lesson=05-allreduce-traffic&scene=2', W, H);
  s = await state(lesson.page);
  check(s.lesson === '05-allreduce-traffic' && s.scene === 2 && !s.playing, 'a link opens a lesson paused at its scene',
        JSON.stringify(s));
  await lesson.page.close();

  // 6. A bad link: a visible notice and the default view, never a blank page.
  const bad = await openPage('#gpus=9999&view=nowhere', W, H);
  s = await state(bad.page);
  const notice = await bad.page.$eval('#notice', (e) => e.textContent);
  check(notice.length > 0 && s.frames > 0 && s.gpus > 0, 'a bad link shows a notice and the default view', notice);
  const unknown = await openPage('#screenshot=x.png', W, H);
  const unknownNotice = await unknown.page.$eval('#notice', (e) => e.textContent);
  check(unknownNotice.includes('screenshot'), 'a link cannot name an output file', unknownNotice);
  await bad.page.close();
  await unknown.page.close();

  // A font that does not come: a notice naming why, and the page stays English.
  fontServing.refuse = true;
  const noFont = await openPage('#gpus=4&lang=zh', W, H);
  await noFont.page.waitForFunction(() => ringvizPage.state().chinese_font === 'failed', { timeout: 30000 }).catch(() => {});
  await settle(noFont.page);
  s = await state(noFont.page);
  const fontNotice = await noFont.page.$eval('#notice', (e) => e.textContent);
  check(s.chinese_font === 'failed' && s.lang === 'en' && fontNotice.includes('did not load') && fontNotice.includes('404'),
        'a Chinese font that does not load is a notice, and the page stays English', `${s.chinese_font} ${s.lang} '${fontNotice}'`);
  await noFont.page.screenshot({ path: path.join(outDir, 'browser-font-failed.png') });
  await noFont.page.close();
  fontServing.refuse = false;

  // 7. The file picker replays a capture from disk.
  const picker = await page.$('#file');
  await picker.uploadFile(path.join(repo, 'assets', 'captures', 'straggler-4gpus.json'));
  await page.waitForFunction(() => ringvizPage.state().open !== '', { timeout: 30000 })
    .catch(() => fail('the picked file was not opened'));
  await settle(page);
  s = await state(page);
  check(s.open.endsWith('straggler-4gpus.json') && s.gpus === 4, 'the file picker opens a shipped capture', JSON.stringify(s));
  await canvasShot(page, path.join(outDir, 'browser-capture.png'));

  // 8. Recording: a WebM of the canvas, and a PNG of the frame.
  await page.evaluate(() => ringvizPage.toggleRecording());
  await press(page, 'Space');
  await new Promise((r) => setTimeout(r, 1500));
  await page.evaluate(() => ringvizPage.toggleRecording());
  await page.waitForFunction(() => ringvizPage.lastRecording !== undefined, { timeout: 10000 });
  const webm = await page.evaluate(() => ringvizPage.lastRecording.size);
  check(webm > 1000, 'Record WebM makes a video of the canvas', `${webm} bytes`);
  // The PNG of a page standing still, as the PNG button reads it.
  await press(page, 'Space');
  await untilStill(page);
  await settle(page, 10);
  const pngBytes = await page.evaluate(() => new Promise((resolve) => {
    document.getElementById('canvas').toBlob((b) => resolve(b.size), 'image/png');
  }));
  check(pngBytes > 20000, 'the PNG of the current frame is the frame, though the page stands still', `${pngBytes} bytes`);

  // 9. High-DPI and resizing: the canvas has a device pixel per pixel, the UI scales with it.
  const hidpi = await openPage('#gpus=4', 800, 500, 2);
  s = await state(hidpi.page);
  check(s.width === 1600 && s.height === 1000 && Math.abs(s.ui_scale - 2) < 1e-6, 'devicePixelRatio 2: 1600x1000 pixels, UI scale 2',
        `${s.width}x${s.height} scale ${s.ui_scale}`);
  await canvasShot(hidpi.page, path.join(outDir, 'browser-hidpi.png'));
  await hidpi.page.setViewport({ width: 640, height: 400 + kBar, deviceScaleFactor: 2 });
  await settle(hidpi.page);
  s = await state(hidpi.page);
  check(s.width === 1280 && s.height === 800, 'the canvas follows a resize', `${s.width}x${s.height}`);

  // 10. Touch: a tap is a click (on the Memory tab, where the desktop layout puts tabs).
  const tapPage = await openPage('#gpus=4', W, H, 1);
  await tapPage.page.evaluate(() => {
    const canvas = document.getElementById('canvas');
    const touch = (type, x, y) => {
      const t = new Touch({ identifier: 1, target: canvas, clientX: x, clientY: y });
      canvas.dispatchEvent(new TouchEvent(type, { touches: type === 'touchend' ? [] : [t], changedTouches: [t],
                                                  bubbles: true, cancelable: true }));
    };
    ringvizPage.tapAt = (x, y) => { touch('touchstart', x, y); setTimeout(() => touch('touchend', x, y), 50); };
  });
  const tabs = JSON.parse(fs.readFileSync(layout, 'utf8')).texts.filter((t) => t.text === 'Memory');
  check(tabs.length > 0, 'the desktop layout names the Memory tab');
  const tab = tabs[0];
  await tapPage.page.evaluate((x, y) => ringvizPage.tapAt(x, y), tab.x + tab.w / 2, tab.y + tab.h / 2 + kBar);
  await settle(tapPage.page, 8);
  s = await state(tapPage.page);
  check(s.view === 'memory', 'a tap on the Memory tab opens it', s.view);

  const errors = messages.filter((m) => m.startsWith('page error'));
  check(errors.length === 0, 'no page errors', errors.join(' | '));
  // WebGL's warnings ("WebGL: INVALID_VALUE: bufferSubData: buffer overflow", any GL error) on
  // any page of this run: a call WebGL refused drew nothing it was meant to. ANGLE's
  // performance notes ("GL Driver Message (OpenGL, Performance, ...)") are not refusals.
  const webgl = allMessages.filter((m) => /WebGL: |GL_INVALID|GL ERROR|GL Driver Message \(OpenGL, Error/.test(m));
  check(webgl.length === 0, 'no WebGL warnings on the console of any page', webgl.slice(0, 3).join(' | '));
}

// Frame times while the ring plays, two ways:
//   - shown: the interval between animation frames, what a visitor sees; the browser offers a
//     frame per refresh of its 60 Hz display, so 16.7 ms is every frame on time;
//   - work: one frame's own time, from the page's frame call until a one-pixel readPixels
//     returns (it waits for the GPU process to have drawn the frame; Chromium's gl.finish()
//     does not wait), as the desktop's --bench-frames counts "frame" (build + submit +
//     glFinish). It includes one round trip to the GPU process, which the frame itself no
//     longer makes.
// Two runs of `frames` frames, each from the start of the collective, playing: shown first,
// untouched; then work, whose readPixels makes the page wait for each frame's drawing (so it
// is not timed in the same run as shown). A run in which the ring stopped playing fails.
async function frameTimes(page, gpus, frames) {
  const run = async (withWork) => {
    await page.evaluate((f) => { location.hash = f; }, `#gpus=${gpus}&round=0`);
    await page.waitForFunction((g) => { const s = ringvizPage.state(); return s.gpus === g && s.round === 0; },
                               { timeout: 30000 }, gpus);
    // A quarter of the speed: packets still move every frame, and the shortest collective (4
    // GPUs, 6 rounds) plays for 38 s, longer than both runs even at a few frames a second.
    await press(page, 'Minus');
    await press(page, 'Minus');
    // On a loaded machine a frame can outlast the 100 ms press: pressed again until it plays.
    for (let tries = 0; tries < 5 && !(await state(page)).playing; ++tries) await press(page, 'Space');
    if (!(await state(page)).playing) fail(`${gpus} GPUs: Space did not start playing`);
    const times = await timeFrames(page, frames, withWork);
    const after = await state(page);
    if (!after.playing) fail(`the ring stopped playing while ${gpus} GPUs were timed (round ${after.round} of ${after.rounds})`);
    return times;
  };
  const shown = (await run(false)).shown;
  const work = (await run(true)).work;
  return { shown, work };
}
async function timeFrames(page, frames, withWork) {
  return page.evaluate((count, withWork) => new Promise((resolve) => {
    const shown = [], work = [];
    let last = performance.now(), start = 0;
    const gl = Module.ctx;
    const pixel = new Uint8Array(4);
    if (withWork) {
      Module.preMainLoop = () => { start = performance.now(); };
      Module.postMainLoop = () => {
        gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, pixel);
        work.push(performance.now() - start);
      };
    }
    function tick(now) {
      shown.push(now - last);
      last = now;
      if (shown.length < count) { requestAnimationFrame(tick); return; }
      Module.preMainLoop = Module.postMainLoop = undefined;
      resolve({ shown: shown.slice(1), work: work.slice(2) });
    }
    requestAnimationFrame(tick);
  }), frames, withWork);
}

async function runBench() {
  const W = 1600, H = 900;
  const rows = [];
  const pick = (values, q) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  };
  for (const gpus of [4, 16, 64, 256]) {
    const { page, firstFrameMs } = await openPage(`#gpus=${gpus}&round=1`, W, H);
    const { shown, work } = await frameTimes(page, gpus, 121);  // 120 intervals, as the desktop times 120 frames
    rows.push({ gpus, first: firstFrameMs, median: pick(shown, 0.5), p99: pick(shown, 0.99),
                workMedian: pick(work, 0.5), workP99: pick(work, 0.99) });
    await page.close();
  }
  console.log(`browser (headless chromium, SwiftShader WebGL2), playing, ${W}x${H}:`);
  console.log('                        shown (frame to frame)   work (frame + readPixels)');
  console.log('  GPUs  first frame ms    median ms   p99 ms      median ms   p99 ms');
  for (const r of rows)
    console.log(`  ${String(r.gpus).padStart(4)}  ${r.first.toFixed(0).padStart(14)}  ${r.median.toFixed(1).padStart(11)}  ` +
                `${r.p99.toFixed(1).padStart(7)}  ${r.workMedian.toFixed(1).padStart(13)}  ${r.workP99.toFixed(1).padStart(7)}`);
  console.log('desktop (--headless --bench-frames 120, same machine):');
  console.log(execFileSync(desktop, ['--headless', '--settings', 'off', '--size', `${W}x${H}`, '--bench-frames', '120',
                                     '--bench-gpus', '4,16,64,256'], { encoding: 'utf8' }));
  const sizes = (names) => {
    let raw = 0, gz = 0;
    for (const name of names) {
      const bytes = fs.readFileSync(path.join(webDir, name));
      raw += bytes.length;
      gz += zlib.gzipSync(bytes, { level: 9 }).length;
    }
    return `${(raw / 1e6).toFixed(2)} MB as files, ${(gz / 1e6).toFixed(2)} MB gzip-compressed`;
  };
  console.log(`download: ${sizes(['index.html', 'index.js', 'index.wasm', 'index.data'])} (index.html, .js, .wasm, .data)`);
  if (fs.existsSync(path.join(webDir, fontName)))
    console.log(`  and only when Chinese is chosen, ${fontName}: ${sizes([fontName])}`);
}

// Where a playing frame's time goes (make web-profile): the CPU time of each of chromium's
// processes while the ring plays, and the page's main thread sampled by the DevTools profiler,
// its self time per function (WebAssembly functions by name when the page was linked with
// --profiling-funcs). The profile itself is written to OUT_DIR/page.cpuprofile.
function processTimes(rootPid) {
  const kinds = new Map();
  kinds.pids = [];
  const walk = (pid) => {
    let stat, cmdline;
    try {
      stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch { return; }
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    const type = (cmdline.match(/--type=([a-z-]+)/) || [null, 'browser'])[1];
    kinds.set(type, (kinds.get(type) || 0) + ticks);
    kinds.pids.push(`${type}:${pid}`);
    let children = '';
    try { children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8'); } catch { /* gone */ }
    for (const child of children.split(' ').filter(Boolean)) walk(Number(child));
  };
  walk(rootPid);
  return kinds;
}

async function runProfile() {
  const W = 1600, H = 900;
  const gpus = Number(process.env.RINGVIZ_PROFILE_GPUS || 16);
  const seconds = Number(process.env.RINGVIZ_PROFILE_SECONDS || 4);
  const { page } = await openPage(`#gpus=${gpus}&round=1`, W, H);
  await page.evaluate((f) => { location.hash = f; }, `#gpus=${gpus}&round=0`);
  await press(page, 'Minus');
  await press(page, 'Minus');
  for (let tries = 0; tries < 5 && !(await state(page)).playing; ++tries) await press(page, 'Space');
  const session = await page.target().createCDPSession();
  await session.send('Profiler.enable');
  await session.send('Profiler.setSamplingInterval', { interval: 200 });
  const pid = browser.process().pid;
  const before = processTimes(pid), framesBefore = (await state(page)).drawn;
  console.log(`profiling from now, ${seconds} s (chromium's processes: ${[...before.pids].join(' ')})`);
  await session.send('Profiler.start');
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const { profile } = await session.send('Profiler.stop');
  const after = processTimes(pid), framesAfter = (await state(page)).drawn;
  if (!(await state(page)).playing) fail('the ring stopped playing while it was profiled');
  fs.writeFileSync(path.join(outDir, 'page.cpuprofile'), JSON.stringify(profile));
  const frames = framesAfter - framesBefore;
  const tick = 1000 / 100;  // ms per clock tick (USER_HZ 100)
  console.log(`${gpus} GPUs, ${W}x${H}, ${seconds} s playing: ${frames} frames drawn`);
  for (const [kind, ticks] of after)
    console.log(`  ${kind.padEnd(14)} CPU ${((ticks - (before.get(kind) || 0)) * tick / frames).toFixed(2)} ms a frame`);
  const self = new Map();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  for (let i = 0; i < profile.samples.length; ++i) {
    const node = byId.get(profile.samples[i]);
    const f = node.callFrame;
    const name = `${f.functionName || '(anonymous)'} ${f.url ? path.basename(f.url) + ':' + f.lineNumber : ''}`;
    self.set(name, (self.get(name) || 0) + (profile.timeDeltas[i] || 0) / 1000);
  }
  const rows = [...self].sort((a, b) => b[1] - a[1]);
  const total = rows.reduce((sum, [, ms]) => sum + ms, 0);
  console.log(`main thread, self time per frame (of ${(total / frames).toFixed(2)} ms sampled a frame, idle included):`);
  for (const [name, ms] of rows.slice(0, 40)) console.log(`  ${(ms / frames).toFixed(3).padStart(8)} ms  ${name}`);
}

try {
  if (mode === 'test') await runTest();
  else if (mode === 'bench') await runBench();
  else await runProfile();
} catch (error) {
  if (!process.exitCode) {
    console.error(`FAIL: ${error.stack || error}`);
    process.exitCode = 1;
  }
} finally {
  await browser.close();
  server.close();
  fs.rmSync(profile, { recursive: true, force: true });
}
