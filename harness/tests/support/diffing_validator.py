#!/usr/bin/env python3
"""A session-mode validator for the harness's `diff` tests
(harness/tests/cli/diff.rs): it disagrees with the reference validator in
ways chosen by its options. Python 3 standard library only.

Usage: diffing_validator.py [OPTION...]

By default it reports nothing but what its options add; with --reference
it reports what the reference validator does, less what --drop takes away,
so that it disagrees with the reference on one cause only.

    --reference EXE  ask `EXE --stdio` (the reference validator's session
                     mode) about every document and report what it reports
    --drop RULE      with --reference, never report RULE (repeatable)
    --rule TEXT      report rule TEXT at pointer "" on every document
                     (repeatable)
    --new-rule       report a rule never reported before on every call
    --flood BYTES    the first time a (case, revision) is asked about,
                     reply with 10,000 diagnostics of about BYTES in all,
                     of the rule `x.flood-INDEX` (INDEX from the case ID)
                     at pointers /flood/N; every later time (shrinking),
                     with one diagnostic of that rule
    --slow-repeat MS when a (case, revision) is asked about again (that is,
                     while shrinking), wait MS milliseconds first
    --mark FILE      create FILE the first time a (case, revision) is asked
                     about again
"""

import json
import subprocess
import sys
import time

REVISIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"]


def main():
    rules, new_rule, flood, slow, mark = [], False, None, 0, None
    reference, drop = None, set()
    args = sys.argv[1:]
    while args:
        option = args.pop(0)
        if option == "--rule":
            rules.append(args.pop(0))
        elif option == "--new-rule":
            new_rule = True
        elif option == "--flood":
            flood = int(args.pop(0))
        elif option == "--slow-repeat":
            slow = int(args.pop(0))
        elif option == "--mark":
            mark = args.pop(0)
        elif option == "--reference":
            reference = args.pop(0)
        elif option == "--drop":
            drop.add(args.pop(0))
        else:
            sys.exit("unknown option " + option)
    proxy = None
    if reference is not None:
        proxy = subprocess.Popen(
            [reference, "--stdio"], stdin=subprocess.PIPE, stdout=subprocess.PIPE
        )

    def ask(line):
        proxy.stdin.write(line if line.endswith(b"\n") else line + b"\n")
        proxy.stdin.flush()
        return json.loads(proxy.stdout.readline())

    seen = set()
    calls = 0
    out = sys.stdout.buffer
    for line in sys.stdin.buffer:
        if not line.strip():
            continue
        request = json.loads(line)
        command = request.get("cmd")
        if command == "stop":
            if proxy is not None:
                proxy.stdin.close()
                proxy.wait()
            return 0
        if command == "start":
            reply = {
                "protocol": 1,
                "implementation": {
                    "name": "diffing",
                    "version": "1",
                    "language": "python",
                    "revisions": REVISIONS,
                },
            }
            if proxy is not None:
                # The revisions the reference checks, as it was told them.
                revisions = ask(line)["implementation"]["revisions"]
                reply["implementation"]["revisions"] = revisions
            out.write(json.dumps(reply).encode() + b"\n")
            out.flush()
            continue
        calls += 1
        key = (request["case"], request["revision"])
        again = key in seen
        seen.add(key)
        if again:
            if mark is not None:
                open(mark, "a").close()
                mark = None
            time.sleep(slow / 1000)
        diagnostics = []
        if proxy is not None:
            answer = ask(line)
            if "diagnostics" not in answer:
                out.write(json.dumps(answer).encode() + b"\n")
                out.flush()
                continue
            diagnostics = [d for d in answer["diagnostics"] if d["rule"] not in drop]
        diagnostics.extend(
            {"rule": rule, "path": "", "severity": "error", "message": "always"}
            for rule in rules
        )
        if new_rule:
            diagnostics.append(
                {"rule": "x.new-%d" % calls, "path": "", "severity": "error", "message": "new"}
            )
        if flood is not None:
            rule = "x.flood-" + request["case"].rsplit("/", 1)[-1]
            count = 1 if again else 10_000
            filler = "f" * max(1, flood // 10_000 - 80)
            diagnostics.extend(
                {"rule": rule, "path": "/flood/%d" % n, "severity": "error", "message": filler}
                for n in range(count)
            )
        text = json.dumps({"seq": request["seq"], "diagnostics": diagnostics})
        out.write(text.encode() + b"\n")
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
