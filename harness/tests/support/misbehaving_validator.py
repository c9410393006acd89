#!/usr/bin/env python3
"""A validator that breaks the stdio contract on purpose, for the harness's
own tests (harness/tests/cli.rs, `mod misbehaviour` and `mod oneshot`).

It answers every case correctly -- it looks the findings up in an answers
file that the test writes from the suite's expectations -- except for the one
misbehaviour its arguments choose. Python 3 standard library only.

Usage:
    misbehaving_validator.py --answers FILE [--marker TEXT] [--grandchild]
                             [--oneshot] MODE [ARG]

Session mode (the default). N counts the `validate` requests this process
has received, so a restarted process counts from 1 again:
    none               behave
    crash N            exit with status 3 on request N, without answering
    hang N             never answer request N
    garbage N          answer request N with a line that is not JSON
    wrong-seq N        answer request N with another `seq`
    oversized N        answer request N with a valid line of about 200 KB
    partial N          write half a reply to request N, no line break, exit
    exit-after-start   answer `start`, then exit with status 0
    stderr-flood MB    write MB megabytes on stderr before each answer
    slow-start SECONDS wait that long before answering `start`
    bad-start          answer `start` with protocol 2
    ignore-stop        behave, but go on running after `stop` (until killed)
    wait-for PATH      behave, but answer no request before the file PATH exists
    reverse K          behave, but answer in reverse order: gather up to K
                       requests (fewer when no more comes within 0.3 s), then
                       answer the last first (for a harness with several
                       requests in flight)

One-shot mode (--oneshot). ARG is a text; the cases whose name contains it
misbehave, the others behave:
    none               behave
    exit-2 TEXT        print a valid reply, exit with status 2
    no-reply TEXT      print nothing, exit with status 0
    hang TEXT          never answer
    two-lines TEXT     print the reply twice
    log-line TEXT      print a log line on stdout, then the reply

--log FILE appends, in reverse mode, one line per batch: the `seq`s in the
order they were answered; in hang mode, a line `hanging` when it starts to
hang (the harness has its answers to the requests before, then).

--grandchild starts a long-sleeping process first that inherits stdout and
stderr (and carries the marker in its command line), so the pipes stay open
after this process is gone unless the harness kills the whole process group.
"""

import json
import os
import select
import subprocess
import sys
import time

REVISIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"]


def parse_args(argv):
    options = {"answers": None, "marker": "", "grandchild": False, "oneshot": False, "log": None}
    rest = []
    words = iter(argv)
    for word in words:
        if word == "--answers":
            options["answers"] = next(words)
        elif word == "--marker":
            options["marker"] = next(words)
        elif word == "--log":
            options["log"] = next(words)
        elif word == "--grandchild":
            options["grandchild"] = True
        elif word == "--oneshot":
            options["oneshot"] = True
        else:
            rest.append(word)
    if not rest:
        sys.exit("usage: misbehaving_validator.py --answers FILE [options] MODE [ARG]")
    options["mode"] = rest[0]
    options["arg"] = rest[1] if len(rest) > 1 else ""
    return options


def load_answers(path):
    if path is None:
        return {}
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def start_grandchild(marker):
    # Inherits stdin, stdout and stderr, stays in this process group.
    subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(300)", "grandchild", marker]
    )


def write(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def log(text):
    sys.stderr.write("misbehaving_validator: " + text + "\n")
    sys.stderr.flush()


class Lines:
    """Lines of stdin, read straight from the file descriptor so that a
    wait for the next one can have a time limit."""

    def __init__(self):
        self.buffer = b""
        self.ended = False

    def readline(self, timeout=None):
        """The next line ("" at the end of input), or None when none is
        complete within `timeout` seconds."""
        while b"\n" not in self.buffer and not self.ended:
            ready, _, _ = select.select([0], [], [], timeout)
            if not ready:
                return None
            chunk = os.read(0, 65536)
            if not chunk:
                self.ended = True
            self.buffer += chunk
        if b"\n" in self.buffer:
            line, self.buffer = self.buffer.split(b"\n", 1)
            return line.decode("utf-8") + "\n"
        line, self.buffer = self.buffer, b""
        return line.decode("utf-8")


def session(options, answers):
    mode, arg = options["mode"], options["arg"]
    count = 0
    stdin = Lines()
    batch = []
    while True:
        line = stdin.readline(0.3 if batch else None)
        if mode == "reverse" and batch and (line is None or len(batch) >= int(arg)):
            # Answer the gathered requests, the last first.
            for reply in reversed(batch):
                write(json.dumps(reply))
            if options["log"]:
                with open(options["log"], "a", encoding="utf-8") as log_file:
                    log_file.write(" ".join(str(r["seq"]) for r in reversed(batch)) + "\n")
            batch = []
        if line is None:
            continue
        if not line:
            return 0
        if not line.strip():
            continue
        request = json.loads(line)
        command = request.get("cmd")
        if command == "stop":
            if mode == "ignore-stop":
                log("ignoring stop")
                time.sleep(3600)
            return 0
        if command == "start":
            if mode == "slow-start":
                time.sleep(float(arg))
            protocol = 2 if mode == "bad-start" else 1
            write(json.dumps({
                "protocol": protocol,
                "implementation": {
                    "name": "misbehaving",
                    "version": "1",
                    "language": "python",
                    "specifications": ["0.9.0"],
                    "revisions": REVISIONS,
                },
            }))
            if mode == "exit-after-start":
                log("exiting right after start")
                return 0
            continue
        count += 1
        seq = request["seq"]
        key = request["case"] + "@" + request["revision"]
        reply = {"seq": seq, "diagnostics": answers.get(key, [])}
        here = arg.isdigit() and count == int(arg)
        if mode == "wait-for":
            while not os.path.exists(arg):
                time.sleep(0.02)
        if mode == "crash" and here:
            log("crashing on request %d (%s)" % (count, key))
            return 3
        if mode == "hang" and here:
            log("hanging on request %d (%s)" % (count, key))
            if options["log"]:
                with open(options["log"], "a", encoding="utf-8") as log_file:
                    log_file.write("hanging\n")
            time.sleep(3600)
        if mode == "garbage" and here:
            write("this is not JSON")
            continue
        if mode == "wrong-seq" and here:
            reply["seq"] = seq + 1000
        if mode == "oversized" and here:
            reply["padding"] = "x" * 200_000
        if mode == "partial" and here:
            log("writing half a reply and exiting")
            sys.stdout.write(json.dumps(reply)[:10])
            sys.stdout.flush()
            return 0
        if mode == "reverse":
            batch.append(reply)
            continue
        if mode == "stderr-flood":
            chunk = ("flood " * 170 + "\n") * 1024  # about 1 MB
            for _ in range(int(arg)):
                sys.stderr.write(chunk)
            sys.stderr.flush()
        write(json.dumps(reply))


def oneshot(options, answers):
    mode, arg = options["mode"], options["arg"]
    sys.stdin.read()
    case = os.environ.get("MCPDESC_CASE", "")
    key = case + "@" + os.environ.get("MCPDESC_REVISION", "")
    reply = json.dumps({"diagnostics": answers.get(key, [])})
    if mode == "none" or arg not in case:
        write(reply)
        return 0
    if mode == "exit-2":
        write(reply)
        return 2
    if mode == "no-reply":
        return 0
    if mode == "hang":
        time.sleep(3600)
    if mode == "two-lines":
        write(reply)
        write(reply)
        return 0
    if mode == "log-line":
        write("validating " + case)
        write(reply)
        return 0
    sys.exit("unknown one-shot mode " + mode)


def main():
    options = parse_args(sys.argv[1:])
    answers = load_answers(options["answers"])
    if options["grandchild"]:
        start_grandchild(options["marker"])
    if options["oneshot"]:
        return oneshot(options, answers)
    return session(options, answers)


if __name__ == "__main__":
    sys.exit(main())
