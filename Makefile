# The two commands of the README: `make run` and `make test`. Each installs what is missing,
# configures a Release build (CUDA when nvcc exists), builds with every core, then runs.
BUILD      ?= build
ASAN_BUILD ?= build-asan
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 10
JOBS       ?= $(shell nproc)
CMAKE_ARGS ?=

.PHONY: all deps configure build run test test-release test-sanitizers test-fuzz clean

all: build

deps:
	@bash scripts/install-deps.sh

$(BUILD)/build.ninja:
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release $(CMAKE_ARGS)

configure: deps $(BUILD)/build.ninja

build: configure
	cmake --build $(BUILD) -j $(JOBS)

run: build
	@bash scripts/run.sh $(BUILD)/app/ringviz

test: build
	@$(MAKE) --no-print-directory test-release test-sanitizers test-fuzz

test-release:
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# Core and command-line suites again under AddressSanitizer + UndefinedBehaviorSanitizer
# (no GUI, no CUDA: those layers are covered by the release run above).
test-sanitizers:
	cmake -S . -B $(ASAN_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DRINGVIZ_SANITIZE=ON \
	  -DRINGVIZ_GUI=OFF -DRINGVIZ_CUDA=OFF $(CMAKE_ARGS)
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --output-on-failure -j $(JOBS)

# The parsers of user files (init files, lessons, settings) under libFuzzer + ASan + UBSan,
# FUZZ_SECONDS each; any crash fails. Skipped, saying why, without clang++ or libFuzzer.
test-fuzz:
	JOBS=$(JOBS) bash scripts/fuzz.sh $(FUZZ_BUILD) $(FUZZ_SECONDS)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD)
