#!/usr/bin/env bash
# Compares the public API of SuspenseKit and SuspenseTesting with the baseline in api/ (dumped by
# swift-api-digester, from a debug build on Linux) and prints what changed: removed, renamed and
# changed declarations (the digester's breakage report), then added ones (the same report run the
# other way). Exits 0 whatever it finds; with --strict, as CI runs it, any change fails. Once a
# change is meant, record it as the new baseline with --update, in the same commit.
#
#   bash scripts/check-api.sh            # report
#   bash scripts/check-api.sh --strict   # report, and fail on any change (CI)
#   bash scripts/check-api.sh --update   # write api/<Module>.json from the current build
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-report}
case "$mode" in
report | --strict | --update) ;;
*)
    echo "usage: $0 [--strict | --update]" >&2
    exit 2
    ;;
esac
modules=(SuspenseKit SuspenseTesting)

digester=(swift-api-digester)
sdk=()
if [[ "$(uname)" == Darwin ]]; then
    digester=(xcrun swift-api-digester)
    sdk=(-sdk "$(xcrun --show-sdk-path)")
elif ! command -v swift-api-digester >/dev/null; then
    # Beside `swift` in the toolchain, when only `swift` is on the PATH.
    digester=("$(dirname "$(realpath "$(command -v swift)")")/swift-api-digester")
fi

swift build --target SuspenseTesting >/dev/null
bin=$(swift build --show-bin-path)
modules_dir="$bin/Modules"
[[ -d "$modules_dir" ]] || modules_dir="$bin"
# SuspenseKit imports the C module of its stack guard, whose module map SwiftPM writes here.
search=(-I "$modules_dir" -I "$bin/CSuspenseKitStack.build")

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The digester's report, without its empty sections.
sections() {
    awk '/^\/\*/ { header = $0; next } NF { if (header != "") { print header; header = "" } print "  " $0 }'
}

changed=0
for module in "${modules[@]}"; do
    current="$work/$module.json"
    baseline="api/$module.json"
    "${digester[@]}" -dump-sdk -module "$module" "${search[@]}" "${sdk[@]}" \
        -avoid-location -avoid-tool-args -o "$current"
    if [[ "$mode" == --update ]]; then
        mkdir -p api
        cp "$current" "$baseline"
        echo "$baseline: recorded"
        continue
    fi
    if [[ ! -f "$baseline" ]]; then
        echo "$module: no baseline at $baseline; record one with: bash scripts/check-api.sh --update"
        changed=1
        continue
    fi
    report=$("${digester[@]}" -diagnose-sdk -disable-fail-on-error \
        -input-paths "$baseline" -input-paths "$current" 2>&1 | sections)
    # Run the other way, the digester's removals are the declarations this change added.
    added=$("${digester[@]}" -diagnose-sdk -disable-fail-on-error \
        -input-paths "$current" -input-paths "$baseline" 2>&1 |
        sed -n 's/^\(.*\) has been removed$/  \1 has been added/p')
    # The digester does not report a declaration newly deprecated (or no longer): compare the
    # flag by hand, where python3 is at hand.
    deprecated=""
    if command -v python3 >/dev/null; then
        deprecated=$(python3 - "$baseline" "$current" <<'PYTHON'
import json, sys

def flags(path):
    found = {}
    def walk(node, parent):
        name = f"{parent}.{node['printedName']}" if parent else node.get("printedName", "")
        if node.get("kind") not in (None, "Root", "Import", "TypeNominal", "TypeFunc", "TypeNameAlias"):
            label = f"{node.get('declKind', node['kind'])} {name}"
            found[node.get("usr", label)] = (label, bool(node.get("deprecated")))
        for child in node.get("children", []):
            walk(child, name if node.get("kind") == "TypeDecl" else parent)
    walk(json.load(open(path))["ABIRoot"], "")
    return found

old, new = flags(sys.argv[1]), flags(sys.argv[2])
for label, now in sorted(new[usr] for usr in old.keys() & new.keys() if old[usr][1] != new[usr][1]):
    print(f"  {label} is {'now' if now else 'no longer'} deprecated")
PYTHON
)
    fi
    if [[ -z "$report" && -z "$added" && -z "$deprecated" ]]; then
        echo "$module: public API unchanged"
        continue
    fi
    changed=1
    echo "$module: public API differs from $baseline"
    [[ -z "$report" ]] || echo "$report"
    [[ -z "$added" ]] || printf '/* Added Decls */\n%s\n' "$added"
    [[ -z "$deprecated" ]] || printf '/* Deprecations */\n%s\n' "$deprecated"
done

if [[ "$mode" != --update && "$changed" == 1 ]]; then
    echo "Once the change is meant, record it: bash scripts/check-api.sh --update"
    [[ "$mode" != --strict ]] || exit 1
fi
exit 0
