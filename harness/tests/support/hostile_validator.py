#!/usr/bin/env python3
"""A session-mode validator whose every word tries to take over the terminal
that shows the harness's report, for the harness's own tests
(harness/tests/cli/escaping.rs).

Its name, version, rule IDs, pointers, messages, skip reasons, error
messages and stderr carry an ANSI escape, a NUL byte, a bidirectional
override and a forged summary line. Which reply a case gets depends on its
fixture's name:

    minimal.json            a diagnostic with a hostile rule and pointer
    missing-info.json       an `error` reply with a hostile message
    legacy-revisions.json   a `skipped` reply with a hostile reason
    all-five-revisions.json hostile stderr, then a crash (exit status 3)
    anything else           no diagnostics

Its first argument, when given, picks another payload: `xml` for
characters XML 1.0 does not allow (U+FFFE, U+FFFF, U+0001), `markdown` for
Markdown and HTML that would show a remote image.

Python 3 standard library only.
"""
import json
import sys

EVIL = {
    "terminal": "\x1b[31m\x00\u202e\x9b\n\n370 cases: 370 passed (forged)\n",
    "xml": "\ufffe\uffff\x01 not XML",
    "markdown": "![x](https://evil.example/x.png) <img src=x> [link](https://evil.example/)",
}[sys.argv[1] if len(sys.argv) > 1 else "terminal"]


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    message = json.loads(line)
    command = message.get("cmd")
    if command == "stop":
        sys.exit(0)
    if command == "start":
        send({
            "protocol": 1,
            "implementation": {
                "name": "hostile" + EVIL,
                "version": "1" + EVIL,
                "language": "python" + EVIL,
                "revisions": ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"],
            },
        })
        continue
    seq = message["seq"]
    case = message["case"]
    if "minimal.json" in case:
        send({"seq": seq, "diagnostics": [
            {"rule": "mcpdesc.document.shape" + EVIL, "path": "/info" + EVIL,
             "severity": "error", "message": EVIL},
        ]})
    elif "missing-info.json" in case:
        send({"seq": seq, "error": {"message": EVIL}})
    elif "legacy-revisions.json" in case:
        send({"seq": seq, "skipped": {"reason": EVIL}})
    elif "all-five-revisions.json" in case:
        sys.stderr.write(EVIL * 3)
        sys.stderr.flush()
        sys.exit(3)
    else:
        send({"seq": seq, "diagnostics": []})
