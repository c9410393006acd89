#!/usr/bin/env python3
"""A session-mode adapter that makes one chosen mistake, for testing `smoke`.

Usage: faulty_adapter.py MISTAKE, where MISTAKE is one of: none, silent-start,
protocol-2, not-json, no-seq, wrong-seq, diagnostics-object, relative-path,
fatal-severity, unknown-rule, extra-line, future-revisions-only,
no-revisions-in-suite, rule-not-applicable, bad-nested-pointer.

no-revisions-in-suite announces only a revision that no case runs under.
rule-not-applicable reports, under every revision but 2025-06-18, a rule
that applies under 2025-06-18 only. bad-nested-pointer finds an enum form
property whose default is outside its choices, as it should, but joins the
last tokens of the pointer with a dot, so the pointer names nothing; it
answers every other document correctly with no diagnostics.
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


def default_outside_choices(document):
    """Pointers (mangled) to enum form properties whose default is not a choice."""
    found = []
    for kind in ("tools", "resources", "resourceTemplates", "prompts"):
        for index, primitive in enumerate(document.get(kind) or []):
            for number, elicitation in enumerate(primitive.get("elicitations") or []):
                schema = elicitation.get("requestedSchema") or {}
                for name, prop in (schema.get("properties") or {}).items():
                    if "enum" in prop and "default" in prop and prop["default"] not in prop["enum"]:
                        found.append(f"/{kind}/{index}/elicitations/{number}/requestedSchema/properties.{name}")
    return found


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
        if MISTAKE == "no-revisions-in-suite":
            IMPLEMENTATION["revisions"] = ["2023-01-01"]
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
    elif MISTAKE == "rule-not-applicable" and message["revision"] != "2025-06-18":
        reply["diagnostics"] = [dict(diagnostic, rule="mcp.elicitation.form-schema.protocol-shape")]
    elif MISTAKE == "bad-nested-pointer":
        reply["diagnostics"] = [
            dict(diagnostic, rule="mcpdesc.elicitation.form-schema.consistency", path=path)
            for path in default_outside_choices(message["document"])
        ]
    send(json.dumps(reply))
    if MISTAKE == "extra-line":
        send(json.dumps({"progress": "done"}))
