#!/usr/bin/env bash
# Builds the DocC documentation of SuspenseKit and SuspenseTesting with the toolchain's own
# `docc`, from the modules' symbol graphs and their catalogs (Sources/<Module>/<Module>.docc), with
# no package plugin: <output>/<Module>.doccarchive, `.build/docs` by default. Any DocC warning (a
# broken ``symbol`` link, say) fails the build.
#
#   bash scripts/build-docs.sh [output-directory]
set -euo pipefail
cd "$(dirname "$0")/.."

output=${1:-.build/docs}
modules=(SuspenseKit SuspenseTesting)

docc=(docc)
if [[ "$(uname)" == Darwin ]]; then
    docc=(xcrun docc)
elif ! command -v docc >/dev/null; then
    # Beside `swift` in the toolchain, when only `swift` is on the PATH.
    docc=("$(dirname "$(realpath "$(command -v swift)")")/docc")
fi

# Builds the package as usual, then extracts the public symbols of every module. The dump covers
# every module SwiftPM knows, the synthesized test module too, so the tests are built first (a
# fresh checkout has none; `swift test` reuses this build).
swift build --build-tests >/dev/null
dump=$(swift package dump-symbol-graph --minimum-access-level public --emit-extension-block-symbols)
graphs=$(sed -n 's/^Files written to //p' <<<"$dump")
[[ -d "$graphs" ]] || {
    echo "$dump" >&2
    echo "build-docs: no symbol graph directory in the output above" >&2
    exit 1
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$output"
for module in "${modules[@]}"; do
    # A module's own graph and its extensions of other modules' types (`<Module>@Swift`), alone:
    # DocC builds one module per archive.
    mkdir -p "$work/$module"
    cp "$graphs/$module.symbols.json" "$work/$module/"
    for extension in "$graphs/$module@"*.symbols.json; do
        [[ -e "$extension" ]] && cp "$extension" "$work/$module/"
    done
    rm -rf "$output/$module.doccarchive"
    "${docc[@]}" convert "Sources/$module/$module.docc" \
        --additional-symbol-graph-dir "$work/$module" \
        --output-path "$output/$module.doccarchive" \
        --fallback-display-name "$module" \
        --fallback-bundle-identifier "$module" \
        --warnings-as-errors
done
echo "docs: ${modules[*]} built into $output"
