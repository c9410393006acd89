#!/usr/bin/env python3
"""An independently written MCP Description validator, in session mode.

Written from the specification material alone (the seeds, the design
facts and the suite's catalogs), not from the Rust reference validator, so
that mutating it measures the suite against bugs of another shape (see
adequacy/README.md). Python 3.9+, standard library only.

This file is the stdio session (docs/protocol.md); the rules are in
`rules.py` beside it, which is what adequacy/mutate.py mutates. The rules
module is found next to this file, so a mutant is this file copied beside a
mutated `rules.py`.
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import rules  # noqa: E402  (found beside this file, see above)

# The source text it reads (docs/protocol.md, "Source text"): JSON only,
# since Python's standard library has no YAML parser and this validator uses
# nothing else. YAML serialization cases are then skipped by the harness.
JSON_FORMAT = "json"

IMPLEMENTATION = {
    "name": "mcpdesc-independent",
    "version": "0.1.0",
    "language": "python",
    "specifications": [rules.SPECIFICATION],
    "revisions": [],  # every revision `start` lists
    "rules": rules.ALL_RULES,
    "sourceText": {"version": 1, "formats": [JSON_FORMAT]},
}


class Session:
    def __init__(self):
        self.context = rules.Context([], [])

    def start(self, request):
        listed = request.get("revisions")
        if not isinstance(listed, list) or not listed:
            raise ValueError("`start` lists no MCP revisions")
        names = [entry["revision"] for entry in listed]
        legacy = [entry["revision"] for entry in listed if entry.get("legacy")]
        self.context = rules.Context(names, legacy)
        return {"protocol": 1, "implementation": dict(IMPLEMENTATION, revisions=names)}

    def validate(self, request):
        seq = request["seq"]
        revision = request.get("revision")
        if revision not in self.context.revisions:
            return {"seq": seq, "skipped": {"reason": "MCP %r was not announced" % (revision,)}}
        source = request.get("source")
        if source is None:
            findings = rules.validate(request.get("document"), revision, self.context)
        elif source.get("format") == JSON_FORMAT:
            findings = rules.validate_json_text(source["text"], revision, self.context)
        else:
            # Not announced, so not expected; declined rather than guessed at.
            reason = "%r source text is not read: only JSON is" % (source.get("format"),)
            return {"seq": seq, "skipped": {"reason": reason}}
        return {"seq": seq, "diagnostics": findings}

    def answer(self, request):
        command = request.get("cmd")
        if command == "start":
            return self.start(request)
        if command == "validate":
            return self.validate(request)
        raise ValueError("unknown command %r" % (command,))


def write(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def log(text):
    sys.stderr.write("mcpdesc-independent: %s\n" % text)
    sys.stderr.flush()


def main():
    session = Session()
    for raw in sys.stdin.buffer:
        line = raw.decode("utf-8", errors="replace")
        if not line.strip():
            continue
        seq = None
        try:
            request = json.loads(line)
            if not isinstance(request, dict):
                raise ValueError("a request must be a JSON object")
            seq = request.get("seq")
            if request.get("cmd") == "stop":
                return 0
            reply = session.answer(request)
        except Exception as error:  # a bad line must not end the session
            if isinstance(seq, int) and not isinstance(seq, bool):
                write({"seq": seq, "error": {"message": "cannot handle the request: %r" % error}})
            else:
                log("ignoring a line I cannot use: %r" % error)
            continue
        write(reply)
    return 0


if __name__ == "__main__":
    sys.exit(main())
