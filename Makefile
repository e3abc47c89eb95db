# The two commands of the README: `make run` and `make test`. Each installs what is missing,
# configures a Release build (CUDA when nvcc exists), builds with every core, then runs.
BUILD      ?= build
ASAN_BUILD ?= build-asan
FUZZ_SECONDS ?= 10
JOBS       ?= $(shell nproc)
CMAKE_ARGS ?=
# The sanitizer build's compiler: clang++ where installed (install-deps.sh installs it for the
# fuzzers), which builds it in half the time g++ takes; g++ otherwise.
SANITIZE_CXX ?= $(shell command -v clang++ || command -v c++)
# `make test` times each stage here and prints the table at the end (scripts/test-stages.sh).
STAGE_LOG  ?= $(BUILD)/test-stages.tsv
STAGE      = bash scripts/test-stages.sh run $(STAGE_LOG)
# The browser build (docs/architecture.md, "The browser build"): its own folder, configured with
# Emscripten. Debian's emscripten finds its JavaScript optimizer's modules only on Debian's
# node path, whichever node comes first on PATH.
WEB_BUILD  ?= build-web
WEB_PORT   ?= 8080
export NODE_PATH := /usr/share/nodejs$(if $(NODE_PATH),:$(NODE_PATH))
# Debian's emcc runs `python3` from PATH for each file it compiles; a version manager's shim
# there can cost seconds a call. The system's interpreter, where there is one.
export EMSDK_PYTHON ?= $(firstword $(wildcard /usr/bin/python3) python3)

.PHONY: all deps configure build run test test-release build-sanitizers test-sanitizers test-fuzz clean \
        web-deps web web-serve web-bench web-profile test-web

all: build

deps:
	@bash scripts/install-deps.sh

# The core suite runs in the sanitizer build only (RINGVIZ_CORE_SUITE): it tests ringviz_core
# alone, which the release build's GUI, CLI, capture and browser suites exercise at -O3.
$(BUILD)/build.ninja:
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release -DRINGVIZ_CORE_SUITE=OFF $(CMAKE_ARGS)

configure: deps $(BUILD)/build.ninja

build: configure
	cmake --build $(BUILD) -j $(JOBS)

# The application alone: the suites are `make test`'s.
run: configure
	cmake --build $(BUILD) -j $(JOBS) --target ringviz
	@bash scripts/run.sh $(BUILD)/app/ringviz

# Every stage timed; a failing stage stops the run and still prints the table.
test:
	@bash scripts/test-stages.sh start $(STAGE_LOG)
	@$(STAGE) "deps" $(MAKE) --no-print-directory deps
	@$(STAGE) "release build" $(MAKE) --no-print-directory build
	@$(STAGE) "release suites" $(MAKE) --no-print-directory test-release
	@$(STAGE) "sanitizer build" $(MAKE) --no-print-directory build-sanitizers
	@$(STAGE) "sanitizer suites" $(MAKE) --no-print-directory test-sanitizers
	@$(STAGE) "fuzz" $(MAKE) --no-print-directory test-fuzz
	@$(STAGE) "browser" $(MAKE) --no-print-directory test-web
	@bash scripts/test-stages.sh summary $(STAGE_LOG)

# glibc gives the top of its heap back to the system whenever 128 KiB lie free there, so a suite
# that makes and drops buffers of a few MiB thousands of times pays a page fault for every page
# of every one; on a virtual machine those faults cost many times the work (the AllGather sweep:
# 52 s of CPU by default, 2.8 s with these). Keeping freed memory for reuse changes no result.
TEST_ALLOCATOR = MALLOC_TRIM_THRESHOLD_=268435456 MALLOC_MMAP_THRESHOLD_=33554432
# AddressSanitizer keeps 256 MiB of freed memory poisoned by default and faults in fresh pages
# for the rest; 32 MiB still catches a use after free of anything freed in the last few thousand
# allocations, and takes a third off the sweeps' CPU time.
TEST_SANITIZER = ASAN_OPTIONS=detect_leaks=1:quarantine_size_mb=32 UBSAN_OPTIONS=print_stacktrace=1

test-release:
	cd $(BUILD) && $(TEST_ALLOCATOR) ctest --output-on-failure -j $(JOBS)

# Core and command-line suites again under AddressSanitizer + UndefinedBehaviorSanitizer
# (no GUI, no CUDA: those layers are covered by the release run above).
# No build type: the flags are RINGVIZ_SANITIZE's own (-O1, line tables, assertions on).
$(ASAN_BUILD)/build.ninja:
	cmake -S . -B $(ASAN_BUILD) -G Ninja -DCMAKE_BUILD_TYPE= -DRINGVIZ_SANITIZE=ON \
	  -DRINGVIZ_GUI=OFF -DRINGVIZ_CUDA=OFF -DCMAKE_CXX_COMPILER=$(SANITIZE_CXX) $(CMAKE_ARGS)

build-sanitizers: $(ASAN_BUILD)/build.ninja
	cmake --build $(ASAN_BUILD) -j $(JOBS)

test-sanitizers: build-sanitizers
	cd $(ASAN_BUILD) && $(TEST_SANITIZER) ctest --output-on-failure -j $(JOBS)

# The parsers of user files (init files, lessons, settings, traces, jobs) under libFuzzer + ASan +
# UBSan, FUZZ_SECONDS each; any crash fails. The sanitizer build builds them, with its core;
# skipped, saying why, without clang++ or libFuzzer.
test-fuzz: build-sanitizers
	bash scripts/fuzz.sh $(ASAN_BUILD) $(FUZZ_SECONDS)

# The page: build-web/index.html with its .js, .wasm and .data, from the GUI's own sources.
web-deps:
	@bash scripts/install-web-deps.sh

$(WEB_BUILD)/build.ninja:
	emcmake cmake -S . -B $(WEB_BUILD) -G Ninja -DRINGVIZ_WEB=ON -DRINGVIZ_CUDA=OFF -DCMAKE_BUILD_TYPE=Release

web: web-deps $(WEB_BUILD)/build.ninja
	cmake --build $(WEB_BUILD) -j $(JOBS)

# Serves the page on this machine only; any static web host serves the same five files (docs/architecture.md, "The browser build").
web-serve: web
	@echo "ringviz in your browser: http://127.0.0.1:$(WEB_PORT)/  (Ctrl-C stops the server)"
	python3 -m http.server $(WEB_PORT) --bind 127.0.0.1 --directory $(WEB_BUILD)

# The page in headless chromium: keys, links, history, a file opened, recording, pixels against
# the desktop's headless renderer (which it builds first).
test-web: web configure
	cmake --build $(BUILD) -j $(JOBS) --target ringviz
	bash scripts/web-test.sh $(WEB_BUILD) $(BUILD)/app/ringviz

# Frame times in headless chromium at 4, 16, 64 and 256 GPUs beside the desktop's --bench-frames,
# load to first frame, and what a visitor downloads (gzip).
web-bench: web configure
	cmake --build $(BUILD) -j $(JOBS) --target ringviz
	bash scripts/web-test.sh $(WEB_BUILD) $(BUILD)/app/ringviz bench

# Where a playing frame's time goes in the page (16 GPUs; RINGVIZ_PROFILE_GPUS=N for another
# ring): each chromium process's CPU a frame and the page's main thread per function. Function
# names need the page linked with them: configure build-web with -DRINGVIZ_WEB_PROFILING=ON.
web-profile: web configure
	cmake --build $(BUILD) -j $(JOBS) --target ringviz
	bash scripts/web-test.sh $(WEB_BUILD) $(BUILD)/app/ringviz profile

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(WEB_BUILD)
