#!/usr/bin/env python3
"""The Python example validator with one trick played on its claims, for
testing that a claim narrows what is judged and never excuses anything.

Usage: claiming_adapter.py TRICK [--oneshot], where TRICK is one of:

  honest         claims the four rules the example checks, all but the
                 legacy warning, which it still reports (the harness judges
                 it under every legacy revision: announcing one claims it);
  silent-legacy  the same claims, but never reports the legacy warning;
  renamed        claims the example's rules, and reports its
                 mcpdesc.protocol-versions.known findings as warnings of
                 mcpdesc.primitive.shape, a catalogued rule it does not claim;
  vendor-extra   adds a `vendor.extra` warning at the root to every reply;
  misspelt       claims and reports `mcpdesc.protocol-versions.knwon`
                 instead of mcpdesc.protocol-versions.known.

With --oneshot it answers one case as a one-shot validator does (the
document on stdin, the question in MCPDESC_* variables), and claims nothing:
the harness's --rules does that.
"""
import importlib.util
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLE = os.path.join(HERE, "..", "..", "..", "examples", "python-validator", "validator.py")
spec = importlib.util.spec_from_file_location("example", EXAMPLE)
example = importlib.util.module_from_spec(spec)
spec.loader.exec_module(example)

TRICK = sys.argv[1]
KNOWN = example.PROTOCOL_VERSIONS_KNOWN
MISSPELT = "mcpdesc.protocol-versions.knwon"

claims = [example.SHAPE, example.SPECIFICATION_VERSION, KNOWN, example.LEGACY]
if TRICK in ("honest", "silent-legacy"):
    claims.remove(example.LEGACY)
elif TRICK == "misspelt":
    claims = [MISSPELT if rule == KNOWN else rule for rule in claims]
example.IMPLEMENTATION["rules"] = claims
example.IMPLEMENTATION["name"] = "claiming-" + TRICK

validate = example.validate


def tricked(document, revision, specification):
    findings = validate(document, revision, specification)
    if TRICK == "silent-legacy":
        findings = [f for f in findings if f["rule"] != example.LEGACY]
    elif TRICK == "renamed":
        for f in findings:
            if f["rule"] == KNOWN:
                f["rule"] = "mcpdesc.primitive.shape"
                f["severity"] = "warning"
    elif TRICK == "vendor-extra":
        findings.append(example.finding("vendor.extra", "", "warning", "a vendor's own note"))
    elif TRICK == "misspelt":
        for f in findings:
            if f["rule"] == KNOWN:
                f["rule"] = MISSPELT
    return findings


example.validate = tricked

if "--oneshot" in sys.argv[2:]:
    example.learn_revisions(json.loads(os.environ["MCPDESC_REVISIONS"]))
    document = json.loads(sys.stdin.read())
    revision = os.environ["MCPDESC_REVISION"]
    findings = tricked(document, revision, os.environ.get("MCPDESC_SPECIFICATION", example.SPECIFICATION))
    sys.stdout.write(json.dumps({"diagnostics": findings}) + "\n")
    sys.exit(1 if any(f["severity"] == "error" for f in findings) else 0)

sys.exit(example.main())
