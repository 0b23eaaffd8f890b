"""One read from a pty master, for the scripted terminals in this folder."""
import os, select


def read_ready(fd, timeout):
    """What the program wrote within `timeout` seconds: b"" when nothing
    came, None once the pty is closed (the program ended)."""
    try:
        ready, _, _ = select.select([fd], [], [], timeout)
    except InterruptedError:
        return b""
    if fd not in ready:
        return b""
    try:
        data = os.read(fd, 65536)
    except OSError:
        return None
    return data or None
