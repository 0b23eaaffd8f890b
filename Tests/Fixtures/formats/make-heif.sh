#!/usr/bin/env bash
# Makes the HEIF fixtures with libheif's own tools (libheif-examples, Debian 12):
#   still.heic          photo.jpg at 96x64, HEVC (heif-enc -q 80)
#   still.heic.ref.png  libheif's own decode of it (heif-convert)
#   adobe.heic          ../icc/adobe.jpg's Adobe RGB numbers with its profile,
#                       which heif-enc copies from the PNG it is given
set -euo pipefail
cd "$(dirname "$0")"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
/usr/bin/python3 - "$tmp" <<'PY'
import sys
from PIL import Image
out = sys.argv[1]
Image.open('../images/photo.jpg').convert('RGB').resize((96, 64), Image.LANCZOS).save(out + '/still.png')
adobe = Image.open('../icc/adobe.jpg')
adobe.save(out + '/adobe.png', icc_profile=adobe.info['icc_profile'])
PY
heif-enc -q 80 "$tmp/still.png" -o still.heic >/dev/null
heif-convert still.heic "$tmp/ref.png" >/dev/null
/usr/bin/python3 -c "from PIL import Image; Image.open('$tmp/ref.png').convert('RGB').save('still.heic.ref.png')"
heif-enc -q 90 "$tmp/adobe.png" -o adobe.heic >/dev/null
