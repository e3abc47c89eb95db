# The two commands of the README: `make run` and `make test`. Each installs what is missing,
# configures a Release build (CUDA when nvcc exists), builds with every core, then runs.
BUILD      ?= build
ASAN_BUILD ?= build-asan
JOBS       ?= $(shell nproc)
CMAKE_ARGS ?=

.PHONY: all deps configure build run test test-release test-sanitizers clean

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
	@$(MAKE) --no-print-directory test-release test-sanitizers

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

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)
