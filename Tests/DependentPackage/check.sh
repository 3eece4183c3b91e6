#!/usr/bin/env bash
# Checks that an app can depend on a released ReelKit, the way apps depend on libraries: by a
# version tag. `make check-dependent` runs it in full, `make test` with --graph-only.
#
# It clones this repository's committed HEAD (or REVISION) into a temporary directory, tags the
# clone 1.0.0, and writes an app package with
#     .package(url: "file://<tmp>/reel", from: "1.0.0")
#     .product(name: "ReelKit", package: "reel")
# whose sources are README.md's Swift snippets as written: each in a file of its own that imports
# what the README shows above it and nothing else, so a snippet that needs an import the README
# leaves out, or an API that is not public, fails here. The names the snippets use without
# defining them (`compressor`, `source`, ...) are declared in Context.swift. Then it builds the
# app (a debug build of the whole library: minutes) and runs the first snippet on the demo clip.
# The app package also builds the `reel` command line's own sources (and its argument parser)
# against the released library, renamed so they do not clash with the library's targets: the CLI
# uses public API only, so any app can do what `reel` does.
#
# Usage: Tests/DependentPackage/check.sh [--graph-only] [REVISION]
#   --graph-only  stop once SwiftPM has loaded the package graph (`swift package
#                 show-dependencies`, seconds). That is where SwiftPM refuses a product with
#                 unsafe build flags from a version dependency, so it catches that cheaply.
#   REVISION      the commit to check (default HEAD). Uncommitted changes are never checked.
#
# On failure the temporary directory is kept and named, with the build log in it.
set -euo pipefail

graph_only=false
if [ "${1:-}" = "--graph-only" ]; then graph_only=true; shift; fi
revision="${1:-HEAD}"
root="$(cd "$(dirname "$0")/../.." && pwd)"
swift="${SWIFT:-swift}"
jobs="${JOBS:-$(nproc 2>/dev/null || echo 2)}"

work="$(mktemp -d "${TMPDIR:-/tmp}/reel-dependent.XXXXXX")"
fail() {
    echo "check-dependent: FAILED: $1" >&2
    exit 1
}
trap 'status=$?; if [ $status -eq 0 ]; then rm -rf "$work"; else echo "check-dependent: kept $work for a look" >&2; fi' EXIT

commit="$(git -C "$root" rev-parse --verify "$revision^{commit}")"
if [ -n "$(git -C "$root" status --porcelain --untracked-files=no)" ]; then
    echo "check-dependent: note: uncommitted changes in $root are not part of the check"
fi

# The clone's folder name is the package's identity, hence `package: "reel"` below.
clone="$work/reel"
git clone --quiet --no-tags "$root" "$clone"
git -C "$clone" checkout --quiet --detach "$commit" || fail "commit $commit is not in the clone"
git -C "$clone" tag 1.0.0 "$commit"
echo "check-dependent: $(git -C "$clone" log -1 --format='%h %s') tagged 1.0.0 in $clone"

app="$work/app"
sources="$app/Sources/ReelKitDependent"
mkdir -p "$sources"
cat > "$app/Package.swift" <<EOF
// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ReelKitDependent",
    dependencies: [.package(url: "file://$clone", from: "1.0.0")],
    targets: [
        .executableTarget(
            name: "ReelKitDependent",
            dependencies: [.product(name: "ReelKit", package: "reel")],
            // Every file sees only what it imports itself, members included.
            swiftSettings: [.enableUpcomingFeature("MemberImportVisibility")]
        ),
        // reel's command line as an app of its own: public API only.
        .target(name: "AppArguments"),
        .executableTarget(
            name: "AppReelCLI", dependencies: [.product(name: "ReelKit", package: "reel"), "AppArguments"]),
    ],
    swiftLanguageModes: [.v6]
)
EOF

# README.md's ```swift blocks but the Package.swift one (the rule of ReadmeSnippetTests), one
# file each, with the heading they stand under.
count="$(awk -v dir="$work" '
    /^#/ && !inside { heading = $0; sub(/^#+ */, "", heading) }
    /^```swift$/ { inside = 1; text = ""; next }
    inside && /^```/ {
        inside = 0
        if (text !~ /Package\.swift/) { n++; print heading > (dir "/snippet-" n ".heading"); printf "%s", text > (dir "/snippet-" n ".swift") }
        next
    }
    inside { text = text $0 "\n" }
    END { print n + 0 }' "$clone/README.md")"
[ "$count" -gt 0 ] || fail "no Swift snippets found in README.md"

for n in $(seq "$count"); do
    snippet="$work/snippet-$n.swift"
    {
        echo "// README.md, \"$(cat "$work/snippet-$n.heading")\", snippet $n of $count, as written there."
        grep '^import ' "$snippet" || true
        echo
        echo "func readmeSnippet$n() async throws {"
        grep -v '^import ' "$snippet" | sed '/./,$!d'
        echo "}"
    } > "$sources/Snippet$n.swift"
done

# The command line's sources, their parser import renamed.
cp -R "$clone/Sources/ReelArguments" "$app/Sources/AppArguments"
cp -R "$clone/Sources/reel" "$app/Sources/AppReelCLI"
sed -i 's/^import ReelArguments$/import AppArguments/' "$app/Sources/AppReelCLI"/*.swift

cat > "$sources/Context.swift" <<'EOF'
// The names README.md's snippets use without defining them, as its text introduces them.
import Foundation
import ReelKit

let compressor = VideoCompressor()
let source = URL(fileURLWithPath: "holiday.mov")
let config = VideoQuality.messaging.defaultConfig
let urls = [URL(fileURLWithPath: "party.jpg")]
let newPhoto = MediaIntelligenceImageAsset(id: .init("newcomer.jpg"), kind: .url(URL(fileURLWithPath: "newcomer.jpg")))
let directory = URL(fileURLWithPath: "Faces")
EOF

cat > "$sources/main.swift" <<'EOF'
// Runs README.md's first snippet, which compresses holiday.mov (check.sh copies the demo clip).
try await readmeSnippet1()
EOF

cd "$app"
# Nothing left in the shared caches under ~/.cache: the clone's URL is new every run.
cache_options=(--manifest-cache local --disable-dependency-cache)

echo "check-dependent: loading the package graph of an app that depends on ReelKit from: \"1.0.0\""
"$swift" package "${cache_options[@]}" show-dependencies > "$work/graph.log" 2>&1 \
    || { cat "$work/graph.log" >&2; fail "SwiftPM cannot load a package that depends on ReelKit by version"; }
grep -qF "reel<$clone@1.0.0>" "$work/graph.log" \
    || { cat "$work/graph.log" >&2; fail "the app did not resolve ReelKit at 1.0.0"; }
if $graph_only; then
    echo "check-dependent: OK (graph only): ReelKit 1.0.0 resolves as a version dependency"
    exit 0
fi

echo "check-dependent: building the app ($count README snippets and reel's command line; a debug build of ReelKit, log: $work/build.log)"
"$swift" build "${cache_options[@]}" -j "$jobs" > "$work/build.log" 2>&1 \
    || { grep -E "^/.*error:" "$work/build.log" | sort -u >&2 || tail -40 "$work/build.log" >&2; fail "the app does not build"; }
echo "check-dependent: $(tail -1 "$work/build.log")"

mkdir -p "$work/run"
cp "$root/Fixtures/clips/demo.mov" "$work/run/holiday.mov"
echo "check-dependent: running README snippet 1 on the demo clip, as holiday.mov"
(cd "$work/run" && "$app/.build/debug/ReelKitDependent") > "$work/run.log" 2>&1 \
    || { tail -20 "$work/run.log" >&2; fail "README snippet 1 failed on the demo clip"; }
output="$(tail -1 "$work/run.log" | cut -d' ' -f1)"
case "$output" in /*) ;; *) output="$work/run/$output" ;; esac
[ -s "$output" ] || { tail -5 "$work/run.log" >&2; fail "README snippet 1 wrote no output (last line: $(tail -1 "$work/run.log"))"; }
codec="$(ffprobe -v error -select_streams v:0 -show_entries stream=codec_name -of csv=p=0 "$output")"
[ "$codec" = "h264" ] || fail "README snippet 1's output $output has video '$codec', not h264"
"$app/.build/debug/AppReelCLI" probe "$output" > /dev/null || fail "reel's command line, built as an app, cannot probe $output"
echo "check-dependent: OK: the app and reel's command line build against ReelKit 1.0.0, and snippet 1 wrote $(basename "$output") ($(stat -c %s "$output") bytes, $codec)"
