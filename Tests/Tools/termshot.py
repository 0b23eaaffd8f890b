#!/usr/bin/env python3
# The tests' and benchmarks' screenshot tool: it polls the screen until it
# settles rather than sleeping a fixed time.
"""termshot.py: run a command in a real terminal (xterm or kitty) under Xvfb,
screenshot it, and measure how well a picture on it matches a source image.

  termshot.py shot TERM OUT.png CMD...        run CMD in TERM (xterm-sixel | xterm | kitty | urxvt | st |
                                              zutty | mlterm | qterminal | sakura | konsole | foot (in
                                              weston) | xfce4-terminal | gnome-terminal | lxterminal |
                                              terminator | mate-terminal | tilix | alacritty),
                                              wait until the screen settles (at most WAIT s, env,
                                              default 4), type KEYS (env, xdotool names), wait
                                              until it changes and settles (at most WAIT2 s),
                                              screenshot to OUT.png
  termshot.py psnr SHOT.png SOURCE [--rows a:b]
                                              find the picture (pixels unlike the magenta
                                              background) and print PSNR (dB, sRGB) against
                                              SOURCE area-averaged in linear light to the same
                                              box (best of +-1 px), and the box x y w h
  --bg black                                  for st, qterminal and sakura, which take no colour option
                                              and keep their black background
                                              Printed: PSNR, the box x y w h, then the stray pixels, not
                                              background, in the band right of the picture's rows (text
                                              printed before the picture pushes its first row there).
The terminal's background is magenta (#ff00ff) so that the picture's box can be found.
"""
import os, subprocess, sys, time, shutil, tempfile
import numpy as np
from PIL import Image

BG = (255, 0, 255)
W, H = 1000, 700

def answers(disp):
    """Whether an X server listens on disp's socket (a lock file alone may be
    left behind by a server that died, or by another machine's /tmp)."""
    import socket
    path = f'/tmp/.X11-unix/X{disp[1:]}'
    try:
        with socket.socket(socket.AF_UNIX) as s:
            s.settimeout(1)
            s.connect(path)
        return True
    except OSError:
        return False

def alive(pid):
    try:
        os.kill(pid, 0)
        return True
    except ProcessLookupError:
        return False
    except PermissionError:
        return True

def ensure_display():
    """The display to use, started if nothing answers there. TERMSHOT_DISPLAY
    names the first to try (default :91); a display held by a live server
    that doesn't answer is passed over for the next number."""
    first = int(os.environ.get('TERMSHOT_DISPLAY', ':91')[1:])
    for n in range(first, first + 8):
        disp = f':{n}'
        if answers(disp):
            return disp
        lock = f'/tmp/.X{n}-lock'
        try:
            pid = int(open(lock).read().strip())
        except (OSError, ValueError):
            pid = None
        if pid is not None and alive(pid):
            # starting, or somebody else's: give it a moment, then move on
            for _ in range(30):
                if answers(disp): return disp
                time.sleep(0.1)
            continue
        for stale in (lock, f'/tmp/.X11-unix/X{n}'):
            try: os.remove(stale)
            except FileNotFoundError: pass
        # its own session: a test harness that kills termshot's process
        # group must not take the server (and its lock) with it
        subprocess.Popen(['Xvfb', disp, '-screen', '0', f'{W}x{H}x24', '-nolisten', 'tcp'],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        for _ in range(100):
            if answers(disp): return disp
            time.sleep(0.1)
    sys.exit(f'termshot: no X server could be started (tried :{first} to :{first + 7})')

def capture(disp):
    """The screen's pixels, raw: cheap enough to take a few times a second."""
    return subprocess.run(['import', '-display', disp, '-window', 'root', '-depth', '8', 'rgb:-'],
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=20).stdout

def drawn(raw):
    """Whether something is drawn: more colours than the root window's and
    a bare terminal's background (a sample of the pixels is enough)."""
    a = np.frombuffer(raw, dtype=np.uint8)
    a = a[:len(a) // 3 * 3].reshape(-1, 3)[::53]
    return len(np.unique(a, axis=0)) > 2

def alike(a, b):
    """The same screen but for a cell or two: a blinking cursor."""
    if a is None or b is None or len(a) != len(b): return False
    x = np.frombuffer(a, dtype=np.uint8)
    y = np.frombuffer(b, dtype=np.uint8)
    return np.count_nonzero(x != y) <= 3 * 300

def settle(disp, limit, before=None):
    """Polls the screen until it stops changing, instead of sleeping: the
    same pixels five times running over about 1.5 s, with something
    drawn (and, after keys, different from `before`, what they were then).
    `limit` seconds at most: an animation or a spinner never settles.
    Returns the pixels last seen."""
    end = time.time() + limit
    last, same, changed = None, 0, before is None
    while time.time() < end:
        raw = capture(disp)
        changed = changed or not alike(raw, before)
        same = same + 1 if alike(raw, last) else 0
        last = raw
        # Five alike in a row (about 1.5 s): a spinner's cell turns faster.
        if changed and same >= 4 and drawn(raw):
            return raw
        time.sleep(0.3)
    return last

def shot(term, out, cmd):
    disp = ensure_display()
    env = dict(os.environ, DISPLAY=disp, LIBGL_ALWAYS_SOFTWARE='1')
    wait = float(os.environ.get('WAIT', '4'))   # at most: the screen is polled until it settles
    bg = os.environ.get('BG', '#ff00ff')    # magenta shows what a picture leaves uncovered; BG for docs
    script = ' '.join(cmd) + '; sleep 60'
    if term.startswith('xterm'):
        argv = ['xterm', '-geometry', '100x30+0+0', '-fa', 'DejaVu Sans Mono', '-fs', '10',
                '-bg', bg, '-fg', 'white', '+sb', '-bw', '0']
        if term == 'xterm-sixel':
            argv += ['-ti', 'vt340', '-xrm', 'XTerm*sixelScrolling: true', '-xrm', 'XTerm*numColorRegisters: 1024']
        argv += ['-e', 'bash', '-c', script]
    elif term == 'urxvt':
        argv = ['urxvt', '-geometry', '100x30+0+0', '-fn', 'xft:DejaVu Sans Mono:size=10', '-bg', '#ff00ff', '-fg', 'white',
                '+sb', '-b', '0', '-e', 'bash', '-c', script]
    elif term == 'zutty':
        argv = ['zutty', '-geometry', '100x30', '-bg', 'ff00ff', '-fg', 'ffffff', '-e', 'bash', '-c', script]
    elif term == 'mlterm':
        argv = ['mlterm', '-g', '100x30+0+0', '-b', '#ff00ff', '-f', 'white', '-O', 'none', '-e', 'bash', '-c', script]
    elif term == 'st':      # black background: psnr --bg black
        argv = ['st', '-g', '100x30+0+0', '-f', 'DejaVu Sans Mono:size=10', '-e', 'bash', '-c', script]
    elif term == 'qterminal':   # black background
        # a profile of our own: the window's size, no menu or tab bar
        conf = os.path.join(os.path.expanduser('~'), '.config', 'termshot.conf')
        os.makedirs(os.path.dirname(conf), exist_ok=True)
        with open(conf, 'w') as f:
            f.write('[General]\nMenuVisible=false\nHideTabBarWithOneTab=true\nfontFamily=DejaVu Sans Mono\nfontSize=10\n'
                    'ScrollbarPosition=0\n[MainWindow]\nsize=@Size(1000 700)\npos=@Point(0 0)\nisMaximized=false\n')
        argv = ['dbus-run-session', 'qterminal', '-p', 'termshot', '-e', 'bash', '-c', script]
    elif term == 'sakura':      # VTE; black background
        argv = ['dbus-run-session', 'sakura', '-c', '100', '-r', '30', '-x', f"bash -c '{script}'"]
    elif term == 'kitty':
        argv = ['kitty', '--config', 'NONE', '-o', f'background={bg}', '-o', 'foreground=#ffffff',
                '-o', 'initial_window_width=1000', '-o', 'initial_window_height=700',
                '-o', 'window_padding_width=0', '-o', 'placement_strategy=top-left',
                '-o', 'font_family=DejaVu Sans Mono', '-o', 'font_size=10',
                'bash', '-c', script]
    elif term in MORE:
        argv = MORE[term](script, bg)
        if term == 'foot':
            env['XDG_RUNTIME_DIR'] = runtime_dir()
    else:
        sys.exit(f'unknown terminal {term}')
    p = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    # The window first, with no screenshots in its way: a terminal's first
    # start under a fresh Xvfb (fonts, software GL) can take seconds.
    start = time.time()
    try:
        subprocess.run(['xdotool', 'search', '--sync', '--pid', str(p.pid)], env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=wait + 10)
    except subprocess.TimeoutExpired:
        pass    # a terminal started through dbus-run-session has another pid: the limit alone then
    # AT_LEAST: seconds to let pass before the screen may count as settled
    # (an animation that a slow terminal starts late holds its first frame).
    time.sleep(max(0.0, float(os.environ.get('AT_LEAST', '0')) - (time.time() - start)))
    shown = settle(disp, max(wait - (time.time() - start), 2))
    # e.g. KEYS=Right: typed, then at most WAIT2 s more. Groups split by
    # '/' are typed one after another, each once the last has settled
    # ('plus plus / 0': the zoom drawn before 0, however slow the terminal).
    groups = [g.split() for g in os.environ.get('KEYS', '').split('/') if g.split()]
    if groups:
        subprocess.run(['xdotool', 'search', '--sync', '--pid', str(p.pid), 'windowactivate', '--sync'], env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=10)
    for keys in groups:
        subprocess.run(['xdotool', 'key', '--delay', '200'] + keys, env=env, timeout=20)
        shown = settle(disp, float(os.environ.get('WAIT2', '3')), before=shown)
    # The pointer to a corner: weston (foot's compositor) draws it itself.
    subprocess.run(['xdotool', 'mousemove', str(W - 1), str(H - 1)], env=env,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=10)
    if term == 'foot':   # weston moves it when it next draws: seen beside foot's picture
        settle(disp, 3)
    subprocess.run(['import', '-display', disp, '-window', 'root', out], check=True)
    try:
        os.killpg(p.pid, 15)
    except ProcessLookupError:
        pass
    p.wait(timeout=10)

def config(path, text):
    """Writes a terminal's configuration under HOME (the caller's scratch home)."""
    path = os.path.join(os.path.expanduser('~'), path)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w') as f:
        f.write(text)

def runtime_dir():
    path = os.path.join(tempfile.gettempdir(), f'termshot-runtime-{os.getuid()}')
    os.makedirs(path, mode=0o700, exist_ok=True)
    return path

def in_session(settings, argv):
    """argv in a D-Bus session of its own, after `settings` (gsettings or
    dconf lines) have set its profile: the GNOME-family terminals keep their
    font and colours there, not in a file."""
    import shlex
    return ['dbus-run-session', 'bash', '-c', '; '.join(settings + ['exec ' + shlex.join(argv)])]

def rgb16(bg):
    """#rrggbb as GDK's old #rrrrggggbbbb (mate-terminal)."""
    r, g, b = (bg[i:i + 2] for i in (1, 3, 5))
    return f'#{r}{r}{g}{g}{b}{b}'

FONT = 'DejaVu Sans Mono'

def konsole(script, bg):
    r, g, b = (int(bg[i:i + 2], 16) for i in (1, 3, 5))
    config('.local/share/konsole/termshot.colorscheme',
           f'[Background]\nColor={r},{g},{b}\n[BackgroundIntense]\nColor={r},{g},{b}\n'
           '[Foreground]\nColor=255,255,255\n[General]\nDescription=termshot\nOpacity=1\n')
    config('.local/share/konsole/termshot.profile',
           f'[Appearance]\nColorScheme=termshot\nFont={FONT},10,-1,5,50,0,0,0,0,0\n'
           '[General]\nName=termshot\nTerminalColumns=100\nTerminalRows=30\nTerminalMargin=0\n'
           '[Scrolling]\nScrollBarPosition=2\n')
    config('.config/konsolerc', '[KonsoleWindow]\nShowMenuBarByDefault=false\n[TabBar]\nTabBarVisibility=AlwaysHideTabBar\n')
    return ['konsole', '--profile', 'termshot', '--hide-menubar', '--hide-tabbar', '--nofork', '-e', 'bash', '-c', script]

def xfce4(script, bg):
    config('.config/xfce4/terminal/terminalrc',
           f'[Configuration]\nFontName={FONT} 10\nColorBackground={bg}\nColorForeground=#ffffff\n'
           'MiscMenubarDefault=FALSE\nMiscToolbarDefault=FALSE\nScrollingBar=TERMINAL_SCROLLBAR_NONE\n'
           'MiscBordersDefault=FALSE\nMiscDefaultGeometry=100x30\n')
    return ['dbus-run-session', 'xfce4-terminal', '--disable-server', '--geometry', '100x30+0+0', '--hide-menubar',
            '--hide-toolbar', '--hide-scrollbar', '-x', 'bash', '-c', script]

GNOME_PROFILE = '/org/gnome/terminal/legacy/profiles:/:b1dcc9dd-5262-4d8d-a863-c897e6d979b9/'

def gnome(script, bg):
    keys = {'use-theme-colors': 'false', 'background-color': f"'{bg}'", 'foreground-color': "'#ffffff'",
            'use-system-font': 'false', 'font': f"'{FONT} 10'", 'scrollbar-policy': "'never'",
            'default-size-columns': '100', 'default-size-rows': '30'}
    settings = [f'gsettings set org.gnome.Terminal.Legacy.Profile:{GNOME_PROFILE} {k} "{v}"' for k, v in keys.items()]
    settings.append('gsettings set org.gnome.Terminal.Legacy.Settings default-show-menubar false')
    return in_session(settings, ['gnome-terminal', '--wait', '--geometry', '100x30+0+0', '--', 'bash', '-c', script])

def lxterminal(script, bg):
    config('.config/lxterminal/lxterminal.conf',
           f'[general]\nfontname={FONT} 10\nbgcolor={bg}\nfgcolor=#ffffff\nhidescrollbar=true\n'
           'hidemenubar=true\nhideclosebutton=true\n')
    return ['lxterminal', '--geometry=100x30', '-e', 'bash', '-c', script]

def terminator(script, bg):
    config('.config/terminator/config',
           '[global_config]\n  tab_position = hidden\n[profiles]\n  [[default]]\n'
           f'    use_system_font = False\n    font = {FONT} 10\n    background_color = "{bg}"\n'
           '    foreground_color = "#ffffff"\n    show_titlebar = False\n    scrollbar_position = hidden\n'
           '[layouts]\n[plugins]\n')
    return ['terminator', '--no-dbus', '--geometry', '1000x700+0+0', '-x', 'bash', '-c', script]

def mate(script, bg):
    path = 'org.mate.terminal.profile:/org/mate/terminal/profiles/default/'
    keys = {'use-theme-colors': 'false', 'background-color': f"'{rgb16(bg)}'", 'foreground-color': "'#FFFFFFFFFFFF'",
            'use-system-font': 'false', 'font': f"'{FONT} 10'", 'scrollbar-position': "'hidden'",
            'default-show-menubar': 'false'}
    settings = [f'gsettings set {path} {k} "{v}"' for k, v in keys.items()]
    return in_session(settings, ['mate-terminal', '--disable-factory', '--hide-menubar', '--geometry', '100x30+0+0',
                                 '-x', 'bash', '-c', script])

def tilix(script, bg):
    path = 'com.gexperts.Tilix.Profile:/com/gexperts/Tilix/profiles/2b7c4080-0ddd-46c5-8f23-563fd3ba789d/'
    keys = {'use-theme-colors': 'false', 'background-color': f"'{bg}'", 'foreground-color': "'#ffffff'",
            'use-system-font': 'false', 'font': f"'{FONT} 10'", 'show-scrollbar': 'false',
            'default-size-columns': '100', 'default-size-rows': '30', 'terminal-title-style': "'none'"}
    settings = [f'gsettings set {path} {k} "{v}"' for k, v in keys.items()]
    import shlex
    return in_session(settings, ['tilix', '--geometry=100x30+0+0', '-e', 'bash -c ' + shlex.quote(script)])

def alacritty(script, bg):
    config('.config/alacritty/alacritty.yml',
           f'font:\n  size: 10\n  normal:\n    family: {FONT}\n'
           f"colors:\n  primary:\n    background: '{bg}'\n    foreground: '#ffffff'\n"
           'window:\n  dimensions:\n    columns: 100\n    lines: 30\n  position:\n    x: 0\n    y: 0\n')
    return ['alacritty', '-e', 'bash', '-c', script]

def foot(script, bg):
    """foot is Wayland only: inside weston, itself a window on the X display."""
    # No title bar, and weston's desktop the terminal's colour: the picture
    # is then the only thing on screen unlike the background.
    config('.config/foot/foot.ini', f'font={FONT}:size=10\n[colors]\nbackground={bg[1:]}\nforeground=ffffff\n'
           '[csd]\npreferred=none\n')
    config('.config/weston.ini', f'[core]\nidle-time=0\n[shell]\npanel-position=none\nbackground-color=0xff{bg[1:]}\n')
    import shlex
    inner = shlex.join(['foot', '--window-size-chars=100x30', 'bash', '-c', script])
    return ['bash', '-c', 'weston --backend=x11-backend.so --width=1000 --height=700 --socket=termshot-wayland '
            '>/dev/null 2>&1 & sleep 2; WAYLAND_DISPLAY=termshot-wayland ' + inner]

MORE = {'konsole': konsole, 'xfce4-terminal': xfce4, 'gnome-terminal': gnome, 'lxterminal': lxterminal,
        'terminator': terminator, 'mate-terminal': mate, 'tilix': tilix, 'alacritty': alacritty, 'foot': foot}

def lin_resize(img, w, h):
    """The source scaled to w x h by area averaging in linear light (as artq.py does)."""
    a = np.asarray(img).astype(np.float64) / 255
    lin = np.where(a <= 0.04045, a / 12.92, ((a + 0.055) / 1.055) ** 2.4)
    chans = [np.asarray(Image.fromarray(lin[:, :, c].astype(np.float32), 'F').resize((w, h), Image.BOX)) for c in range(3)]
    l = np.clip(np.stack(chans, -1), 0, 1)
    s = np.where(l <= 0.0031308, l * 12.92, 1.055 * l ** (1 / 2.4) - 0.055)
    return np.clip(s * 255, 0, 255)

def psnr(shotpath, source, rows=None, bgcolour=BG):
    a = np.asarray(Image.open(shotpath).convert('RGB')).astype(np.int32)
    if rows:
        r0, r1 = (int(v) for v in rows.split(':'))
        a = a[r0:r1]
    bg = (np.abs(a - np.array(bgcolour)).sum(axis=2) <= 60)
    bys, bxs = np.nonzero(bg)              # the terminal window: where its background shows
    if len(bys) == 0:
        print('0.0 0 0 0 0 0'); return
    wy0, wx0 = bys.min(), bxs.min()
    a = a[wy0:bys.max() + 1, wx0:bxs.max() + 1]
    far = ~bg[wy0:bys.max() + 1, wx0:bxs.max() + 1]
    ys, xs = np.nonzero(far)
    if len(ys) == 0:
        print('0.0 0 0 0 0 0'); return
    # the picture: the longest run of rows that are mostly non-background (text and
    # toolbar rows are either sparse or set apart by sparse rows), then its columns
    rc = far.sum(axis=1)
    def longest(mask):
        best, start = (0, 0), None
        for i, v in enumerate(list(mask) + [False]):
            if v and start is None: start = i
            if not v and start is not None:
                if i - start > best[1] - best[0]: best = (start, i)
                start = None
        return best
    y0, y1 = longest(rc >= 0.6 * rc.max())
    cc = far[y0:y1].sum(axis=0)
    x0, x1 = longest(cc >= 0.6 * (y1 - y0))
    crop = a[y0:y1, x0:x1].astype(np.float64)
    src = Image.open(source).convert('RGB')
    best = 0.0
    for dw in (0, -1, 1):
        for dh in (0, -1, 1):
            w, h = x1 - x0 + dw, y1 - y0 + dh
            if w < 8 or h < 8: continue
            ref = lin_resize(src, w, h)
            ww, hh = min(w, crop.shape[1]), min(h, crop.shape[0])
            mse = ((crop[:hh, :ww] - ref[:hh, :ww]) ** 2).mean()
            val = 99.0 if mse == 0 else 10 * np.log10(255.0 ** 2 / mse)
            best = max(best, val)
    band = far[y0:y1, x1 + 2:x1 + 2 + 160]
    print(f'{best:.2f} {x0} {y0} {x1 - x0} {y1 - y0} {int(band.sum())}')

if __name__ == '__main__':
    if len(sys.argv) < 3: sys.exit(__doc__)
    if sys.argv[1] == 'shot':
        shot(sys.argv[2], sys.argv[3], sys.argv[4:])
    elif sys.argv[1] == 'psnr':
        rows = None
        if '--rows' in sys.argv:
            rows = sys.argv[sys.argv.index('--rows') + 1]
        bg = (0, 0, 0) if '--bg' in sys.argv and sys.argv[sys.argv.index('--bg') + 1] == 'black' else BG
        psnr(sys.argv[2], sys.argv[3], rows, bg)
