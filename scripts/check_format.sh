#!/usr/bin/env bash
# The formatting check: every C++ and CUDA file in the repository is as clang-format 14 (Debian
# 12's) formats it with .clang-format. Lists the files that differ and fails; with --fix, formats
# them in place. Other clang-format versions format differently, so they skip (status 77).
#
#   bash scripts/check_format.sh          # from anywhere
#   bash scripts/check_format.sh --fix
set -euo pipefail
cd "$(dirname "$0")/.."
tool=${CLANG_FORMAT:-clang-format}
if ! command -v "$tool" >/dev/null; then
  echo "check_format: $tool not found (apt-get install clang-format; scripts/install-deps.sh does)"
  exit 77
fi
version=$("$tool" --version | sed -n 's/.*version \([0-9]*\)\..*/\1/p')
if [ "$version" != 14 ]; then
  echo "check_format: $tool is version $version; the tree is formatted by version 14 (Debian 12), skipped"
  exit 77
fi
mapfile -t files < <(git ls-files '*.h' '*.hpp' '*.cpp' '*.cu' '*.cuh' 2>/dev/null ||
                     find . -path ./build -prune -o \( -name '*.h' -o -name '*.cpp' -o -name '*.cu' \) -print)
if [ "${1:-}" = --fix ]; then
  "$tool" -i "${files[@]}"
  echo "check_format: formatted ${#files[@]} files"
  exit 0
fi
bad=()
for f in "${files[@]}"; do
  "$tool" --dry-run -Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
if [ ${#bad[@]} -gt 0 ]; then
  for f in "${bad[@]}"; do echo "$f: not as clang-format formats it (fix: bash scripts/check_format.sh --fix)"; done
  echo "check_format: ${#bad[@]} of ${#files[@]} files differ"
  exit 1
fi
echo "check_format: ${#files[@]} files formatted"
