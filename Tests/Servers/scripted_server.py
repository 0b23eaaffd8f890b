#!/usr/bin/env python3
"""A small HTTP server that misbehaves on purpose, for urlcache's tests.

usage: scripted_server.py ROOT LOGFILE
Listens on 127.0.0.1 on a free port, prints "PORT <n>" once ready, and
appends one JSON line per request to LOGFILE: method, path, the request
headers the tests look at, the status sent and the body bytes sent.

A request in absolute form (http://host/route/NAME) is served as if this
were an HTTP proxy, and logged with "proxied": true.

Routes (NAME is a file under ROOT):
  /plain/NAME        ETag + Last-Modified, honours If-None-Match / If-Modified-Since
  /ignore/NAME       sends validators but ignores conditions (always 200 + body)
  /novalidators/NAME 200 with no ETag and no Last-Modified
  /etagonly/NAME     ETag only, honours If-None-Match
  /lmonly/NAME       Last-Modified only, honours If-Modified-Since (exact match)
  /badlm/NAME        an unparsable Last-Modified, no ETag
  /slow/NAME         the body in 8 pieces, 0.15 s apart (?delay=SECONDS to change)
  /truncated/NAME    announces the full length, sends half, closes
  /stall/NAME        headers and 10 bytes, then one byte every 2 s
  /endless           a JPEG-looking body that never ends
  /trickle/NAME      the file's first 4 KB, then one byte every 0.5 s (120 s at most)
  /partial/NAME      206 Partial Content with the whole file and a Content-Range
  /short/NAME        200 whose Content-Length is half the file, and that half
  /noise/NAME        200, the file's first 16 bytes followed by noise of its length
  /quiet304/NAME     as /plain, but a 304 repeats the ETag only (no Last-Modified)
  /always304/NAME    304 Not Modified to every request, asked or not
  /as/NAME           as the route named in ROOT/mode (plain when missing): one URL
                     that a test turns hostile after a good first answer
  /scripted/NAME     as ROOT/script.json says: {"status": N, "headers": ["Name: Value", ...],
                     "delay": SECONDS}; a 200 or 203 is /plain/NAME with those headers, any other
                     status an HTML body with them (a Location makes a redirect); values
                     expand {now+N} as /headers does (reach it as /as/NAME, mode scripted)
  /gzip/NAME         the body gzip-encoded, with validators
  /cycle/NAME        a long-running screen's day, four answers in turn: a new image
                     (NAME, then ROOT/NAME.next, then NAME again…, each a 200 with its
                     validators), a 304 to the client's validators, a 503 with
                     Retry-After: 2, a 206 Partial Content (Benchmarks/soak.sh)
  /redirect/NAME     301 to /plain/NAME
  /redirect-file     302 to file:///etc/passwd
  /redirect-loop     302 to itself
  /html              200 text/html page
  /status/CODE       that status with an HTML body
  /escape            500 whose reason phrase carries escape sequences
  /mislabeled/NAME   the file as text/plain
  /hugeheader/NAME   the file, behind one header line of 120 KB (libcurl's limit is 100 KB)
  /headers/NAME?h=Name:Value&h=...
                     as /plain/NAME, plus these headers (URL-encoded); in a value,
                     {now+N} / {now-N} become the HTTP date N seconds from now; a
                     Date header is added unless one is given; &delay=SECONDS waits
                     that long before answering
"""
import email.utils, gzip, hashlib, json, os, socket, sys, threading, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ROOT, LOG = sys.argv[1], sys.argv[2]
LOCK = threading.Lock()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def record(self, status, sent):
        entry = {
            "method": self.command, "path": self.path, "status": status, "body_bytes": sent,
            "if_none_match": self.headers.get("If-None-Match"),
            "if_modified_since": self.headers.get("If-Modified-Since"),
            "user_agent": self.headers.get("User-Agent"),
            "accept_encoding": self.headers.get("Accept-Encoding"),
            "accept": self.headers.get("Accept"),
            "proxied": getattr(self, "proxied", False),
        }
        with LOCK, open(LOG, "a") as f:
            f.write(json.dumps(entry) + "\n")

    def file(self, name):
        path = os.path.join(ROOT, os.path.basename(name))
        with open(path, "rb") as f:
            body = f.read()
        etag = '"%s"' % hashlib.sha256(body).hexdigest()[:16]
        lm = email.utils.formatdate(int(os.stat(path).st_mtime), usegmt=True)
        return body, etag, lm

    def head_only(self, status, reason, headers):
        line = "HTTP/1.1 %d %s\r\n" % (status, reason)
        out = line.encode("latin-1")
        for k, v in headers:
            out += ("%s: %s\r\n" % (k, v)).encode("latin-1")
        out += b"Connection: close\r\n\r\n"
        self.wfile.write(out)
        self.close_connection = True

    def reply(self, status, body=b"", ctype="image/octet-stream", headers=(), reason=None):
        hs = list(headers) + [("Content-Type", ctype), ("Content-Length", str(len(body)))]
        with_body = self.command != "HEAD" and status != 304
        # Logged before the answer goes: once the client has it, it may exit
        # and the test read the log before this thread wrote to it.
        self.record(status, len(body) if with_body else 0)
        self.head_only(status, reason or self.responses.get(status, ("",))[0], hs)
        if with_body:
            self.wfile.write(body)

    def conditional(self, name, use_etag=True, use_lm=True, extra=(), status=200):
        body, etag, lm = self.file(name)
        headers = list(extra)
        if use_etag: headers.append(("ETag", etag))
        if use_lm: headers.append(("Last-Modified", lm))
        inm, ims = self.headers.get("If-None-Match"), self.headers.get("If-Modified-Since")
        if (use_etag and inm == etag) or (use_lm and inm is None and ims == lm):
            return self.reply(304, headers=headers)
        return self.reply(status, body, self.ctype(name), headers)

    @staticmethod
    def ctype(name):
        return "image/png" if name.endswith(".png") else "image/jpeg"

    def do_GET(self):
        # A request in absolute form came through us as an HTTP proxy.
        self.proxied = self.path.startswith("http://")
        if self.proxied:
            self.path = "/" + self.path.split("/", 3)[3]
        parts = self.path.split("?")[0].strip("/").split("/", 1)
        route, name = parts[0], parts[1] if len(parts) > 1 else ""
        try:
            getattr(self, "route_" + route.replace("-", "_"))(name)
        except (BrokenPipeError, ConnectionResetError):
            pass
        except FileNotFoundError:
            self.reply(404, b"<html>not found</html>", "text/html")

    def route_plain(self, name): self.conditional(name)
    def route_etagonly(self, name): self.conditional(name, use_lm=False)
    def route_lmonly(self, name): self.conditional(name, use_etag=False)

    @staticmethod
    def expanded(lines):
        """'Name: Value' lines as header pairs, {now+N} expanded, a Date added unless given."""
        import re
        def value(text):
            return re.sub(r"\{now([+-]\d+)\}",
                          lambda m: email.utils.formatdate(time.time() + int(m.group(1)), usegmt=True), text)
        extra = [(h.split(":", 1)[0], value(h.split(":", 1)[1]).strip()) for h in lines if ":" in h]
        if not any(k.lower() == "date" for k, _ in extra):
            extra.append(("Date", email.utils.formatdate(time.time(), usegmt=True)))
        return extra

    def route_headers(self, name):
        import urllib.parse
        query = urllib.parse.parse_qs(self.path.split("?", 1)[1] if "?" in self.path else "")
        time.sleep(float(query.get("delay", ["0"])[0]))
        self.conditional(name, extra=self.expanded(query.get("h", [])))

    def route_scripted(self, name):
        with open(os.path.join(ROOT, "script.json")) as f:
            script = json.load(f)
        time.sleep(script.get("delay", 0))
        extra = self.expanded(script.get("headers", []))
        status = script.get("status", 200)
        if status in (200, 203):
            # A Last-Modified the script gives replaces the file's.
            own_lm = not any(k.lower() == "last-modified" for k, _ in extra)
            return self.conditional(name, use_lm=own_lm, extra=extra, status=status)
        self.reply(status, b"<html><body>scripted</body></html>", "text/html", extra)

    def route_negotiate(self, name):
        """NAME.webp to a client that accepts WebP, else NAME.jpg, as a CDN
        that negotiates does (Vary: Accept)."""
        accept = self.headers.get("Accept") or ""
        pick = name + (".webp" if "image/webp" in accept else ".jpg")
        body, etag, lm = self.file(pick)
        self.reply(200, body, "image/webp" if pick.endswith(".webp") else "image/jpeg",
                   [("ETag", etag), ("Last-Modified", lm), ("Vary", "Accept")])

    def route_ignore(self, name):
        body, etag, lm = self.file(name)
        self.reply(200, body, self.ctype(name), [("ETag", etag), ("Last-Modified", lm)])

    def route_novalidators(self, name):
        body, _, _ = self.file(name)
        self.reply(200, body, self.ctype(name))

    def route_badlm(self, name):
        body, _, _ = self.file(name)
        self.reply(200, body, self.ctype(name), [("Last-Modified", "yesterday-ish, probably")])

    def route_mislabeled(self, name):
        body, etag, lm = self.file(name)
        self.reply(200, body, "text/plain", [("ETag", etag)])

    def route_gzip(self, name):
        body, etag, lm = self.file(name)
        packed = gzip.compress(body)
        self.reply(200, packed, self.ctype(name), [("ETag", etag), ("Last-Modified", lm), ("Content-Encoding", "gzip")])

    def route_slow(self, name):
        body, etag, lm = self.file(name)
        delay = float(self.path.split("delay=")[1]) if "delay=" in self.path else 0.15
        self.head_only(200, "OK", [("Content-Type", self.ctype(name)), ("Content-Length", str(len(body))),
                                   ("ETag", etag), ("Last-Modified", lm)])
        step = max(1, len(body) // 8 + 1)
        sent = 0
        for i in range(0, len(body), step):
            if i: time.sleep(delay)
            if i + step >= len(body): self.record(200, len(body))  # logged before the client can finish
            self.wfile.write(body[i:i + step]); self.wfile.flush()

    def route_truncated(self, name):
        body, etag, lm = self.file(name)
        self.head_only(200, "OK", [("Content-Type", self.ctype(name)), ("Content-Length", str(len(body)))])
        self.wfile.write(body[: len(body) // 2]); self.wfile.flush()
        self.record(200, len(body) // 2)

    def route_stall(self, name):
        body, _, _ = self.file(name)
        self.head_only(200, "OK", [("Content-Type", self.ctype(name)), ("Content-Length", str(len(body)))])
        sent = 0
        deadline = time.time() + 120
        for i in range(len(body)):
            if time.time() > deadline: break
            self.wfile.write(body[i:i + 10 if i == 0 else i + 1]); self.wfile.flush()
            sent += 1
            time.sleep(2)
        self.record(200, sent)

    def route_endless(self, name):
        self.head_only(200, "OK", [("Content-Type", "image/jpeg")])
        chunk = b"\xff\xd8\xff\xe0" + os.urandom(65532)
        sent = 0
        deadline = time.time() + 120
        while time.time() < deadline:
            self.wfile.write(chunk); sent += len(chunk)
        self.record(200, sent)

    def route_trickle(self, name):
        body, _, _ = self.file(name)
        self.head_only(200, "OK", [("Content-Type", self.ctype(name))])
        self.wfile.write(body[:4096]); self.wfile.flush()
        sent, deadline = 4096, time.time() + 120
        while time.time() < deadline and sent < len(body):
            time.sleep(0.5)
            self.wfile.write(body[sent:sent + 1]); self.wfile.flush()
            sent += 1
        self.record(200, sent)

    def route_partial(self, name):
        body, etag, lm = self.file(name)
        self.reply(206, body, self.ctype(name),
                   [("Content-Range", "bytes 0-%d/%d" % (len(body) - 1, len(body))), ("ETag", etag)])

    def route_short(self, name):
        body, etag, lm = self.file(name)
        self.reply(200, body[: len(body) // 2], self.ctype(name), [("ETag", etag + "-short")])

    def route_nothttp(self, name):
        # What an SSH port says to anyone: no status line, no headers.
        self.record(0, 0)
        self.wfile.write(b"SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n")
        self.close_connection = True

    def route_noise(self, name):
        body, _, _ = self.file(name)
        noise = hashlib.sha256(body).digest() * (len(body) // 32 + 1)
        self.reply(200, body[:16] + noise[: len(body) - 16], self.ctype(name))

    def route_quiet304(self, name):
        body, etag, lm = self.file(name)
        inm, ims = self.headers.get("If-None-Match"), self.headers.get("If-Modified-Since")
        if inm == etag:
            return self.reply(304, headers=[("ETag", etag)])
        return self.reply(200, body, self.ctype(name), [("ETag", etag), ("Last-Modified", lm)])

    def route_as(self, name):
        try:
            with open(os.path.join(ROOT, "mode")) as f: mode = f.read().strip()
        except FileNotFoundError:
            mode = "plain"
        getattr(self, "route_" + mode)(name)

    CYCLES = {}

    def route_cycle(self, name):
        with LOCK:
            turn = Handler.CYCLES.get(name, 0)
            Handler.CYCLES[name] = turn + 1
        current = name if (turn // 4) % 2 == 0 else name + ".next"
        step = turn % 4
        if step == 2:
            return self.reply(503, b"<html><body>busy</body></html>", "text/html", [("Retry-After", "2")])
        if step == 3:
            return self.route_partial(current)
        self.conditional(current)

    def route_always304(self, name):
        self.reply(304)

    def redirect(self, location):
        self.reply(302, b"", "text/html", [("Location", location)])

    def route_redirect(self, name): self.redirect("/plain/" + name)
    def route_redirect_file(self, name): self.redirect("file:///etc/passwd")
    def route_redirect_loop(self, name): self.redirect("/redirect-loop")

    def route_html(self, name):
        self.reply(200, b"<!DOCTYPE html><html><body>Not an image</body></html>", "text/html; charset=utf-8")

    def route_status(self, name):
        self.reply(int(name), b"<html><body>error page</body></html>", "text/html")

    def route_hugeheader(self, name):
        body, _, _ = self.file(name)
        self.reply(200, body, self.ctype(name), [("X-Padding", "x" * (120 * 1024))])

    def route_escape(self, name):
        self.reply(500, b"<html>x</html>", "text/html\x1b[2J", reason="Evil \x1b[31mRED\x1b]0;pwned\x07 \x9b6n")


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print("PORT %d" % server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
