#!/usr/bin/env bash
# Installs splitbill: scripts/install.sh [PREFIX]   (default PREFIX: /usr/local; ~/.local works too)
#
# Builds the release binary (Swift runtime linked in, so it runs without the toolchain; needs
# libcurl4-openssl-dev to link), then copies, under PREFIX:
#   bin/splitbill                                       (stripped of its debug information)
#   share/man/man1/splitbill.1                         (splitbill man)
#   share/bash-completion/completions/splitbill         (splitbill completions bash)
#   share/zsh/site-functions/_splitbill                 (splitbill completions zsh)
#   share/fish/vendor_completions.d/splitbill.fish      (splitbill completions fish)
# SPLITBILL_BINARY=PATH installs that binary instead of building one (CI reuses its build).
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=${1:-/usr/local}
binary=${SPLITBILL_BINARY:-}
if [ -z "$binary" ]; then
  swift build -c release --static-swift-stdlib --scratch-path .build/static --product splitbill >&2
  binary=.build/static/release/splitbill
fi
[ -x "$binary" ] || { echo "install: no binary at $binary" >&2; exit 66; }
install -d "$prefix/bin" "$prefix/share/man/man1" "$prefix/share/bash-completion/completions" \
  "$prefix/share/zsh/site-functions" "$prefix/share/fish/vendor_completions.d"
install -m 755 "$binary" "$prefix/bin/splitbill"
# The build keeps its debug information (85 MB); the installed binary does without it (62 MB: the
# Swift runtime, Foundation and ICU's data are linked in).
if command -v strip >/dev/null; then strip "$prefix/bin/splitbill"; fi
"$prefix/bin/splitbill" man >"$prefix/share/man/man1/splitbill.1"
"$prefix/bin/splitbill" completions bash >"$prefix/share/bash-completion/completions/splitbill"
"$prefix/bin/splitbill" completions zsh >"$prefix/share/zsh/site-functions/_splitbill"
"$prefix/bin/splitbill" completions fish >"$prefix/share/fish/vendor_completions.d/splitbill.fish"
echo "installed $("$prefix/bin/splitbill" --version) in $prefix/bin (man page and bash, zsh, fish completions under $prefix/share)"
case ":$PATH:" in
  *":$prefix/bin:"*) ;;
  *) echo "note: $prefix/bin is not on PATH; add it, e.g. export PATH=\"$prefix/bin:\$PATH\"" ;;
esac
