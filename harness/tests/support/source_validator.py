#!/usr/bin/env python3
"""A validator that records what it receives, for serialization cases.

`source_validator.py session DIR SUPPORT` speaks session mode and announces
SUPPORT as its `sourceText` (a JSON value; `none` announces nothing);
`source_validator.py oneshot DIR` answers one case from stdin. Each case it
is asked about is written to DIR as JSON, named after the case and the
revision: in session mode the whole `validate` request, in one-shot mode
the bytes of stdin (as text) and the `MCPDESC_SOURCE_FORMAT` variable
(`null` when it is not set). It reports the duplicate `info` key of a text
that writes it twice, and nothing otherwise.
"""

import json
import os
import sys

DUPLICATE = "mcpdesc.serialization.duplicate-key"


def record(folder, case, revision, what):
    name = case.replace("/", "__") + "@" + revision + ".json"
    with open(os.path.join(folder, name), "w", encoding="utf-8") as out:
        json.dump(what, out)


def findings(text):
    if text is not None and text.count("\ninfo:") > 1:
        return [{"rule": DUPLICATE, "path": "/info", "severity": "error"}]
    return []


def session(folder, support):
    for line in sys.stdin:
        request = json.loads(line)
        if request.get("cmd") == "start":
            revisions = [entry["revision"] for entry in request.get("revisions", [])]
            implementation = {"name": "source-recording", "version": "0",
                              "revisions": revisions}
            if support != "none":
                implementation["sourceText"] = json.loads(support)
            reply = {"protocol": 1, "implementation": implementation}
        elif request.get("cmd") == "validate":
            record(folder, request["case"], request["revision"], request)
            source = request.get("source")
            text = source["text"] if source else None
            reply = {"seq": request["seq"], "diagnostics": findings(text)}
        else:
            return
        print(json.dumps(reply), flush=True)


def oneshot(folder):
    stdin = sys.stdin.buffer.read().decode("utf-8")
    source_format = os.environ.get("MCPDESC_SOURCE_FORMAT")
    record(folder, os.environ["MCPDESC_CASE"], os.environ["MCPDESC_REVISION"],
           {"stdin": stdin, "format": source_format})
    text = stdin if source_format is not None else None
    print(json.dumps({"diagnostics": findings(text)}))


if __name__ == "__main__":
    if sys.argv[1] == "session":
        session(sys.argv[2], sys.argv[3])
    else:
        oneshot(sys.argv[2])
