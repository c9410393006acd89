#!/usr/bin/env python3
"""Mutation testing of the independent validator, judged by the suite alone.

Each mutant is the validator with one small change in its rule code
(`independent-validator/rules.py`); the conformance suite is run against
it, and a mutant the suite still passes is a bug the suite cannot see.
See adequacy/README.md for what the figure means and how to act on it.

    adequacy/mutate.py --list                  # the mutants, one ID a line
    adequacy/mutate.py                         # run them all, 2 at a time
    adequacy/mutate.py --filter 'compare@*' --limit 20

Python 3.9+, standard library only.
"""

import argparse
import ast
import concurrent.futures
import copy
import fnmatch
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPOSITORY = os.path.dirname(HERE)
VALIDATOR_DIR = os.path.join(HERE, "independent-validator")
RULES_FILE = "rules.py"  # the rule code: the only file mutated
SESSION_FILE = "validator.py"  # the stdio session: copied unchanged
DEFAULT_HARNESS = os.path.join(REPOSITORY, "target", "release", "mcpdesc-conformance")
DEFAULT_EQUIVALENT = os.path.join(HERE, "equivalent.txt")
DEFAULT_OUT = os.path.join(REPOSITORY, "target", "independent-mutants")

# The harness's exit statuses that mean something to us; anything else
# (3: the validator could not be run at all, a crash at import) is counted
# as crashed.
PASSED = 0
FAILED = 1

# A case normally takes milliseconds; a mutant that loops is given up on
# quickly by the harness, and a whole run that still hangs by us.
CASE_TIMEOUT = "3"
DEFAULT_MUTANT_TIMEOUT = 300.0

COMPARISON_SWAPS = {
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}
BOOLEAN_SWAPS = {ast.And: ast.Or, ast.Or: ast.And}
LOOP_JUMP_SWAPS = {ast.Continue: ast.Break, ast.Break: ast.Continue}


# --- Enumerating mutants ----------------------------------------------------


class Mutant:
    """One change to the rules module.

    `node_index` is the changed node's position in `ast.walk` order of a
    fresh parse, which is how the change is applied again to a copy of the
    tree; the ID (operator, line, column, description) is what people see
    and what `equivalent.txt` records."""

    def __init__(self, operator, node, node_index, description, apply):
        self.operator = operator
        self.line = node.lineno
        self.column = node.col_offset
        self.node_index = node_index
        self.description = description
        self.apply = apply  # (tree, node, parents) -> None, changes the tree

    @property
    def id(self):
        return "%s@%d:%d:%s" % (self.operator, self.line, self.column, self.description)


def parent_links(tree):
    """For every node, the (parent, field, index) it hangs from; index is
    None for a single child."""
    links = {}
    for parent in ast.walk(tree):
        for field, value in ast.iter_fields(parent):
            if isinstance(value, list):
                for index, child in enumerate(value):
                    if isinstance(child, ast.AST):
                        links[child] = (parent, field, index)
            elif isinstance(value, ast.AST):
                links[value] = (parent, field, None)
    return links


def replace_node(parents, node, replacement):
    parent, field, index = parents[node]
    if index is None:
        setattr(parent, field, replacement)
    else:
        getattr(parent, field)[index] = replacement


def rule_code_nodes(tree):
    """The nodes inside function bodies: the rule code. Module-level
    constants (rule IDs, patterns) are data, not logic."""
    inside = set()
    for function in ast.walk(tree):
        if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for statement in function.body:
                for node in ast.walk(statement):
                    inside.add(node)
    return inside


def is_docstring(statement):
    return (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Constant)
        and isinstance(statement.value.value, str)
    )


def operator_name(op):
    return type(op).__name__


def comparison_mutants(node, index):
    for position, op in enumerate(node.ops):
        swapped = COMPARISON_SWAPS.get(type(op))
        if swapped is None:
            continue

        def apply(tree, target, parents, position=position, swapped=swapped):
            target.ops[position] = swapped()

        description = "%s->%s" % (operator_name(op), swapped.__name__)
        if len(node.ops) > 1:
            description += "#%d" % position
        yield Mutant("compare", node, index, description, apply)


def boolean_mutants(node, index):
    swapped = BOOLEAN_SWAPS[type(node.op)]

    def apply(tree, target, parents):
        target.op = swapped()

    yield Mutant("boolop", node, index, "%s->%s" % (operator_name(node.op), swapped.__name__), apply)


def not_removal_mutants(node, index):
    def apply(tree, target, parents):
        replace_node(parents, target, target.operand)

    yield Mutant("not", node, index, "remove-not", apply)


def condition_mutants(node, index):
    for value in (True, False):

        def apply(tree, target, parents, value=value):
            target.test = ast.Constant(value=value)

        yield Mutant("if", node, index, "condition->%s" % value, apply)


def loop_jump_mutants(node, index):
    swapped = LOOP_JUMP_SWAPS[type(node)]

    def apply(tree, target, parents):
        replace_node(parents, target, swapped())

    yield Mutant("jump", node, index, "%s->%s" % (type(node).__name__, swapped.__name__), apply)


def deletion_mutants(node, index):
    def apply(tree, target, parents):
        replace_node(parents, target, ast.Pass())

    yield Mutant("delete", node, index, "%s->pass" % type(node).__name__, apply)


def integer_mutants(node, index):
    for delta in (1, -1):

        def apply(tree, target, parents, delta=delta):
            target.value = target.value + delta

        yield Mutant("int", node, index, "%d->%d" % (node.value, node.value + delta), apply)


def neutral_values(function):
    """What an early return gives back: the empty value of what the function
    returns (an empty list for a list, both truth values for a predicate,
    None for a procedure or anything else)."""
    returned = [
        node.value
        for node in ast.walk(function)
        if isinstance(node, ast.Return) and node.value is not None
    ]
    if not returned:
        return ["None"]
    if any(isinstance(v, (ast.List, ast.ListComp)) for v in returned):
        return ["[]"]
    if any(isinstance(v, (ast.Set, ast.SetComp)) for v in returned):
        return ["set()"]
    if any(isinstance(v, (ast.Dict, ast.DictComp)) for v in returned):
        return ["{}"]
    predicates = (ast.Compare, ast.BoolOp, ast.UnaryOp)
    if function.name.startswith(("is_", "has_")) or all(
        isinstance(v, predicates)
        or (isinstance(v, ast.Constant) and isinstance(v.value, bool))
        or (isinstance(v, ast.Call) and getattr(v.func, "id", None) == "bool")
        for v in returned
    ):
        return ["False", "True"]
    return ["None"]


def early_return_mutants(node, index):
    for value in neutral_values(node):

        def apply(tree, target, parents, value=value):
            target.body = [ast.parse("return %s" % value).body[0]]

        yield Mutant("return", node, index, "%s->%s" % (node.name, value), apply)


def mutants_of_node(node, index, inside):
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        yield from early_return_mutants(node, index)
    if node not in inside:
        return
    if isinstance(node, ast.Compare):
        yield from comparison_mutants(node, index)
    elif isinstance(node, ast.BoolOp):
        yield from boolean_mutants(node, index)
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        yield from not_removal_mutants(node, index)
    elif isinstance(node, ast.If):
        yield from condition_mutants(node, index)
    elif isinstance(node, (ast.Continue, ast.Break)):
        yield from loop_jump_mutants(node, index)
    elif isinstance(node, ast.Constant) and type(node.value) is int:
        yield from integer_mutants(node, index)
    # Statement deletion: calls (a finding reported, an item appended) and
    # returns, whose removal lets the function run on or return None.
    if isinstance(node, (ast.Expr, ast.Return)) and not is_docstring(node):
        yield from deletion_mutants(node, index)


def enumerate_mutants(source):
    tree = ast.parse(source)
    inside = rule_code_nodes(tree)
    mutants = []
    for index, node in enumerate(ast.walk(tree)):
        mutants.extend(mutants_of_node(node, index, inside))
    mutants.sort(key=lambda m: (m.line, m.column, m.operator, m.description))
    return mutants


def mutated_source(source, mutant):
    tree = ast.parse(source)
    nodes = list(ast.walk(tree))
    parents = parent_links(tree)
    mutant.apply(tree, nodes[mutant.node_index], parents)
    return ast.unparse(ast.fix_missing_locations(tree)) + "\n"


# --- Equivalent mutants -----------------------------------------------------


def read_equivalent(path):
    """`equivalent.txt`: one mutant ID a line, then its reason; `#` starts a
    comment line. An ID without a reason is refused: the reason is the
    point."""
    equivalent = {}
    if not os.path.exists(path):
        return equivalent
    with open(path, encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            mutant_id, _, reason = line.partition(" ")
            if not reason.strip():
                raise SystemExit("%s:%d: `%s` has no reason" % (path, number, mutant_id))
            equivalent[mutant_id] = reason.strip()
    return equivalent


# --- Running the suite ------------------------------------------------------


class Outcome:
    CAUGHT = "caught"
    MISSED = "missed"
    CRASHED = "crashed"
    TIMEOUT = "timeout"


def run_suite(harness, validator_dir, timeout):
    """The harness's verdict on the validator in `validator_dir`: an
    Outcome and the seconds it took."""
    command = [
        harness,
        "run",
        "--validator",
        "python3 %s" % os.path.join(validator_dir, SESSION_FILE),
        "--quiet",
        "--color",
        "never",
        "--jobs",
        "1",
        "--timeout",
        CASE_TIMEOUT,
    ]
    started = time.monotonic()
    try:
        completed = subprocess.run(
            command,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=timeout,
            cwd=REPOSITORY,
        )
    except subprocess.TimeoutExpired:
        return Outcome.TIMEOUT, time.monotonic() - started
    elapsed = time.monotonic() - started
    if completed.returncode == PASSED:
        return Outcome.MISSED, elapsed
    if completed.returncode == FAILED:
        return Outcome.CAUGHT, elapsed
    return Outcome.CRASHED, elapsed


def prepare(workspace, name, rules_source):
    """A validator directory holding the session unchanged beside
    `rules_source`."""
    directory = os.path.join(workspace, name)
    os.mkdir(directory)
    shutil.copy(os.path.join(VALIDATOR_DIR, SESSION_FILE), directory)
    with open(os.path.join(directory, RULES_FILE), "w", encoding="utf-8") as out:
        out.write(rules_source)
    return directory


def run_mutant(harness, workspace, source, mutant, number, timeout):
    directory = prepare(workspace, "m%05d" % number, mutated_source(source, mutant))
    try:
        return run_suite(harness, directory, timeout)
    finally:
        shutil.rmtree(directory, ignore_errors=True)


# --- The command line -------------------------------------------------------


def parse_arguments(argv):
    parser = argparse.ArgumentParser(
        description="Mutate the independent validator's rule code and run the suite against each mutant."
    )
    parser.add_argument("--list", action="store_true", help="print the mutant IDs and exit")
    parser.add_argument(
        "--filter",
        action="append",
        default=[],
        metavar="GLOB",
        help="only mutants whose ID matches (fnmatch; text without wildcards matches anywhere); repeatable",
    )
    parser.add_argument("--limit", type=int, metavar="N", help="only the first N selected mutants")
    parser.add_argument("--jobs", type=int, default=2, metavar="N", help="mutants run at once (default 2)")
    parser.add_argument(
        "--timeout",
        type=float,
        default=DEFAULT_MUTANT_TIMEOUT,
        metavar="SECONDS",
        help="the longest one mutant's whole run may take (default %(default)s)",
    )
    parser.add_argument(
        "--harness",
        default=os.environ.get("MCPDESC_CONFORMANCE", DEFAULT_HARNESS),
        help="the mcpdesc-conformance binary (default: $MCPDESC_CONFORMANCE, else target/release)",
    )
    parser.add_argument("--equivalent", default=DEFAULT_EQUIVALENT, help="the exclusion file")
    parser.add_argument("--out", default=DEFAULT_OUT, help="where the outcome lists are written")
    parser.add_argument(
        "--include-equivalent",
        action="store_true",
        help="run the mutants recorded as equivalent too (to recheck the file)",
    )
    return parser.parse_args(argv)


def matches(mutant_id, patterns):
    if not patterns:
        return True
    for pattern in patterns:
        if any(c in pattern for c in "*?["):
            if fnmatch.fnmatchcase(mutant_id, pattern):
                return True
        elif pattern in mutant_id:
            return True
    return False


def select(mutants, arguments):
    chosen = [m for m in mutants if matches(m.id, arguments.filter)]
    if arguments.limit is not None:
        chosen = chosen[: arguments.limit]
    return chosen


def write_list(out, name, lines):
    with open(os.path.join(out, name), "w", encoding="utf-8") as listing:
        for line in lines:
            listing.write(line + "\n")


def main(argv):
    arguments = parse_arguments(argv)
    with open(os.path.join(VALIDATOR_DIR, RULES_FILE), encoding="utf-8") as rules:
        source = rules.read()
    mutants = enumerate_mutants(source)
    ids = [m.id for m in mutants]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise SystemExit("mutant IDs are not unique: %s" % ", ".join(duplicates))
    chosen = select(mutants, arguments)
    if arguments.list:
        try:
            for mutant in chosen:
                print(mutant.id)
        except BrokenPipeError:  # `--list | head` is fine
            sys.stderr.close()
        return 0
    if not chosen:
        print("no mutant matches the filter", file=sys.stderr)
        return 2

    equivalent = read_equivalent(arguments.equivalent)
    stale = sorted(set(equivalent) - set(ids))
    excluded = [] if arguments.include_equivalent else [m for m in chosen if m.id in equivalent]
    to_run = [m for m in chosen if m not in excluded]
    if not os.access(arguments.harness, os.X_OK):
        print("no harness at %s: build it with cargo build --release -p mcpdesc-conformance" % arguments.harness, file=sys.stderr)
        return 2
    os.makedirs(arguments.out, exist_ok=True)

    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="mcpdesc-mutants-") as workspace:
        # The unchanged rules, printed back from the syntax tree as every
        # mutant is: they must pass, or no verdict below means anything.
        baseline = prepare(workspace, "baseline", ast.unparse(ast.parse(source)) + "\n")
        verdict, _ = run_suite(arguments.harness, baseline, arguments.timeout)
        if verdict != Outcome.MISSED:
            print("the unmutated validator does not pass the suite (%s); fix that first" % verdict, file=sys.stderr)
            return 2
        results = run_all(arguments, workspace, source, to_run)
    elapsed = time.monotonic() - started

    report(arguments, chosen, excluded, results, stale, elapsed)
    missed = [m for m, outcome in results if outcome == Outcome.MISSED]
    timeouts = [m for m, outcome in results if outcome == Outcome.TIMEOUT]
    return 1 if missed or timeouts else 0


def run_all(arguments, workspace, source, to_run):
    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, arguments.jobs)) as pool:
        futures = {
            pool.submit(run_mutant, arguments.harness, workspace, source, mutant, number, arguments.timeout): mutant
            for number, mutant in enumerate(to_run)
        }
        for done, future in enumerate(concurrent.futures.as_completed(futures), 1):
            mutant = futures[future]
            outcome, seconds = future.result()
            results.append((mutant, outcome))
            if outcome in (Outcome.MISSED, Outcome.TIMEOUT):
                print("%-7s %s" % (outcome, mutant.id), flush=True)
            if done % 50 == 0:
                print("... %d of %d mutants run" % (done, len(to_run)), file=sys.stderr, flush=True)
    order = {m.id: i for i, m in enumerate(to_run)}
    results.sort(key=lambda pair: order[pair[0].id])
    return results


def report(arguments, chosen, excluded, results, stale, elapsed):
    def of(outcome):
        return [m.id for m, o in results if o == outcome]

    caught, missed = of(Outcome.CAUGHT), of(Outcome.MISSED)
    crashed, timeouts = of(Outcome.CRASHED), of(Outcome.TIMEOUT)
    for name, ids in (
        ("caught.txt", caught),
        ("missed.txt", missed),
        ("crashed.txt", crashed),
        ("timeout.txt", timeouts),
        ("excluded.txt", [m.id for m in excluded]),
    ):
        write_list(arguments.out, name, ids)

    print()
    print("mutants:    %d selected" % len(chosen))
    print("caught:     %d" % len(caught))
    print("missed:     %d" % len(missed))
    print("crashed:    %d (the harness could not run the mutant; not in the rate)" % len(crashed))
    print("timed out:  %d" % len(timeouts))
    print("excluded:   %d (equivalent; reasons in %s)" % (len(excluded), os.path.relpath(arguments.equivalent, REPOSITORY)))
    viable = len(caught) + len(missed)
    if viable:
        print("kill rate:  %.1f %% (%d of %d caught)" % (100.0 * len(caught) / viable, len(caught), viable))
    print("wall time:  %.0f s with %d jobs" % (elapsed, arguments.jobs))
    print("lists in:   %s" % os.path.relpath(arguments.out, REPOSITORY))
    if missed:
        print()
        print("missed mutants (a fixture should catch each, or record it as equivalent):")
        for mutant_id in missed:
            print("  " + mutant_id)
    if stale:
        print()
        print("stale entries in the exclusion file (they name no mutant of today's rules.py):")
        for mutant_id in stale:
            print("  " + mutant_id)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
