#!/usr/bin/env python3
"""A session-mode validator that answers every case with COUNT distinct
diagnostics (default 10,000), each naming a rule outside every catalog at a
pointer that names nothing, for the harness's memory tests. The reply is
built once and sent again with each request's `seq`, so this process stays
small whatever the harness does. Python 3 standard library only.

Usage: flooding_validator.py [COUNT]
"""

import json
import sys

REVISIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"]


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    diagnostics = json.dumps(
        [
            {"rule": "mcpdesc.flood", "path": "/flood/%d" % n, "severity": "error",
             "message": "flood %d" % n}
            for n in range(count)
        ]
    ).encode()
    out = sys.stdout.buffer
    for line in sys.stdin.buffer:
        if not line.strip():
            continue
        request = json.loads(line)
        command = request.get("cmd")
        if command == "stop":
            return 0
        if command == "start":
            reply = {
                "protocol": 1,
                "implementation": {
                    "name": "flooding",
                    "version": "1",
                    "language": "python",
                    "specifications": ["0.9.0"],
                    "revisions": REVISIONS,
                },
            }
            out.write(json.dumps(reply).encode() + b"\n")
        else:
            out.write(b'{"seq":%d,"diagnostics":' % request["seq"] + diagnostics + b"}\n")
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
