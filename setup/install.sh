#!/usr/bin/env bash
# Installs a released toolgate binary, verified, for `uses: toolgate-dev/toolgate/setup@<ref>`
# (setup/action.yml) or by hand. The archive's SHA-256 must match the release's SHA256SUMS
# (which the release workflow also signs with a build-provenance attestation); with
# VERIFY_ATTESTATION=true and `gh` on PATH, the attestation is checked too. Nothing is run
# before both checks pass.
#
#   VERSION       a release tag (v0.2.0) or `latest`                 [latest]
#   REPOSITORY    where releases are published                        [toolgate-dev/toolgate]
#   RELEASES_URL  the releases page, whose /latest redirects to the newest tag
#                 [https://github.com/$REPOSITORY/releases]
#   DOWNLOAD_URL  base of the release files (a mirror, or file:// in tests)
#                 [$RELEASES_URL/download]
#   INSTALL_DIR   where the binary goes                              [$RUNNER_TOOL_CACHE or ~/.local]/toolgate/$VERSION
#   TARGET        the build to install (guessed from the OS and CPU)
#   VERIFY_ATTESTATION  true: also `gh attestation verify` the archive
# Prints the binary's path on the last line; appends its folder to $GITHUB_PATH when set.
set -euo pipefail

REPOSITORY=${REPOSITORY:-toolgate-dev/toolgate}
VERSION=${VERSION:-latest}
CUSTOM_DOWNLOAD=${DOWNLOAD_URL:+yes}
RELEASES_URL=${RELEASES_URL:-https://github.com/$REPOSITORY/releases}
DOWNLOAD_URL=${DOWNLOAD_URL:-$RELEASES_URL/download}

die() { echo "toolgate setup: $*" >&2; exit 1; }

# Where files may come from: https, a local file (tests, a pre-fetched release), or plain http
# on this machine only. A checksum fetched over plain http from elsewhere proves nothing.
for u in "$RELEASES_URL" "$DOWNLOAD_URL"; do
  case "$u" in
    https://* | file://* | http://127.0.0.1[:/]* | http://localhost[:/]* | http://\[::1\][:/]*) ;;
    *) die "\`$u\` is not an https:// (or file://, or local http://) address: refusing to download a release over it" ;;
  esac
done
# Redirects keep to https (an https address never falls back to plain http).
redirects() { case "$1" in https://*) echo "=https" ;; *) echo "=https,http" ;; esac; }

if [ -z "${TARGET:-}" ]; then
  os=$(uname -s); arch=$(uname -m)
  case "$os/$arch" in
    Linux/x86_64) TARGET=x86_64-unknown-linux-musl ;;
    Linux/aarch64 | Linux/arm64) TARGET=aarch64-unknown-linux-musl ;;
    Darwin/arm64) TARGET=aarch64-apple-darwin ;;
    Darwin/x86_64) TARGET=x86_64-apple-darwin ;;
    MINGW*/* | MSYS*/* | CYGWIN*/* | Windows_NT/*) TARGET=x86_64-pc-windows-msvc ;;
    *) die "no released build for $os/$arch: build from source with \`cargo install toolgate --locked\`" ;;
  esac
fi
case "$TARGET" in
  *windows*) ARCHIVE=zip; EXE=toolgate.exe ;;
  *) ARCHIVE=tar.gz; EXE=toolgate ;;
esac

if [ "$VERSION" = latest ] && [ -n "$CUSTOM_DOWNLOAD" ] && [ "$RELEASES_URL" = "https://github.com/$REPOSITORY/releases" ]; then
  die "VERSION=latest with a custom DOWNLOAD_URL needs that mirror's releases page (RELEASES_URL), or name a tag"
fi
if [ "$VERSION" = latest ]; then
  case "$RELEASES_URL" in
    http://* | https://*)
      # The releases page's /latest redirects to /tag/<newest tag>.
      url=$(curl -sSfLI --retry 3 --proto-redir "$(redirects "$RELEASES_URL")" -o /dev/null -w '%{url_effective}' "$RELEASES_URL/latest") ||
        die "could not find the latest release at $RELEASES_URL/latest"
      VERSION=${url##*/}
      ;;
    *) die "VERSION=latest needs a releases page over http(s) (RELEASES_URL); name a tag instead" ;;
  esac
fi
[[ "$VERSION" =~ ^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.]+)?$ ]] || die "\`$VERSION\` is not a release tag (v1.2.3)"

NAME="toolgate-$VERSION-$TARGET"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
fetch() { curl -sSfL --retry 3 --proto-redir "$(redirects "$DOWNLOAD_URL")" -o "$WORK/$1" "$DOWNLOAD_URL/$VERSION/$1" || die "could not download $DOWNLOAD_URL/$VERSION/$1"; }
fetch "$NAME.$ARCHIVE"
fetch SHA256SUMS

expected=$(awk -v f="$NAME.$ARCHIVE" '$2 == f || $2 == "*" f { print $1 }' "$WORK/SHA256SUMS")
[ -n "$expected" ] || die "SHA256SUMS of $VERSION lists no $NAME.$ARCHIVE"
if command -v sha256sum >/dev/null; then
  actual=$(sha256sum "$WORK/$NAME.$ARCHIVE" | awk '{print $1}')
else
  actual=$(shasum -a 256 "$WORK/$NAME.$ARCHIVE" | awk '{print $1}')
fi
[ "$actual" = "$expected" ] || die "$NAME.$ARCHIVE does not match SHA256SUMS (sha256 $actual, expected $expected): refusing it"

if [ "${VERIFY_ATTESTATION:-false}" = true ]; then
  command -v gh >/dev/null || die "VERIFY_ATTESTATION=true needs the gh CLI"
  gh attestation verify "$WORK/$NAME.$ARCHIVE" --repo "$REPOSITORY" >/dev/null ||
    die "the build-provenance attestation of $NAME.$ARCHIVE does not verify for $REPOSITORY"
fi

INSTALL_DIR=${INSTALL_DIR:-${RUNNER_TOOL_CACHE:-$HOME/.local}/toolgate/$VERSION}
mkdir -p "$INSTALL_DIR"
if [ "$ARCHIVE" = zip ]; then
  (cd "$WORK" && unzip -q "$NAME.zip")
else
  tar -xzf "$WORK/$NAME.tar.gz" -C "$WORK"
fi
[ -f "$WORK/$NAME/$EXE" ] || die "$NAME.$ARCHIVE holds no $NAME/$EXE"
cp "$WORK/$NAME/$EXE" "$INSTALL_DIR/$EXE"
chmod +x "$INSTALL_DIR/$EXE"
"$INSTALL_DIR/$EXE" --version >&2 || die "the installed binary does not start"
if [ -n "${GITHUB_PATH:-}" ]; then echo "$INSTALL_DIR" >> "$GITHUB_PATH"; fi
echo "$INSTALL_DIR/$EXE"
