#!/usr/bin/env python3
"""A small MCP Description validator speaking the harness's session mode.

It shows the shape of an adapter, not a complete validator: it checks four
rules, some of them only in part, and declines the oldest MCP revision. Python 3,
standard library only. See README.md beside it, and docs/protocol.md for the
contract.

It reads one JSON object per line on stdin and writes one per line on
stdout; logs go to stderr. Whatever arrives, it does not crash: a line it
cannot use is answered with an `error` reply when it carries a `seq`, and
logged otherwise.
"""

import json
import sys

SPECIFICATION = "0.9.0"

# The MCP revisions a document may name, and which of them are legacy: the
# harness lists them in `start` (from the suite's suites/revisions.yaml), so
# this validator needs no change when the suite adds a revision.
KNOWN_REVISIONS = set()
LEGACY_REVISIONS = set()

# The MCP revisions this validator checks documents for: every known one but
# the oldest, left out on purpose so that the harness reports those cases as
# skipped.
REVISIONS = []

SHAPE = "mcpdesc.document.shape"
SPECIFICATION_VERSION = "mcpdesc.document.specification-version"
PROTOCOL_VERSIONS_KNOWN = "mcpdesc.protocol-versions.known"
LEGACY = "mcpdesc.protocol.legacy-validation-incomplete"

IMPLEMENTATION = {
    "name": "python-example",
    "version": "0.1.0",
    "language": "python",
    "specifications": [SPECIFICATION],
    "revisions": REVISIONS,  # filled in by `start`
    "rules": [SHAPE, SPECIFICATION_VERSION, PROTOCOL_VERSIONS_KNOWN, LEGACY],
}


def pointer(*tokens):
    """An RFC 6901 JSON pointer made of `tokens` (the root when none)."""
    return "".join(
        "/" + str(token).replace("~", "~0").replace("/", "~1") for token in tokens
    )


def finding(rule, path, severity, message):
    return {"rule": rule, "path": path, "severity": severity, "message": message}


def validate(document, revision, specification):
    """The findings for `document` served under `revision`."""
    if not isinstance(document, dict):
        # Nothing else can be checked, but a legacy revision still gets its
        # warning, at the root.
        findings = [finding(SHAPE, "", "error", "the document must be a JSON object")]
        return findings + legacy_warning(document, revision)
    findings = []

    # mcpdesc.document.shape, in part: the three root members must be there.
    # (What they hold is not checked here, except what the rules below need.)
    for member in ("mcpdesc", "info", "protocolVersions"):
        if member not in document:
            findings.append(finding(SHAPE, "", "error", "`%s` is missing" % member))

    # mcpdesc.document.specification-version: the document's edition must be
    # the one asked for.
    edition = document.get("mcpdesc")
    if isinstance(edition, str) and edition != specification:
        findings.append(
            finding(
                SPECIFICATION_VERSION,
                pointer("mcpdesc"),
                "error",
                "this validator checks MCP Description %s, not `%s`" % (specification, edition),
            )
        )

    # mcpdesc.protocol-versions.known: a non-empty list of known revisions,
    # each once.
    versions = document.get("protocolVersions")
    if isinstance(versions, list):
        if not versions:
            findings.append(
                finding(
                    PROTOCOL_VERSIONS_KNOWN,
                    pointer("protocolVersions"),
                    "error",
                    "`protocolVersions` must list at least one revision",
                )
            )
        seen = set()
        for index, entry in enumerate(versions):
            problem = None
            if not isinstance(entry, str):
                problem = "a revision must be a string"
            elif entry not in KNOWN_REVISIONS:
                problem = "`%s` is not a known MCP revision" % entry
            elif entry in seen:
                problem = "`%s` is listed more than once" % entry
            else:
                seen.add(entry)
            if problem:
                findings.append(
                    finding(
                        PROTOCOL_VERSIONS_KNOWN,
                        pointer("protocolVersions", index),
                        "error",
                        problem,
                    )
                )

    return findings + legacy_warning(document, revision)


def legacy_warning(document, revision):
    """mcpdesc.protocol.legacy-validation-incomplete: a legacy revision only
    gets structural checks, and the report says so, at the root
    `protocolVersions` or, without one, at the root."""
    if revision not in LEGACY_REVISIONS:
        return []
    at = ""
    if isinstance(document, dict) and "protocolVersions" in document:
        at = pointer("protocolVersions")
    message = "MCP %s is a legacy revision: only a few structural checks ran" % revision
    return [finding(LEGACY, at, "warning", message)]


def learn_revisions(listed):
    """Takes the suite's revisions from `start`: oldest first, each
    `{"revision": "YYYY-MM-DD", "legacy": true}` (legacy absent when false)."""
    if not isinstance(listed, list) or not listed:
        raise ValueError("`start` lists no MCP revisions; this validator needs the list")
    names = [entry["revision"] for entry in listed]
    KNOWN_REVISIONS.clear()
    KNOWN_REVISIONS.update(names)
    LEGACY_REVISIONS.clear()
    LEGACY_REVISIONS.update(entry["revision"] for entry in listed if entry.get("legacy"))
    REVISIONS[:] = names[1:]


def answer(request):
    """The reply line to one request, or None when it needs none."""
    command = request.get("cmd")
    if command == "start":
        learn_revisions(request.get("revisions"))
        return {"protocol": 1, "implementation": IMPLEMENTATION}
    if command != "validate":
        raise ValueError("unknown command %r" % (command,))
    seq = request["seq"]
    revision = request.get("revision")
    if revision not in REVISIONS:
        return {"seq": seq, "skipped": {"reason": "MCP %s is not supported" % revision}}
    specification = request.get("specification", SPECIFICATION)
    if not isinstance(specification, str):
        specification = SPECIFICATION
    return {"seq": seq, "diagnostics": validate(request.get("document"), revision, specification)}


def write(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def log(text):
    sys.stderr.write("python-example: %s\n" % text)
    sys.stderr.flush()


def main():
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
            reply = answer(request)
        except Exception as error:  # never crash on what the harness sends
            if isinstance(seq, int) and not isinstance(seq, bool):
                write({"seq": seq, "error": {"message": "cannot handle the request: %s" % error}})
            else:
                log("ignoring a line I cannot use: %s" % error)
            continue
        write(reply)
    return 0


if __name__ == "__main__":
    sys.exit(main())
