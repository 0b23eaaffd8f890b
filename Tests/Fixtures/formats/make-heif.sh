#!/usr/bin/env bash
# Makes the HEIF fixtures with libheif's own tools (libheif-examples, Debian 12):
#   still.heic          photo.jpg at 96x64, HEVC (heif-enc -q 80)
#   still.heic.ref.png  libheif's own decode of it (heif-convert)
#   adobe.heic          ../icc/adobe.jpg's Adobe RGB numbers with its profile,
#                       which heif-enc copies from the PNG it is given
#   turned.heic         still.heic's picture coded in limited range, said by an
#                       nclx box (BT.709, as cameras write), turned a quarter
#                       (irot), mirrored (imir) and cut by a clean aperture
#                       (clap) at odd offsets, the boxes added by heifcolr.py
#   turned.heic.ref.png libheif's own decode of it (heif-convert)
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
/usr/bin/python3 - "$tmp" <<'PY'
import struct, subprocess, sys
import heifcolr
tmp = sys.argv[1]
subprocess.run(['heif-enc', '-q', '80', '-p', 'x265:range=limited', tmp + '/still.png', '-o', tmp + '/limited.heic'],
               check=True, capture_output=True)
data = open(tmp + '/limited.heic', 'rb').read()
data = heifcolr.add_nclx(data, 1, 1, 1, full_range=False)
# clap: 77x51 of the 96x64, its centre 3 left of and 1 below the picture's.
data = heifcolr.add_property(data, b'clap', struct.pack('>IIIIiIiI', 77, 1, 51, 1, -3, 1, 1, 1))
data = heifcolr.add_property(data, b'irot', bytes([1]))
data = heifcolr.add_property(data, b'imir', bytes([1]))
open('turned.heic', 'wb').write(data)
PY
heif-convert turned.heic "$tmp/turned.png" >/dev/null
/usr/bin/python3 -c "from PIL import Image; Image.open('$tmp/turned.png').convert('RGB').save('turned.heic.ref.png')"
