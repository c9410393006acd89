#!/usr/bin/env python3
"""A session-mode adapter that makes one chosen mistake, for testing `smoke`.

Usage: faulty_adapter.py MISTAKE, where MISTAKE is one of: none, silent-start,
protocol-2, not-json, no-seq, wrong-seq, diagnostics-object, relative-path,
fatal-severity, unknown-rule, extra-line, future-revisions-only.
"""
import json
import sys

MISTAKE = sys.argv[1] if len(sys.argv) > 1 else "none"
IMPLEMENTATION = {
    "name": "faulty",
    "version": "0",
    "language": "python",
    "specifications": ["0.9.0"],
    "revisions": ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"],
}


def send(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    message = json.loads(line)
    command = message.get("cmd")
    if command == "stop":
        sys.exit(0)
    if command == "start":
        if MISTAKE == "silent-start":
            continue
        if MISTAKE == "future-revisions-only":
            IMPLEMENTATION["revisions"] = ["2099-01-01"]
        send(json.dumps({"protocol": 2 if MISTAKE == "protocol-2" else 1, "implementation": IMPLEMENTATION}))
        continue
    seq = message["seq"]
    diagnostic = {"rule": "mcpdesc.document.shape", "path": "", "severity": "error"}
    reply = {"seq": seq, "diagnostics": []}
    if MISTAKE == "not-json":
        send("validating " + message["case"])
        continue
    if MISTAKE == "no-seq":
        del reply["seq"]
    elif MISTAKE == "wrong-seq":
        reply["seq"] = seq + 100
    elif MISTAKE == "diagnostics-object":
        reply["diagnostics"] = diagnostic
    elif MISTAKE == "relative-path":
        reply["diagnostics"] = [dict(diagnostic, path="info")]
    elif MISTAKE == "fatal-severity":
        reply["diagnostics"] = [dict(diagnostic, severity="fatal")]
    elif MISTAKE == "unknown-rule":
        reply["diagnostics"] = [dict(diagnostic, rule="my.own.rule")]
    send(json.dumps(reply))
    if MISTAKE == "extra-line":
        send(json.dumps({"progress": "done"}))
