#!/usr/bin/python3
"""Makes the GIF, WebP and AVIF fixtures from photo.jpg, each with a PNG of
what the format's own tools decode it to (*.ref.png), which the decoder
tests compare with. Needs python3-pil, webp (cwebp, dwebp, img2webp),
gifsicle and libavif-bin (avifenc, avifdec). usage: make-formats.py"""
import os, subprocess
from PIL import Image, ImageDraw

here = os.path.dirname(os.path.abspath(__file__))
photo = Image.open(os.path.join(here, "..", "images", "photo.jpg")).convert("RGB").resize((240, 160), Image.LANCZOS)

def out(name):
    return os.path.join(here, name)

def run(*args):
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

def reference(name, image):
    image.convert("RGBA").save(out(name + ".ref.png"))

# GIF: a still, the same interlaced, a transparent index, a frame placed
# inside a larger logical screen.
still = photo.quantize(256, dither=Image.Dither.NONE)
still.save(out("still.gif"))
reference("still.gif", Image.open(out("still.gif")))
run("gifsicle", "--interlace", out("still.gif"), "-o", out("interlaced.gif"))
holed = photo.resize((64, 48)).quantize(255, dither=Image.Dither.NONE)
draw = ImageDraw.Draw(holed)
draw.ellipse([16, 8, 48, 40], fill=255)
holed.save(out("transparent.gif"), transparency=255)
reference("transparent.gif", Image.open(out("transparent.gif")))
run("gifsicle", "--logical-screen", "100x80", "--position", "20,15", out("transparent.gif"), "-o", out("screen.gif"))

# An animation with every disposal mode, frames smaller than the screen and
# a transparent index, 48x32, 40 ms a frame, looping forever.
colors = [(200, 40, 40), (40, 200, 40), (40, 40, 200), (220, 220, 40), (40, 220, 220), (220, 40, 220)]
frames = []
for i, color in enumerate(colors):
    f = Image.new("RGB", (48, 32), (0, 0, 0))
    ImageDraw.Draw(f).rectangle([i * 6, 4, i * 6 + 14, 27], fill=color)
    frames.append(f)
for i, f in enumerate(frames):
    f.quantize(16).save(out(f"frame{i}.tmp.gif"))
args = ["gifsicle", "--loopcount=forever", "--delay=4", "--transparent=#000000", "-O0"]
for i, disposal in enumerate(["none", "background", "previous", "none", "background", "previous"]):
    args += [f"--disposal={disposal}", out(f"frame{i}.tmp.gif")]
run(*args, "-o", out("animated.gif"))
for i in range(len(frames)):
    os.remove(out(f"frame{i}.tmp.gif"))
run("gifsicle", "--crop-transparency", "-O2", out("animated.gif"), "-o", out("animated-cropped.gif"))
# Every frame of each composed by gifsicle (whole frames, nothing to dispose):
# what the frames must look like.
run("gifsicle", "--unoptimize", out("animated.gif"), "-o", out("animated.ref.gif"))
run("gifsicle", "--unoptimize", out("animated-cropped.gif"), "-o", out("animated-cropped.ref.gif"))

# Loop counts: three 10x10 frames of 50 ms, played once (no NETSCAPE
# extension) and twice (NETSCAPE 1).
flat_frames = [Image.new("RGB", (10, 10), c) for c in [(255, 0, 0), (0, 255, 0), (0, 0, 255)]]
flat_frames[0].save(out("once.gif"), save_all=True, append_images=flat_frames[1:], duration=50)
flat_frames[0].save(out("twice.gif"), save_all=True, append_images=flat_frames[1:], duration=50, loop=1)

# WebP: lossless, lossy, with alpha, and the animation.
photo.save(out("photo.tmp.png"))
run("cwebp", "-quiet", "-lossless", out("photo.tmp.png"), "-o", out("lossless.webp"))
run("cwebp", "-quiet", "-q", "80", out("photo.tmp.png"), "-o", out("lossy.webp"))
run("dwebp", "-quiet", out("lossy.webp"), "-o", out("lossy.webp.ref.png"))
reference("lossless.webp", photo)
alpha = photo.convert("RGBA")
ImageDraw.Draw(alpha).ellipse([60, 20, 180, 140], fill=(0, 0, 0, 0))
alpha.save(out("alpha.tmp.png"))
run("cwebp", "-quiet", "-lossless", "-exact", out("alpha.tmp.png"), "-o", out("alpha.webp"))
reference("alpha.webp", alpha)
run("gif2webp", "-quiet", out("animated-cropped.gif"), "-o", out("animated.webp"))

# AVIF: a still, lossless enough to compare, and its own decode.
run("avifenc", "-s", "10", "--min", "10", "--max", "20", out("photo.tmp.png"), out("still.avif"))
run("avifdec", out("still.avif"), out("still.avif.ref.png"))
for tmp in ("photo.tmp.png", "alpha.tmp.png"):
    os.remove(out(tmp))

# The animation's first four frames as PIL composes them (an implementation
# of its own), over black, as RGB. Later ones PIL gets wrong: it keeps frame
# 2's "restore to previous" for frame 3, whose disposal is unspecified.
anim = Image.open(out("animated.gif"))
for i in range(4):
    anim.seek(i)
    frame = anim.convert("RGBA")
    flat = Image.new("RGBA", frame.size, (0, 0, 0, 255))
    flat.alpha_composite(frame)
    flat.convert("RGB").save(out(f"animated.gif.frame{i}.ref.png"))
