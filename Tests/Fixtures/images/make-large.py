#!/usr/bin/env python3
"""Makes large.png and large-interlaced.png: Benchmarks/make-images.py's
800x600 graphics image, plain and Adam7-interlaced, for the tests of
decoding on two threads (PngSuite's images are too small to take that
path). Run with Debian's python3 (numpy, PIL) from this folder."""
import os, sys, tempfile
here = os.path.dirname(os.path.abspath(__file__))
scratch = tempfile.mkdtemp()
sys.argv = ["make-images.py", scratch]
source = open(os.path.join(here, "../../../Benchmarks/make-images.py")).read()
exec(compile(source, "make-images.py", "exec"))          # makes the benchmark set in scratch
from PIL import Image
img = Image.open(os.path.join(scratch, "graphics.png"))
img.save(os.path.join(here, "large.png"), optimize=True)
save_interlaced_png(img, os.path.join(here, "large-interlaced.png"))
