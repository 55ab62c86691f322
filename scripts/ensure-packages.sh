#!/usr/bin/env bash
# The Debian packages the product's languages need (docs/languages.md), installed when missing:
#   gettext                 msgfmt and xgettext, to compile and extract the translation catalogues (locale/)
#   fonts-dejavu-core       Latin, accented Latin and Cyrillic in the printed PDFs
#   fonts-ipafont-gothic    Japanese (kanji and kana) in the printed PDFs, a TrueType font reportlab embeds
#   fonts-wqy-microhei      Chinese (Han) in the printed PDFs, a TrueType collection reportlab embeds
#   fonts-nanum             Korean (Hangul) in the printed PDFs, Nanum Gothic, a TrueType font reportlab embeds
#   libicu-dev pkg-config g++   to build PyICU (requirements-dev.txt), the collation of each language
# With STRICT=0 (make run) a machine where nothing can be installed goes on without them: the pages work,
# the PDFs print what DejaVu Sans has and names sort by the Unicode root collation (pyuca).
set -euo pipefail

PACKAGES=(gettext fonts-dejavu-core fonts-ipafont-gothic fonts-wqy-microhei fonts-nanum libicu-dev pkg-config g++)

missing=()
for package in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
if ! command -v apt-get >/dev/null || { [ -n "$SUDO" ] && ! sudo -n true 2>/dev/null; }; then
  echo "cannot install the Debian packages ${missing[*]} here (no apt-get or no sudo)" >&2
  if [ "${STRICT:-1}" = "1" ]; then exit 1; fi
  exit 0
fi
echo "installing Debian packages: ${missing[*]}"
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >/dev/null || {
  $SUDO apt-get update -q >/dev/null
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >/dev/null
}
