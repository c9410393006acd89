#!/usr/bin/env python3
"""A validator that reports nothing and records every document it receives.

`recording_validator.py session DIR` speaks session mode;
`recording_validator.py oneshot DIR` answers one case from stdin. Each
document is written to DIR as JSON, named after the case and revision, so
that a test can compare what arrived with the fixture on disk.
"""

import json
import os
import sys


def record(folder, case, revision, document):
    name = case.replace("/", "__") + "@" + revision + ".json"
    with open(os.path.join(folder, name), "w", encoding="utf-8") as out:
        json.dump(document, out)


def session(folder):
    for line in sys.stdin:
        request = json.loads(line)
        if request.get("cmd") == "start":
            revisions = [entry["revision"] for entry in request.get("revisions", [])]
            reply = {"protocol": 1, "implementation": {
                "name": "recording", "version": "0", "language": "python",
                "specifications": ["0.9.0"], "revisions": revisions}}
        elif request.get("cmd") == "validate":
            record(folder, request["case"], request["revision"], request["document"])
            reply = {"seq": request["seq"], "diagnostics": []}
        else:
            return
        print(json.dumps(reply), flush=True)


def oneshot(folder):
    document = json.loads(sys.stdin.read())
    record(folder, os.environ["MCPDESC_CASE"], os.environ["MCPDESC_REVISION"], document)
    print(json.dumps({"diagnostics": []}))


if __name__ == "__main__":
    {"session": session, "oneshot": oneshot}[sys.argv[1]](sys.argv[2])
