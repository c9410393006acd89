"""The rules of the `document`, `elicitation`, `interaction`, `tags`,
`components`, `transports`, `security`, `capabilities`, `tools`,
`resources`, `prompts` and `examples` suites, and the `serialization`
suite's for JSON text, written from the specification material alone (the
seeds, spec-facts.md and the suite catalogs), never from the Rust reference
validator.

This module is what `adequacy/mutate.py` mutates; the stdio session lives in
`validator.py` beside it, so that a mutant breaks a rule, not the protocol.

Entry point: `validate(document, revision, context)` returns the findings of
one document served under one MCP revision, as a list of
`{"rule", "path", "severity", "message"}` dictionaries;
`validate_json_text(text, revision, context)` does the same for a document
given as JSON text, whose writing is judged first.
"""

import base64
import decimal
import functools
import json
import math
import re
import urllib.parse

# --- Rule IDs -------------------------------------------------------------

DOCUMENT_SHAPE = "mcpdesc.document.shape"
SPECIFICATION_VERSION = "mcpdesc.document.specification-version"
PROTOCOL_VERSIONS_KNOWN = "mcpdesc.protocol-versions.known"
PRIMITIVE_SHAPE = "mcpdesc.primitive.shape"
PRIMITIVE_SCOPE = "mcpdesc.primitive.protocol-scope"
VARIANT_OVERLAP = "mcpdesc.primitive.variant-overlap"
MEMBER_TYPES = "mcpdesc.primitive.members"
MEMBER_REVISION = "mcp.primitive.protocol-version"
LEGACY_INCOMPLETE = "mcpdesc.protocol.legacy-validation-incomplete"
ICON_SHAPE = "mcpdesc.icon.shape"
VALUE_URI = "mcpdesc.value.uri"
META_REVISION = "mcp.meta.protocol-version"
META_KEY = "mcp.meta.key"
META_RESERVED = "mcp.meta.reserved-key"
META_KEY_USE = "mcp.meta.reserved-key-use"

DECLARATIONS = "mcpdesc.elicitation.declarations"
DECLARATION_SHAPE = "mcpdesc.elicitation.shape"
DECLARATION_NAME = "mcpdesc.elicitation.name"
NAME_UNIQUE = "mcpdesc.elicitation.name-unique"
MODE = "mcpdesc.elicitation.mode"
TEXT = "mcpdesc.elicitation.text"
MODE_MEMBERS = "mcpdesc.elicitation.mode-members"
URL = "mcpdesc.elicitation.url"
VOCABULARY = "mcp.elicitation.form-schema.vocabulary"
CONSISTENCY = "mcpdesc.elicitation.form-schema.consistency"
PROTOCOL_SHAPE = "mcp.elicitation.form-schema.protocol-shape"
DECLARATION_SCOPE = "mcpdesc.elicitation.protocol-scope"
PROTOCOL_VERSION = "mcp.elicitation.protocol-version"

INTERACTION_SHAPE = "mcpdesc.interaction.shape"
INTERACTION_NAME = "mcpdesc.interaction.name"
INTERACTION_RESPONSE = "mcpdesc.interaction.response"
INTERACTION_DECLARATION = "mcpdesc.interaction.declaration"
INTERACTION_CLIENT_REQUIREMENTS = "mcpdesc.interaction.client-requirements"
SAMPLING_STEP_RULE = "mcp.interaction.sampling-step"

TAG_CATALOGUE = "mcpdesc.tag.catalogue"
TAG_NAME_UNIQUE = "mcpdesc.tag.name-unique"
TAG_REFERENCE_LIST = "mcpdesc.tag.reference-list"
TAG_DECLARED = "mcpdesc.tag.declared"

COMPONENT_STRUCTURE = "mcpdesc.component.structure"
COMPONENT_NAME = "mcpdesc.component.name"
REFERENCE_SYNTAX = "mcpdesc.reference.syntax"
REFERENCE_NAMESPACE = "mcpdesc.reference.namespace"
REFERENCE_TARGET = "mcpdesc.reference.target"
REFERENCE_CYCLE = "mcpdesc.reference.cycle"

TRANSPORT_SHAPE = "mcpdesc.transport.shape"
TRANSPORT_SCOPE = "mcpdesc.transport.protocol-scope"
TRANSPORT_COVERAGE = "mcpdesc.transport.coverage"
TRANSPORT_REVISION = "mcp.transport.protocol-version"
LEGACY_SSE = "mcp.transport.legacy-sse"

SCHEME_SHAPE = "mcpdesc.security.scheme-shape"
SCHEME_NAME = "mcpdesc.security.scheme-name"
OAUTH_FLOWS = "mcpdesc.security.oauth-flows"
REQUIREMENT_SHAPE = "mcpdesc.security.requirement-shape"
SCHEME_REFERENCE = "mcpdesc.security.scheme-reference"
SCOPE_UNIQUE = "mcpdesc.security.scope-unique"
NON_OAUTH_SCOPES = "mcpdesc.security.non-oauth-scopes"
UNCATALOGUED_SCOPE = "mcpdesc.security.uncatalogued-scope"

CAPABILITIES_SHAPE = "mcpdesc.capabilities.shape"
CAPABILITIES_SCOPE = "mcpdesc.capabilities.protocol-scope"
CAPABILITIES_OVERLAP = "mcpdesc.capabilities.scope-overlap"
CAPABILITIES_REVISION = "mcp.capabilities.protocol-version"
EXTENSIONS_PRE_STANDARD = "mcp.capabilities.extensions-pre-standard"
LOGGING_DEPRECATED = "mcp.capabilities.logging-deprecated"
EXTENSION_IDENTIFIER = "mcp.extensions.identifier"
RESERVED_IDENTIFIER = "mcpdesc.extensions.reserved-identifier"
CLIENT_REQUIREMENTS_SHAPE = "mcpdesc.client-requirements.shape"
CLIENT_REQUIREMENTS_REVISION = "mcp.client-requirements.protocol-version"
CLIENT_REQUIREMENTS_DEPRECATED = "mcp.client-requirements.deprecated"

# Section 9: a Tool's own members.
INPUT_SCHEMA_ROOT = "mcp.tool.input-schema.root"
OUTPUT_SCHEMA_ROOT = "mcp.tool.output-schema.root"
SCHEMA_DIALECT = "mcp.tool.schema-dialect"
SCHEMA_VALID = "mcp.tool.schema-valid"
SCHEMA_LEGACY_SHAPE = "mcp.tool.schema-legacy-shape"
SCHEMA_EXTERNAL_REF = "mcpdesc.tool.schema-external-ref"
MCP_HEADER = "mcp.tool.mcp-header"
MCP_HEADER_UNIQUE = "mcp.tool.mcp-header.unique"
MCP_HEADER_REVISION = "mcp.tool.mcp-header.protocol-version"
TOOL_ANNOTATIONS = "mcp.tool.annotations"
TOOL_EXECUTION = "mcp.tool.execution"

# Section 10: Resources and Resource Templates; Section 11: Prompts.
RESOURCE_ANNOTATIONS = "mcp.resource.annotations"
RESOURCE_ANNOTATIONS_REVISION = "mcp.resource.annotations.protocol-version"
URI_TEMPLATE = "mcpdesc.resource-template.uri-template"
PROMPT_ARGUMENTS = "mcpdesc.prompt.arguments"

# The `examples` suite: named example maps (Sections 9.3, 10.4, 11.3, 11.4).
EXAMPLE_MAP = "mcpdesc.example.map"
EXAMPLE_NAME = "mcpdesc.example.name"
COMPLETED_RESULT = "mcpdesc.example.completed-result"
RESULT_TYPE_RULE = "mcp.example.result-type"
PROMPT_EXAMPLE_SHAPE = "mcpdesc.prompt-example.shape"
PROMPT_EXAMPLE_ARGUMENTS = "mcpdesc.prompt-example.arguments"
PROMPT_EXAMPLE_RESULT = "mcp.prompt-example.result"
CONTENT_BLOCK = "mcp.content-block"
COMPLETION_EXAMPLE_SHAPE = "mcpdesc.completion-example.shape"
COMPLETION_EXAMPLE_TARGET = "mcpdesc.completion-example.target"
COMPLETION_EXAMPLE_RESULT = "mcp.completion-example.result"
COMPLETION_EXAMPLE_REVISION = "mcp.completion-example.protocol-version"
TOOL_EXAMPLE_SHAPE = "mcpdesc.tool-example.shape"
TOOL_EXAMPLE_RESULT = "mcp.tool-example.result"
TOOL_EXAMPLE_INPUT = "mcpdesc.tool-example.input"
TOOL_EXAMPLE_STRUCTURED = "mcpdesc.tool-example.structured-content"
TOOL_EXAMPLE_INCOMPLETE = "mcpdesc.tool-example.incomplete-validation"
RESOURCE_EXAMPLE_SHAPE = "mcpdesc.resource-example.shape"
RESOURCE_EXAMPLE_RESULT = "mcp.resource-example.result"
RESOURCE_CACHE_FIELDS = "mcp.resource-example.cache-fields"
TEMPLATE_EXPANSION = "mcpdesc.resource-template-example.expansion"
RESOURCE_EXAMPLE_MIME_TYPE = "mcpdesc.resource-example.mime-type"
RESOURCE_EXAMPLE_SIZE = "mcpdesc.resource-example.size"

# Section 15 (serialization). Four of them concern YAML alone: a JSON text
# has one value, string member names, no tags and no aliases.
SYNTAX = "mcpdesc.serialization.syntax"
DOCUMENT_COUNT = "mcpdesc.serialization.document-count"
KEY_TYPE = "mcpdesc.serialization.key-type"
DUPLICATE_KEY = "mcpdesc.serialization.duplicate-key"
NON_FINITE = "mcpdesc.serialization.non-finite-number"
YAML_TAG = "mcpdesc.serialization.tag"
YAML_ALIAS = "mcpdesc.serialization.alias"
LONE_SURROGATE = "mcpdesc.serialization.lone-surrogate"

ALL_RULES = [
    DOCUMENT_SHAPE,
    SPECIFICATION_VERSION,
    PROTOCOL_VERSIONS_KNOWN,
    PRIMITIVE_SHAPE,
    PRIMITIVE_SCOPE,
    VARIANT_OVERLAP,
    MEMBER_TYPES,
    MEMBER_REVISION,
    LEGACY_INCOMPLETE,
    ICON_SHAPE,
    VALUE_URI,
    META_REVISION,
    META_KEY,
    META_RESERVED,
    META_KEY_USE,
    DECLARATIONS,
    DECLARATION_SHAPE,
    DECLARATION_NAME,
    NAME_UNIQUE,
    MODE,
    TEXT,
    MODE_MEMBERS,
    URL,
    VOCABULARY,
    CONSISTENCY,
    PROTOCOL_SHAPE,
    DECLARATION_SCOPE,
    PROTOCOL_VERSION,
    INTERACTION_SHAPE,
    INTERACTION_NAME,
    INTERACTION_RESPONSE,
    INTERACTION_DECLARATION,
    INTERACTION_CLIENT_REQUIREMENTS,
    SAMPLING_STEP_RULE,
    TAG_CATALOGUE,
    TAG_NAME_UNIQUE,
    TAG_REFERENCE_LIST,
    TAG_DECLARED,
    COMPONENT_STRUCTURE,
    COMPONENT_NAME,
    REFERENCE_SYNTAX,
    REFERENCE_NAMESPACE,
    REFERENCE_TARGET,
    REFERENCE_CYCLE,
    TRANSPORT_SHAPE,
    TRANSPORT_SCOPE,
    TRANSPORT_COVERAGE,
    TRANSPORT_REVISION,
    LEGACY_SSE,
    SCHEME_SHAPE,
    SCHEME_NAME,
    OAUTH_FLOWS,
    REQUIREMENT_SHAPE,
    SCHEME_REFERENCE,
    SCOPE_UNIQUE,
    NON_OAUTH_SCOPES,
    UNCATALOGUED_SCOPE,
    CAPABILITIES_SHAPE,
    CAPABILITIES_SCOPE,
    CAPABILITIES_OVERLAP,
    CAPABILITIES_REVISION,
    EXTENSIONS_PRE_STANDARD,
    LOGGING_DEPRECATED,
    EXTENSION_IDENTIFIER,
    RESERVED_IDENTIFIER,
    CLIENT_REQUIREMENTS_SHAPE,
    CLIENT_REQUIREMENTS_REVISION,
    CLIENT_REQUIREMENTS_DEPRECATED,
    INPUT_SCHEMA_ROOT,
    OUTPUT_SCHEMA_ROOT,
    SCHEMA_DIALECT,
    SCHEMA_VALID,
    SCHEMA_LEGACY_SHAPE,
    SCHEMA_EXTERNAL_REF,
    MCP_HEADER,
    MCP_HEADER_UNIQUE,
    MCP_HEADER_REVISION,
    TOOL_ANNOTATIONS,
    TOOL_EXECUTION,
    RESOURCE_ANNOTATIONS,
    RESOURCE_ANNOTATIONS_REVISION,
    URI_TEMPLATE,
    PROMPT_ARGUMENTS,
    EXAMPLE_MAP,
    EXAMPLE_NAME,
    COMPLETED_RESULT,
    RESULT_TYPE_RULE,
    PROMPT_EXAMPLE_SHAPE,
    PROMPT_EXAMPLE_ARGUMENTS,
    PROMPT_EXAMPLE_RESULT,
    CONTENT_BLOCK,
    COMPLETION_EXAMPLE_SHAPE,
    COMPLETION_EXAMPLE_TARGET,
    COMPLETION_EXAMPLE_RESULT,
    COMPLETION_EXAMPLE_REVISION,
    TOOL_EXAMPLE_SHAPE,
    TOOL_EXAMPLE_RESULT,
    TOOL_EXAMPLE_INPUT,
    TOOL_EXAMPLE_STRUCTURED,
    TOOL_EXAMPLE_INCOMPLETE,
    RESOURCE_EXAMPLE_SHAPE,
    RESOURCE_EXAMPLE_RESULT,
    RESOURCE_CACHE_FIELDS,
    TEMPLATE_EXPANSION,
    RESOURCE_EXAMPLE_MIME_TYPE,
    RESOURCE_EXAMPLE_SIZE,
    SYNTAX,
    DOCUMENT_COUNT,
    KEY_TYPE,
    DUPLICATE_KEY,
    NON_FINITE,
    YAML_TAG,
    YAML_ALIAS,
    LONE_SURROGATE,
]

# --- Facts of the format --------------------------------------------------

SPECIFICATION = "0.9.0"

# Elicitation exists from this revision on (forms only), URL mode from the
# next. Revisions are dates, so they order as strings.
FIRST_ELICITATION_REVISION = "2025-06-18"
FIRST_URL_MODE_REVISION = "2025-11-25"
# The one revision with the smaller form vocabulary (seed 004).
NARROW_FORM_REVISION = "2025-06-18"

FORM = "form"
URL_MODE = "url"

EXTENSION_PREFIX = "x-"

# The members of the closed objects of the document's basics, each with the
# JSON type the shape rules require of it; None where the type is checked
# apart (a non-empty string, a list of strings, a closed set of values) or
# belongs to another rule (a primitive collection, the tag catalogue, a
# section the suite does not judge yet, `icons`).
#
# Section 3.2: the root object.
ROOT_MEMBERS = {
    "mcpdesc": str,
    "$schema": str,
    "info": dict,
    "protocolVersions": list,
    "instructions": str,
    "transports": None,
    "securitySchemes": None,
    "security": None,
    "capabilities": None,
    "tools": None,
    "resources": None,
    "resourceTemplates": None,
    "prompts": None,
    "tags": None,
    "components": dict,
}
REQUIRED_ROOT_MEMBERS = ("mcpdesc", "info", "protocolVersions")
# Sections 5.1 to 5.3: the Info, Contact and License Objects.
INFO_MEMBERS = {
    "name": None,
    "version": None,
    "title": str,
    "description": str,
    "id": str,
    "icons": None,
    "websiteUrl": str,
    "contact": dict,
    "license": dict,
}
REQUIRED_INFO_MEMBERS = ("name", "version")
CONTACT_MEMBERS = {"name": str, "url": str, "email": str}
LICENSE_MEMBERS = {"name": str, "url": str}
# Appendix A: the Icon Object.
ICON_MEMBERS = {"src": str, "mimeType": str, "sizes": None, "theme": None}
ICON_THEMES = ("light", "dark")

# Primitive collections and the identity members each item needs, with the
# JSON type each must have.
PRIMITIVE_KINDS = {
    "tools": [("name", str), ("inputSchema", dict)],
    "resources": [("uri", str), ("name", str)],
    "resourceTemplates": [("uriTemplate", str), ("name", str)],
    "prompts": [("name", str)],
}

# The member that names a primitive among the variants of its collection
# (Sections 9.5, 10.5, 11.1): declarations sharing it must not share a
# revision. A Resource's `name` is not its key.
VARIANT_KEYS = {
    "tools": "name",
    "resources": "uri",
    "resourceTemplates": "uriTemplate",
    "prompts": "name",
}

# Section 3.8 closes the four kinds of primitive: each holds only the
# members of its kind's table (Sections 9.1, 10.1.1, 10.2.1, 11.1) and `x-`
# extensions. Only the names are listed: the identity members' types are
# checked above, the other members' are not this rule's (their own rules, or
# part 3 of the coverage).
SHARED_PRIMITIVE_MEMBERS = frozenset(
    {
        "protocolVersions",
        "title",
        "description",
        "icons",
        "tags",
        "elicitations",
        "deprecated",
        "_meta",
        "security",
        "clientRequirements",
    }
)
PRIMITIVE_MEMBERS = {
    "tools": SHARED_PRIMITIVE_MEMBERS
    | {
        "name",
        "inputSchema",
        "outputSchema",
        "annotations",
        "execution",
        "examples",
        "interactionExamples",
    },
    "resources": SHARED_PRIMITIVE_MEMBERS
    | {"uri", "name", "mimeType", "size", "annotations", "examples"},
    "resourceTemplates": SHARED_PRIMITIVE_MEMBERS
    | {"uriTemplate", "name", "mimeType", "annotations", "examples", "completionExamples"},
    "prompts": SHARED_PRIMITIVE_MEMBERS | {"name", "arguments", "examples", "completionExamples"},
}

# Section 12.2: the members of an Elicitation Declaration.
TEXT_MEMBERS = ("message", "when", "onDecline", "onCancel")
DECLARATION_MEMBERS = {
    "name",
    "mode",
    "message",
    "when",
    "requestedSchema",
    "url",
    "onDecline",
    "onCancel",
    "protocolVersions",
}

# Section 6: the transport types, compared exactly (`Stdio` is none). Each
# type's Transport Object is closed (Section 6.6): the members of its table
# (Sections 6.2.1 to 6.2.3), with the JSON type the shape rule requires of
# each, plus `protocolVersions` and `security`, whose values are other
# rules' (the scope rule's, the security rules') and so have no type here.
# `args` and `env` are also judged entry by entry, apart.
STREAMABLE_HTTP = "streamable-http"
STDIO = "stdio"
SSE = "sse"
SHARED_TRANSPORT_MEMBERS = {"type": None, "protocolVersions": None, "security": None}
TRANSPORT_MEMBERS = {
    STREAMABLE_HTTP: dict(SHARED_TRANSPORT_MEMBERS, url=str),
    SSE: dict(SHARED_TRANSPORT_MEMBERS, url=str),
    STDIO: dict(SHARED_TRANSPORT_MEMBERS, command=str, args=list, env=dict),
}
# The member each type cannot do without: where a client connects, or what
# it runs. The tables mark them "Required: Yes".
TRANSPORT_ENDPOINTS = {STREAMABLE_HTTP: "url", SSE: "url", STDIO: "command"}
# Streamable HTTP exists from this revision on (Section 6.2.1), and from the
# same revision SSE is only the legacy remote transport (Section 6.2.3).
FIRST_STREAMABLE_HTTP_REVISION = "2025-03-26"

# Section 9.4: the members of a Tool interaction scenario and of a step
# (both closed, but for extensions), each with the JSON type it must have;
# None where the type is checked apart (`steps` is a non-empty array, `type`
# one of the step kinds). Only an elicitation step may also hold a string
# `declaration`.
SCENARIO_MEMBERS = {"input": dict, "steps": None, "result": dict}
STEP_MEMBERS = {"type": None, "request": dict, "response": dict}
ELICITATION_STEP = "elicitation"
SAMPLING_STEP = "sampling"
ROOTS_STEP = "roots"
STEP_KINDS = (ELICITATION_STEP, SAMPLING_STEP, ROOTS_STEP)
STEP_DECLARATION = "declaration"
# The canonical fields of an elicitation step's request in each mode
# (Section 9.4's table), with their types; a `message` is also non-empty.
# The request holds nothing else: it is MCP's request, not an object of the
# format, so it has no `x-` extensions either.
REQUEST_MEMBERS = {
    FORM: {"mode": str, "message": str, "requestedSchema": dict},
    URL_MODE: {"mode": str, "message": str, "url": str},
}
# An elicitation response: an `action` and, when the user accepted a form,
# an object `content`.
ACCEPT = "accept"
RESPONSE_ACTIONS = (ACCEPT, "decline", "cancel")
RESPONSE_MEMBERS = {"action": None, "content": dict}

# Section 13.1: the members of a Tag Object (closed, but for extensions).
TAG_MEMBERS = {"name", "description"}

NAME_PATTERN = re.compile(r"[A-Za-z0-9._-]+")

# Section 17.1: the namespaces of the Components Object. Schemas go where a
# schema is taken; each primitive kind takes examples of its own namespace.
SCHEMAS = "schemas"
EXAMPLE_NAMESPACES = {
    "tools": "toolExamples",
    "resources": "resourceExamples",
    "resourceTemplates": "resourceTemplateExamples",
    "prompts": "promptExamples",
}
COMPONENT_NAMESPACES = {SCHEMAS} | set(EXAMPLE_NAMESPACES.values())
# Section 17.2: a Reference Object, `{"$componentRef": "#/components/<ns>/<name>"}`.
REFERENCE_KEY = "$componentRef"
REFERENCE_PREFIX = "#/components/"
# A Tool's members that take a schema, and so a Reference Object.
TOOL_SCHEMA_MEMBERS = ("inputSchema", "outputSchema")

STRING_FORMATS = {"email", "uri", "date", "date-time"}
SCHEMA_ROOT_KEYWORDS = {"$schema", "type", "properties", "required"}
# Every primitive form may carry these annotations.
ANNOTATIONS = {"title", "description"}

# Pairs of bounds where the first must not exceed the second.
BOUND_PAIRS = [
    ("minimum", "maximum"),
    ("minLength", "maxLength"),
    ("minItems", "maxItems"),
]


# --- Small helpers --------------------------------------------------------


def pointer(*tokens):
    """An RFC 6901 pointer made of `tokens`; `pointer()` is the root."""
    return "".join("/" + str(t).replace("~", "~0").replace("/", "~1") for t in tokens)


def is_number(value):
    # JSON booleans arrive as Python bools, which are ints; they are not numbers.
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def is_string_list(value):
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def json_equal(a, b):
    """Equality of JSON values: `true` is not `1`, but `1` is `1.0`."""
    if is_number(a) and is_number(b):
        return a == b
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    return a == b


def json_in(value, choices):
    return any(json_equal(value, choice) for choice in choices)


class Findings:
    """The findings of one validation; a set of (rule, pointer, severity)."""

    def __init__(self):
        self.items = []

    def error(self, rule, path, message):
        self.items.append(
            {"rule": rule, "path": path, "severity": "error", "message": message}
        )

    def warning(self, rule, path, message):
        self.items.append(
            {"rule": rule, "path": path, "severity": "warning", "message": message}
        )


class Context:
    """What the harness told us in `start`: the known revisions, oldest
    first, and which of them are legacy."""

    def __init__(self, revisions, legacy):
        self.revisions = list(revisions)
        self.legacy = set(legacy)


def in_scope(scope, revision):
    """A scope of None means "every revision" (no usable root scope)."""
    return scope is None or revision in scope


def string_entries(values):
    return {v for v in values if isinstance(v, str)}


def repeats_a_string(values):
    """Whether a string occurs twice in `values`; other entries name no
    revision and so repeat nothing."""
    strings = [v for v in values if isinstance(v, str)]
    return len(set(strings)) != len(strings)


# --- The document ---------------------------------------------------------


def validate(document, revision, context):
    findings = Findings()
    check_legacy_warning(document, revision, context, findings)
    if not isinstance(document, dict):
        findings.error(DOCUMENT_SHAPE, "", "the document must be a JSON object")
        return findings.items
    check_document_shape(document, findings)
    info = document.get("info")
    if isinstance(info, dict):
        check_icons(info, ("info",), findings)
        check_info_uris(info, findings)
    check_specification_version(document, findings)
    check_root_protocol_versions(document, context, findings)
    root_scope = root_scope_of(document, context)
    check_transports(document, revision, root_scope, findings)
    check_capabilities(document, revision, root_scope, findings)
    # Security is unscoped: judged alike under every revision.
    check_security(document, findings)
    check_tag_catalogue(document, findings)
    catalogue = declared_tag_names(document)
    # Components are checked whether or not anything references them.
    check_component_structure(document, findings)
    check_component_names(document, findings)
    check_component_references(document, findings)
    check_reference_cycles(document, findings)
    for kind, members in PRIMITIVE_KINDS.items():
        # The declarations of this collection whose effective scope includes
        # the case's revision, in document order.
        applying = []
        for index, primitive in primitives_of(document, kind, members, findings):
            at = (kind, index)
            check_icons(primitive, at, findings)
            check_primitive_references(document, primitive, at, kind, findings)
            # Tags are not protocol-scoped: every primitive, every revision.
            check_tag_list(primitive, at, findings)
            check_tags_declared(primitive, at, catalogue, findings)
            scope = check_primitive_scope(primitive, at, root_scope, findings)
            if in_scope(scope, revision):
                applying.append((at, primitive))
            check_meta(primitive, at, scope, revision, findings)
            check_declarations(document, primitive, at, scope, revision, findings)
            check_client_requirements(primitive, at, scope, revision, findings)
            # The shared members' types, whatever the revision and the scope.
            check_member_types(kind, primitive, at, findings)
            check_member_revisions(kind, primitive, at, scope, revision, findings)
            if kind == "tools":
                # Tool Annotations and the Execution Object are the same
                # objects under every revision (which revisions define them
                # is the member revision rule's, above).
                check_tool_annotations(primitive, at, findings)
                check_tool_execution(primitive, at, findings)
                check_tool_schemas(document, primitive, at, scope, revision, findings)
                check_interaction_steps(primitive, at, scope, revision, findings)
                # Whatever the Tool's scope and the revision (Section 9.4),
                # but for what a sampling step's revisions define.
                check_interaction_examples(document, primitive, at, scope, revision, findings)
            if kind in RESOURCE_KINDS:
                # Resource Annotations' types under every revision, whatever
                # the scope; their `lastModified` for the revisions of it.
                check_resource_annotations(primitive, at, scope, revision, findings)
            if kind == "resourceTemplates":
                check_uri_template(primitive, at, findings)
            if kind == "prompts":
                check_prompt_arguments(primitive, at, findings)
            # Named examples: the maps and names under every revision; what
            # depends on the revision, for a declaration that applies to it.
            check_example_maps(primitive, at, kind, findings)
            if kind == "tools":
                check_tool_examples(document, primitive, at, scope, revision, findings)
            if kind == "prompts":
                check_prompt_examples(document, primitive, at, scope, revision, findings)
            if kind in RESOURCE_KINDS:
                check_resource_examples(document, primitive, at, kind, scope, revision, findings)
            if kind in COMPLETION_KINDS:
                check_completion_examples(primitive, at, kind, scope, revision, findings)
        check_variant_overlap(VARIANT_KEYS[kind], applying, findings)
    return findings.items


def check_legacy_warning(document, revision, context, findings):
    # A duty of validating under a legacy revision, whatever the document.
    if revision not in context.legacy:
        return
    has_versions = isinstance(document, dict) and "protocolVersions" in document
    findings.warning(
        LEGACY_INCOMPLETE,
        pointer("protocolVersions") if has_versions else "",
        "MCP %s is a legacy revision: validation is incomplete" % revision,
    )


def check_document_shape(document, findings):
    check_required_members(document, (), REQUIRED_ROOT_MEMBERS, findings)
    # The root is closed. What an object `components` holds is the
    # components rules' business, a primitive collection's the primitive
    # rules', the contents of a `protocolVersions` array the known rule's.
    check_closed_object(document, (), ROOT_MEMBERS, DOCUMENT_SHAPE, findings)
    info = document.get("info")
    if isinstance(info, dict):
        check_info(info, findings)


def check_required_members(value, site, required, findings):
    # A missing member is reported at the object that lacks it.
    for member in required:
        if member not in value:
            findings.error(DOCUMENT_SHAPE, pointer(*site), "`%s` is missing" % member)


def check_closed_object(value, site, members, rule, findings):
    """Reports each member of `value` outside the table `members` (but an
    `x-` extension, never inspected) and each member whose type the table
    gives and which has another, at the member."""
    for member, held in value.items():
        if member.startswith(EXTENSION_PREFIX):
            continue
        where = pointer(*site, member)
        if member not in members:
            findings.error(rule, where, "`%s` is not a member of this object" % member)
        elif members[member] is not None and not isinstance(held, members[member]):
            findings.error(rule, where, "`%s` has the wrong type" % member)


def check_info(info, findings):
    # Info is unscoped: its members are checked under every revision.
    check_required_members(info, ("info",), REQUIRED_INFO_MEMBERS, findings)
    check_closed_object(info, ("info",), INFO_MEMBERS, DOCUMENT_SHAPE, findings)
    for member in REQUIRED_INFO_MEMBERS:
        # Non-empty means one character at least; whitespace passes.
        if member in info and (not isinstance(info[member], str) or info[member] == ""):
            findings.error(
                DOCUMENT_SHAPE,
                pointer("info", member),
                "`info.%s` must be a non-empty string" % member,
            )
    contact = info.get("contact")
    if isinstance(contact, dict):
        site = ("info", "contact")
        check_closed_object(contact, site, CONTACT_MEMBERS, DOCUMENT_SHAPE, findings)
    licence = info.get("license")
    if isinstance(licence, dict):
        site = ("info", "license")
        check_required_members(licence, site, ("name",), findings)
        check_closed_object(licence, site, LICENSE_MEMBERS, DOCUMENT_SHAPE, findings)


# --- Icons (Appendix A) and URI values (Section 15.6) -----------------------


def check_icons(owner, site, findings):
    """The `icons` of the Info Object or of a primitive, whatever its scope;
    the URI of each icon's source is checked with it."""
    if "icons" not in owner:
        return
    icons = owner["icons"]
    where = site + ("icons",)
    if not isinstance(icons, list) or not icons:
        findings.error(ICON_SHAPE, pointer(*where), "`icons` must be a non-empty array")
        return
    for index, icon in enumerate(icons):
        at = where + (index,)
        if not isinstance(icon, dict):
            findings.error(ICON_SHAPE, pointer(*at), "an icon must be an object")
            continue
        check_icon(icon, at, findings)
        check_uri(icon, at, "src", findings)


def check_icon(icon, at, findings):
    if "src" not in icon:
        findings.error(ICON_SHAPE, pointer(*at), "the icon has no `src`")
    check_closed_object(icon, at, ICON_MEMBERS, ICON_SHAPE, findings)
    # `mimeType` and the sizes are strings whatever they say; no grammar.
    if "sizes" in icon and not is_string_list(icon["sizes"]):
        findings.error(ICON_SHAPE, pointer(*at, "sizes"), "`sizes` must be an array of strings")
    # Compared case-sensitively; a value of another type is no theme either.
    if "theme" in icon and not json_in(icon["theme"], ICON_THEMES):
        findings.error(ICON_SHAPE, pointer(*at, "theme"), "`theme` must be `light` or `dark`")


def check_info_uris(info, findings):
    check_uri(info, ("info",), "websiteUrl", findings)
    for member in ("contact", "license"):
        held = info.get(member)
        if isinstance(held, dict):
            check_uri(held, ("info", member), "url", findings)


def check_uri(owner, site, member, findings):
    value = owner.get(member)
    # A member of another type is the shape rule's error only.
    if isinstance(value, str) and not is_uri(value):
        findings.error(VALUE_URI, pointer(*site, member), "`%s` is not an RFC 3986 URI" % member)


def check_specification_version(document, findings):
    edition = document.get("mcpdesc")
    # A missing or non-string edition is the shape rule's business alone.
    if isinstance(edition, str) and edition != SPECIFICATION:
        findings.error(
            SPECIFICATION_VERSION,
            pointer("mcpdesc"),
            "this validator targets MCP Description %s, not `%s`" % (SPECIFICATION, edition),
        )


def check_root_protocol_versions(document, context, findings):
    versions = document.get("protocolVersions")
    if not isinstance(versions, list):
        return
    if not versions:
        findings.error(
            PROTOCOL_VERSIONS_KNOWN, pointer("protocolVersions"), "no revision is listed"
        )
    seen = []
    for index, entry in enumerate(versions):
        if not isinstance(entry, str):
            problem = "a revision must be a string"
        elif entry not in context.revisions:
            problem = "`%s` is not a known MCP revision" % entry
        elif entry in seen:
            problem = "`%s` is listed twice" % entry
        else:
            seen.append(entry)
            continue
        findings.error(PROTOCOL_VERSIONS_KNOWN, pointer("protocolVersions", index), problem)


def root_scope_of(document, context):
    """The root scope as a set; without a usable list, every known revision
    (the set is closed, so a nested scope naming another is still outside
    it)."""
    versions = document.get("protocolVersions")
    if not isinstance(versions, list):
        return set(context.revisions)
    return string_entries(versions)


# --- Primitives -----------------------------------------------------------


def primitives_of(document, kind, members, findings):
    """The (index, object) items of one collection, reporting its shape."""
    if kind not in document:
        return []
    collection = document[kind]
    if not isinstance(collection, list) or not collection:
        findings.error(PRIMITIVE_SHAPE, pointer(kind), "`%s` must be a non-empty array" % kind)
        return []
    items = []
    for index, primitive in enumerate(collection):
        if not isinstance(primitive, dict):
            findings.error(PRIMITIVE_SHAPE, pointer(kind, index), "a primitive must be an object")
            continue
        check_identity_members(primitive, (kind, index), members, findings)
        check_primitive_members(primitive, (kind, index), PRIMITIVE_MEMBERS[kind], findings)
        items.append((index, primitive))
    return items


def check_identity_members(primitive, at, members, findings):
    for member, expected in members:
        if member not in primitive:
            findings.error(PRIMITIVE_SHAPE, pointer(*at), "the primitive has no `%s`" % member)
        elif not isinstance(primitive[member], expected):
            findings.error(
                PRIMITIVE_SHAPE, pointer(*at, member), "`%s` has the wrong type" % member
            )


def check_primitive_members(primitive, at, table, findings):
    """A member outside the kind's `table` is reported at the member,
    whatever its value; an `x-` extension (a case-sensitive prefix) is
    never looked at. The other rules read a primitive's members only where
    its kind defines them, so an unknown member is this one finding."""
    for member in primitive:
        if member.startswith(EXTENSION_PREFIX):
            continue
        if member not in table:
            findings.error(
                PRIMITIVE_SHAPE,
                pointer(*at, member),
                "`%s` is not a member of this kind of primitive" % member,
            )


def check_primitive_scope(primitive, at, root_scope, findings):
    """Reports an explicit primitive scope's problems once, and returns the
    primitive's effective scope."""
    if "protocolVersions" not in primitive:
        return root_scope
    declared = primitive["protocolVersions"]
    where = pointer(*at, "protocolVersions")
    if not isinstance(declared, list):
        findings.error(PRIMITIVE_SCOPE, where, "`protocolVersions` must be an array")
        return root_scope
    scope = string_entries(declared)
    if not declared:
        findings.error(PRIMITIVE_SCOPE, where, "an explicit scope must not be empty")
    elif not is_string_list(declared):
        findings.error(PRIMITIVE_SCOPE, where, "every scope entry must be a string")
    elif repeats_a_string(declared):
        findings.error(PRIMITIVE_SCOPE, where, "the scope names a revision twice")
    elif root_scope is not None and not scope <= root_scope:
        findings.error(PRIMITIVE_SCOPE, where, "the scope names revisions the root does not")
    return scope


def check_variant_overlap(key_member, applying, findings):
    """Under the case's revision, among one collection's declarations that
    apply to it: the first with a key is the one the revision reads; every
    later one with the same key (compared as exact strings) is reported, at
    its scope when it has one, else at the declaration, which inherits the
    root's. A key that is not a string is the shape rule's and takes no
    part."""
    keys_seen = set()
    for at, primitive in applying:
        key = primitive.get(key_member)
        if not isinstance(key, str):
            continue
        if key not in keys_seen:
            keys_seen.add(key)
            continue
        site = at + ("protocolVersions",) if "protocolVersions" in primitive else at
        findings.error(
            VARIANT_OVERLAP,
            pointer(*site),
            "an earlier declaration of `%s` already applies to this revision" % key,
        )


# --- The members every primitive shares (Sections 9.1, 10.1.1, 10.2.1, 11.1) -
#
# Their types are the same under every revision and whatever the scope; which
# revisions define them is judged under the case's revision, for a primitive
# whose effective scope includes it.


def is_string(value):
    return isinstance(value, str)


def is_boolean(value):
    return isinstance(value, bool)


def is_object(value):
    return isinstance(value, dict)


# The tables' JSON types: each member of the wrong type is reported at it. A
# member outside its kind's table (`size` on a Resource Template) is the
# shape rule's alone, so each kind lists only its own. `outputSchema` is a
# schema object or a Reference Object, both objects.
SHARED_MEMBER_TYPES = {"title": is_string, "description": is_string, "deprecated": is_boolean}
KIND_MEMBER_TYPES = {
    "tools": dict(SHARED_MEMBER_TYPES, outputSchema=is_object),
    "resources": dict(SHARED_MEMBER_TYPES, mimeType=is_string, size=is_number),
    "resourceTemplates": dict(SHARED_MEMBER_TYPES, mimeType=is_string),
    "prompts": SHARED_MEMBER_TYPES,
}

# The "Since MCP" notes of the tables: the revisions that define each member,
# as (first, last), None for no bound; compared as dates, so a revision after
# the newest behaves as the newest does. `execution` is MCP 2025-11-25's
# alone (2026-07-28 moved tasks to an extension).
FIRST_TITLE_REVISION = "2025-06-18"
FIRST_ICONS_REVISION = "2025-11-25"
TITLE_SPAN = (FIRST_TITLE_REVISION, None)
SHARED_MEMBER_SPANS = {"title": TITLE_SPAN, "icons": (FIRST_ICONS_REVISION, None)}
OUTPUT_SCHEMA_SPAN = ("2025-06-18", None)
KIND_MEMBER_SPANS = {
    "tools": dict(
        SHARED_MEMBER_SPANS,
        outputSchema=OUTPUT_SCHEMA_SPAN,
        annotations=("2025-03-26", None),
        execution=("2025-11-25", "2025-11-25"),
    ),
    "resources": SHARED_MEMBER_SPANS,
    "resourceTemplates": SHARED_MEMBER_SPANS,
    "prompts": SHARED_MEMBER_SPANS,
}


def check_member_types(kind, primitive, at, findings):
    for member, fits in KIND_MEMBER_TYPES[kind].items():
        if member in primitive and not fits(primitive[member]):
            findings.error(MEMBER_TYPES, pointer(*at, member), "`%s` has the wrong type" % member)


def check_member_revisions(kind, primitive, at, scope, revision, findings):
    """Under the case's revision, for a primitive that applies to it: each
    member the revision does not define, at the member, whatever its value
    (even of the wrong type: the type is another rule's finding)."""
    if not in_scope(scope, revision):
        return
    for member, span in KIND_MEMBER_SPANS[kind].items():
        if member in primitive and not defines(span, revision):
            findings.error(
                MEMBER_REVISION,
                pointer(*at, member),
                "MCP %s does not define `%s` on this primitive" % (revision, member),
            )
    if kind == "prompts":
        check_argument_titles(primitive, at, revision, findings)


def check_argument_titles(prompt, at, revision, findings):
    # A Prompt Argument's `title` came with the primitives' (Section 11.2).
    # Arguments that are not a list, or not objects, hold no title to judge.
    arguments = prompt.get("arguments")
    if not isinstance(arguments, list) or defines(TITLE_SPAN, revision):
        return
    for index, argument in enumerate(arguments):
        if isinstance(argument, dict) and "title" in argument:
            findings.error(
                MEMBER_REVISION,
                pointer(*at, "arguments", index, "title"),
                "MCP %s does not define a Prompt Argument `title`" % revision,
            )


# --- Transports (Section 6 of 0.8.0) --------------------------------------
#
# The root `transports`. A transport's shape and scope are the same under
# every revision; which transport types a revision defines is judged under
# the case's revision, for the transports whose scope includes it; and so is
# whether the case's revision is served by any transport at all.


def check_transports(document, revision, root_scope, findings):
    if "transports" not in document:
        # Section 6.5: a document without transports says nothing of how it
        # is reached; no transport is inferred, no revision is uncovered.
        return
    transports = document["transports"]
    if not isinstance(transports, list) or not transports:
        # The list's error alone: coverage is not judged against a list
        # that is not one, so one cause is one finding.
        findings.error(
            TRANSPORT_SHAPE, pointer("transports"), "`transports` must be a non-empty array"
        )
        return
    served = set()
    for index, transport in enumerate(transports):
        at = ("transports", index)
        if not isinstance(transport, dict):
            # Not a transport: it serves nothing; the others are still checked.
            findings.error(TRANSPORT_SHAPE, pointer(*at), "a transport must be an object")
            continue
        kind = check_transport_shape(transport, at, findings)
        scope = check_transport_scope(transport, at, root_scope, findings)
        # A transport with a shape error still serves its scope: its mistake
        # is reported once, above, and does not turn into a coverage gap.
        served |= scope
        if kind in (STREAMABLE_HTTP, SSE):
            # Only where the type's table defines `url` is it a URI member;
            # a stdio transport's `url` is an unknown member, one finding.
            check_uri(transport, at, "url", findings)
        check_transport_revision(kind, at, scope, revision, findings)
    check_transport_coverage(document, revision, served, findings)


def check_transport_shape(transport, at, findings):
    """Reports the transport's shape errors, and returns its type when it
    names one, else None. Without a known type there is no table to judge
    the other members by: the type's finding is the only one."""
    if "type" not in transport:
        findings.error(TRANSPORT_SHAPE, pointer(*at), "the transport has no `type`")
        return None
    kind = transport["type"]
    # A `type` of another JSON type names no transport (and may be a list,
    # which cannot be looked up in a table).
    if not isinstance(kind, str) or kind not in TRANSPORT_MEMBERS:
        findings.error(
            TRANSPORT_SHAPE,
            pointer(*at, "type"),
            "`type` must be `streamable-http`, `stdio` or `sse`",
        )
        return None
    endpoint = TRANSPORT_ENDPOINTS[kind]
    if endpoint not in transport:
        findings.error(
            TRANSPORT_SHAPE, pointer(*at), "a %s transport needs `%s`" % (kind, endpoint)
        )
    # Another type's member (a stdio `url`, a remote `command`) is unknown here.
    check_closed_object(transport, at, TRANSPORT_MEMBERS[kind], TRANSPORT_SHAPE, findings)
    if kind == STDIO:
        check_invocation_entries(transport, at, findings)
    return kind


def check_invocation_entries(transport, at, findings):
    # Each wrong entry is its own finding, so every one is found; empty
    # `args` and `env` pass, the text gives them no length. A list or map
    # of the wrong type was reported as a whole by the closed-object check.
    args = transport.get("args")
    if isinstance(args, list):
        for index, entry in enumerate(args):
            if not isinstance(entry, str):
                findings.error(
                    TRANSPORT_SHAPE, pointer(*at, "args", index), "an argument must be a string"
                )
    env = transport.get("env")
    if isinstance(env, dict):
        for name, value in env.items():
            if not isinstance(value, str):
                findings.error(
                    TRANSPORT_SHAPE,
                    pointer(*at, "env", name),
                    "the value of `%s` must be a string" % name,
                )


def check_transport_scope(transport, at, root_scope, findings):
    """Reports an explicit transport scope's problems once, and returns the
    transport's effective scope. The same rule as a primitive's scope
    (Sections 4.10 and 6.5); the type of the scope is this rule's too,
    since the transport's shape rule does not look at it."""
    if "protocolVersions" not in transport:
        return root_scope
    declared = transport["protocolVersions"]
    where = pointer(*at, "protocolVersions")
    if not isinstance(declared, list):
        # Reported, then treated as absent: the root scope is inherited.
        findings.error(TRANSPORT_SCOPE, where, "`protocolVersions` must be an array")
        return root_scope
    # Used as declared for coverage and the revision rules, even when
    # reported: an empty scope serves nothing, a non-string entry no revision.
    scope = string_entries(declared)
    if not declared:
        findings.error(TRANSPORT_SCOPE, where, "an explicit scope must not be empty")
    elif not is_string_list(declared):
        findings.error(TRANSPORT_SCOPE, where, "every scope entry must be a string")
    elif repeats_a_string(declared):
        findings.error(TRANSPORT_SCOPE, where, "the scope names a revision twice")
    elif not scope <= root_scope:
        # Without a root list the root scope is every known revision, so an
        # unknown entry is still outside it.
        findings.error(TRANSPORT_SCOPE, where, "the scope names revisions the root does not")
    return scope


def check_transport_revision(kind, at, scope, revision, findings):
    # A transport whose scope leaves the case's revision out does not apply
    # to it: narrowing the scope is how a document says so.
    if revision not in scope:
        return
    where = pointer(*at, "type")
    if kind == STREAMABLE_HTTP and revision < FIRST_STREAMABLE_HTTP_REVISION:
        # An error: the revision has no such transport to connect through.
        findings.error(
            TRANSPORT_REVISION, where, "MCP %s defines no Streamable HTTP transport" % revision
        )
    elif kind == SSE and revision >= FIRST_STREAMABLE_HTTP_REVISION:
        # Allowed, and said: SSE is kept only for backward compatibility.
        findings.warning(
            LEGACY_SSE,
            where,
            "from MCP %s on, SSE is the legacy transport; prefer Streamable HTTP"
            % FIRST_STREAMABLE_HTTP_REVISION,
        )


def check_transport_coverage(document, revision, served, findings):
    """Under the case's revision: when the root lists it and no transport
    serves it, the revision is described but unreachable."""
    versions = document.get("protocolVersions")
    if not isinstance(versions, list) or revision in served:
        # Without a root list there is no entry to report at; the list's
        # absence or type is the document shape rule's.
        return
    for index, entry in enumerate(versions):
        # The first entry naming it, when the root repeats it; a root that
        # does not list the revision leaves nothing uncovered.
        if entry == revision:
            findings.error(
                TRANSPORT_COVERAGE,
                pointer("protocolVersions", index),
                "no transport serves MCP %s" % revision,
            )
            return


# --- Capabilities (Section 8 of 0.8.0) -------------------------------------
#
# The root `capabilities`: Capabilities Objects, each declared for the
# revisions of its protocol scope. An object's shape, its scope and its
# `extensions` map are the same under every revision; which members a
# revision defines, and whether two objects claim the same revision, are
# judged under the case's revision, for the objects whose scope includes it.

CAPABILITIES = "capabilities"
EXTENSIONS = "extensions"
TASKS = "tasks"
# Section 8.2 and 8.3: the capabilities of boolean flags, each closed but
# for `x-` extensions (Section 8.4).
CAPABILITY_FLAGS = {
    "tools": {"listChanged": bool},
    "resources": {"subscribe": bool, "listChanged": bool},
    "prompts": {"listChanged": bool},
}
# Objects whose content is not inspected.
OPEN_CAPABILITIES = ("completions", "logging", "experimental")
# Core `tasks` is MCP's payload carried as is: closed at every level, `x-`
# members included (no extension location). Each member is an object; a
# table says which members that object may hold, None that its content is
# not inspected.
TASKS_MEMBERS = {"list": None, "cancel": None, "requests": {"tools": {"call": None}}}
# Members another rule judges: the scope and the extension map.
SCOPE_MEMBER = "protocolVersions"
# The revisions of the members (Section 8.2 and 8.4), compared as dates: a
# revision after the newest behaves as the newest does.
FIRST_COMPLETIONS_REVISION = "2025-03-26"
CORE_TASKS_REVISION = "2025-11-25"
FIRST_FORMAL_EXTENSIONS_REVISION = "2026-07-28"
LOGGING_DEPRECATED_SINCE = "2026-07-28"
# An extension identifier's name (after the prefix and its `/`): non-empty,
# starting and ending with a letter or digit. The prefix's labels are a
# `_meta` key prefix's (PREFIX_LABEL).
EXTENSION_NAME = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?")


def check_capabilities(document, revision, root_scope, findings):
    if CAPABILITIES not in document:
        return
    capabilities = document[CAPABILITIES]
    if not isinstance(capabilities, list) or not capabilities:
        findings.error(
            CAPABILITIES_SHAPE, pointer(CAPABILITIES), "`capabilities` must be a non-empty array"
        )
        return
    # The objects whose effective scope includes the case's revision, in
    # document order.
    applying = []
    for index, capability in enumerate(capabilities):
        at = (CAPABILITIES, index)
        if not isinstance(capability, dict):
            # Not an object: it applies to nothing; the others are checked.
            findings.error(
                CAPABILITIES_SHAPE, pointer(*at), "a Capabilities Object must be an object"
            )
            continue
        check_capability_members(capability, at, findings)
        # Under every revision, whatever the object's scope.
        check_extension_map(capability, at, findings)
        check_reserved_identifiers(capability, at, findings)
        scope = check_capability_scope(capability, at, root_scope, findings)
        if revision in scope:
            check_capability_revision(capability, at, revision, findings)
            applying.append((at, capability))
    check_scope_overlap(applying, findings)


def check_capability_members(capability, at, findings):
    """The Capabilities Object's members but its scope and its extension
    map (other rules'); an `x-` member (a case-sensitive prefix) is never
    looked at."""
    for member, held in capability.items():
        if member.startswith(EXTENSION_PREFIX) or member in (SCOPE_MEMBER, EXTENSIONS):
            continue
        where = at + (member,)
        if member not in CAPABILITY_FLAGS and member not in OPEN_CAPABILITIES and member != TASKS:
            # `sampling`, `roots` and `elicitation` are the client's.
            findings.error(
                CAPABILITIES_SHAPE, pointer(*where), "`%s` is not a server capability" % member
            )
        elif not isinstance(held, dict):
            findings.error(CAPABILITIES_SHAPE, pointer(*where), "`%s` must be an object" % member)
        elif member in CAPABILITY_FLAGS:
            check_closed_object(held, where, CAPABILITY_FLAGS[member], CAPABILITIES_SHAPE, findings)
        elif member == TASKS:
            check_tasks(held, where, TASKS_MEMBERS, findings)


def check_tasks(value, site, table, findings):
    """One level of core `tasks`: every member is in `table` (an `x-` one
    too is unknown) and is an object, which the member's own table closes
    in turn."""
    for member, held in value.items():
        where = site + (member,)
        if member not in table:
            findings.error(
                CAPABILITIES_SHAPE, pointer(*where), "`%s` is not a member of core `tasks`" % member
            )
        elif not isinstance(held, dict):
            findings.error(CAPABILITIES_SHAPE, pointer(*where), "`%s` must be an object" % member)
        elif table[member] is not None:
            check_tasks(held, where, table[member], findings)


def check_capability_scope(capability, at, root_scope, findings):
    """Reports an explicit scope's problems once, and returns the object's
    effective scope. The same rule as a primitive's or a transport's scope;
    the type of the scope is this rule's too."""
    if SCOPE_MEMBER not in capability:
        return root_scope
    declared = capability[SCOPE_MEMBER]
    where = pointer(*at, SCOPE_MEMBER)
    if not isinstance(declared, list):
        # Reported, then treated as absent: the root scope is inherited.
        findings.error(CAPABILITIES_SCOPE, where, "`protocolVersions` must be an array")
        return root_scope
    # Used as declared for overlap and the revision rules, even when
    # reported: an empty scope applies to nothing.
    scope = string_entries(declared)
    if not declared:
        findings.error(CAPABILITIES_SCOPE, where, "an explicit scope must not be empty")
    elif not is_string_list(declared):
        findings.error(CAPABILITIES_SCOPE, where, "every scope entry must be a string")
    elif repeats_a_string(declared):
        findings.error(CAPABILITIES_SCOPE, where, "the scope names a revision twice")
    elif not scope <= root_scope:
        findings.error(CAPABILITIES_SCOPE, where, "the scope names revisions the root does not")
    return scope


def check_capability_revision(capability, at, revision, findings):
    """Under the case's revision, for an object that applies to it: the
    members that revision lacks (errors, whatever their value) and those it
    only tolerates (warnings)."""
    if "completions" in capability and revision < FIRST_COMPLETIONS_REVISION:
        findings.error(
            CAPABILITIES_REVISION,
            pointer(*at, "completions"),
            "MCP %s defines no `completions` capability" % revision,
        )
    if TASKS in capability and revision != CORE_TASKS_REVISION:
        # Under a later revision too: core `tasks` is not the Tasks extension.
        findings.error(
            CAPABILITIES_REVISION,
            pointer(*at, TASKS),
            "core `tasks` is MCP %s's only, not %s's" % (CORE_TASKS_REVISION, revision),
        )
    if EXTENSIONS in capability and revision < FIRST_FORMAL_EXTENSIONS_REVISION:
        findings.warning(
            EXTENSIONS_PRE_STANDARD,
            pointer(*at, EXTENSIONS),
            "MCP %s's core schema has no `extensions`: a pre-standard convention is kept"
            % revision,
        )
    if "logging" in capability and revision >= LOGGING_DEPRECATED_SINCE:
        findings.warning(
            LOGGING_DEPRECATED,
            pointer(*at, "logging"),
            "MCP %s deprecates the `logging` capability" % revision,
        )


def check_scope_overlap(applying, findings):
    # The first object that applies is the one the revision reads; every
    # later one breaks "at most one".
    for at, capability in applying[1:]:
        site = at + (SCOPE_MEMBER,) if SCOPE_MEMBER in capability else at
        findings.error(
            CAPABILITIES_OVERLAP,
            pointer(*site),
            "an earlier Capabilities Object already applies to this revision",
        )


def check_extension_map(owner, at, findings):
    """The `extensions` map of a Capabilities Object or of a
    `clientRequirements`, under every revision."""
    if EXTENSIONS not in owner:
        return
    extensions = owner[EXTENSIONS]
    where = at + (EXTENSIONS,)
    if not isinstance(extensions, dict) or not extensions:
        findings.error(
            EXTENSION_IDENTIFIER, pointer(*where), "`extensions` must be a non-empty object"
        )
        return
    # A protocol namespace, not an extension location: an `x-` key is a key
    # like any other. One finding per key, whatever is wrong with it.
    for key, settings in extensions.items():
        if not is_extension_identifier(key):
            findings.error(
                EXTENSION_IDENTIFIER,
                pointer(*where, key),
                "`%s` is not a `prefix/name` identifier" % key,
            )
        elif not isinstance(settings, dict):
            findings.error(
                EXTENSION_IDENTIFIER,
                pointer(*where, key),
                "the settings of `%s` must be an object" % key,
            )


def is_extension_identifier(key):
    """Whether `key` is `prefix/name`: dot-separated labels, a `/`, and a
    name. Without a `/` the name is empty, which no identifier has; a second
    `/` falls in the name, which holds none."""
    prefix, _, name = key.partition("/")
    return bool(EXTENSION_NAME.fullmatch(name)) and all(
        PREFIX_LABEL.fullmatch(label) for label in prefix.split(".")
    )


# The extension catalogue the suite pins (Section 8.4 asks a validator to
# disclose its source, effective date and maturities): an identifier under
# a prefix MCP reserves that it lists as official draws nothing; any other
# draws a warning, which names an experimental one's maturity.
EXTENSION_CATALOGUE_SOURCE = "https://modelcontextprotocol.io/extensions/overview"
EXTENSION_CATALOGUE_DATE = "2026-09-04"
OFFICIAL = "official"
EXPERIMENTAL_MATURITY = "experimental"
EXTENSION_CATALOGUE = {
    "io.modelcontextprotocol/enterprise-managed-authorization": OFFICIAL,
    "io.modelcontextprotocol/oauth-client-credentials": OFFICIAL,
    "io.modelcontextprotocol/tasks": OFFICIAL,
    "io.modelcontextprotocol/ui": OFFICIAL,
}
MATURITY_NOTES = {
    EXPERIMENTAL_MATURITY: "is listed as experimental: its maturity needs review",
}
UNLISTED_NOTE = "is not listed by the extension catalogue of %s (effective %s)" % (
    EXTENSION_CATALOGUE_SOURCE,
    EXTENSION_CATALOGUE_DATE,
)


def check_reserved_identifiers(owner, at, findings):
    """The keys of `owner`'s `extensions` map (a Capabilities Object's or a
    `clientRequirements`') under a prefix whose second label MCP reserves,
    judged under every revision. A malformed key is the identifier rule's
    error alone; the value is not looked at."""
    extensions = owner.get(EXTENSIONS)
    if not isinstance(extensions, dict):
        return
    for key in extensions:
        if not is_extension_identifier(key) or not is_reserved_identifier(key):
            continue
        maturity = EXTENSION_CATALOGUE.get(key)
        if maturity == OFFICIAL:
            continue
        findings.warning(
            RESERVED_IDENTIFIER,
            pointer(*at, EXTENSIONS, key),
            "`%s` is under a prefix MCP reserves and %s"
            % (key, MATURITY_NOTES.get(maturity, UNLISTED_NOTE)),
        )


def is_reserved_identifier(key):
    """Whether a well-formed identifier's prefix has `modelcontextprotocol`
    or `mcp` as its second label, compared as written."""
    labels = key.partition("/")[0].split(".")
    return len(labels) > 1 and labels[1] in MCP_NAMES


# --- Client capability requirements (Section 8.5 of 0.8.0) ------------------
#
# A Tool, Resource, Resource Template or Prompt may name, in
# `clientRequirements`, the client capabilities using it always needs: MCP's
# `ClientCapabilities`, an open type. Its shape, its `extensions` map and
# the reserved identifiers in it are judged under every revision, whatever
# the primitive's scope; which capabilities and settings a revision defines,
# and which it deprecates, under the case's revision for a primitive whose
# effective scope includes it. The requirements take the primitive's scope.

CLIENT_REQUIREMENTS = "clientRequirements"
ROOTS = "roots"
SAMPLING = "sampling"
EXPERIMENTAL = "experimental"
# The members of the table of Section 8.5 below each capability, with what
# each must be: `bool` a boolean, a table an object whose named members are
# judged in turn (an empty table: an object not inspected). A member the
# table does not name is accepted and not inspected; `experimental` is
# judged apart (every entry an object).
CLIENT_SETTINGS = {
    ROOTS: {"listChanged": bool},
    SAMPLING: {"context": {}, "tools": {}},
    "elicitation": {"form": {}, "url": {}},
    TASKS: {
        "list": {},
        "cancel": {},
        "requests": {SAMPLING: {"createMessage": {}}, "elicitation": {"create": {}}},
    },
}
# The revisions that define each capability and setting, as (first, last),
# None for no bound; compared as dates, so a revision after the newest
# behaves as the newest does. A name not listed is defined everywhere (an
# entry of the open type, or a capability every revision has). Core `tasks`
# members are not listed: they live and die with `tasks`.
ALWAYS = (None, None)
CLIENT_CAPABILITY_SPANS = {
    ROOTS: ALWAYS,
    SAMPLING: ALWAYS,
    EXPERIMENTAL: ALWAYS,
    "elicitation": (FIRST_ELICITATION_REVISION, None),
    TASKS: (CORE_TASKS_REVISION, CORE_TASKS_REVISION),
    EXTENSIONS: (FIRST_FORMAL_EXTENSIONS_REVISION, None),
}
FIRST_CLIENT_SETTINGS_REVISION = "2025-11-25"
CLIENT_SETTING_SPANS = {
    SAMPLING: {
        "context": (FIRST_CLIENT_SETTINGS_REVISION, None),
        "tools": (FIRST_CLIENT_SETTINGS_REVISION, None),
    },
    "elicitation": {
        "form": (FIRST_CLIENT_SETTINGS_REVISION, None),
        "url": (FIRST_CLIENT_SETTINGS_REVISION, None),
    },
}
# From this revision on, a required `roots` is an empty marker, deprecated
# like sampling's two settings.
EMPTY_ROOTS_SINCE = "2026-07-28"
CLIENT_DEPRECATIONS_SINCE = "2026-07-28"
DEPRECATED_SAMPLING_SETTINGS = ("context", "tools")


def check_client_requirements(primitive, at, scope, revision, findings):
    if CLIENT_REQUIREMENTS not in primitive:
        return
    requirements = primitive[CLIENT_REQUIREMENTS]
    site = at + (CLIENT_REQUIREMENTS,)
    if not isinstance(requirements, dict) or not requirements:
        # Any member counts, an `x-` one or `protocolVersions` included.
        findings.error(
            CLIENT_REQUIREMENTS_SHAPE,
            pointer(*site),
            "`clientRequirements` must be a non-empty object",
        )
        return
    check_requirement_members(requirements, site, findings)
    # Under every revision, whatever the primitive's scope.
    check_extension_map(requirements, site, findings)
    check_reserved_identifiers(requirements, site, findings)
    if in_scope(scope, revision):
        check_requirement_revision(requirements, site, revision, findings)
        check_requirement_deprecations(requirements, site, revision, findings)


def check_requirement_members(requirements, site, findings):
    """Every capability is an object, and so is every entry of
    `experimental`; the settings the table names have their types. An `x-`
    member is never looked at; `extensions` is the identifier rule's."""
    for member, held in requirements.items():
        if member.startswith(EXTENSION_PREFIX) or member == EXTENSIONS:
            continue
        where = site + (member,)
        if member == SCOPE_MEMBER:
            # Whatever its value: the requirements take the primitive's scope.
            findings.error(
                CLIENT_REQUIREMENTS_SHAPE,
                pointer(*where),
                "`clientRequirements` takes the primitive's scope, not its own",
            )
        elif not isinstance(held, dict):
            # A capability unknown to every revision included.
            findings.error(
                CLIENT_REQUIREMENTS_SHAPE, pointer(*where), "`%s` must be an object" % member
            )
        elif member == EXPERIMENTAL:
            for name, entry in held.items():
                if not isinstance(entry, dict):
                    findings.error(
                        CLIENT_REQUIREMENTS_SHAPE,
                        pointer(*where, name),
                        "the experimental capability `%s` must be an object" % name,
                    )
        elif member in CLIENT_SETTINGS:
            check_requirement_settings(held, where, CLIENT_SETTINGS[member], findings)


def check_requirement_settings(value, site, table, findings):
    """One level below a known capability: the members `table` names have
    their types (reported at the deepest one); the others are open."""
    for member, expected in table.items():
        if member not in value:
            continue
        held = value[member]
        where = site + (member,)
        if expected is bool:
            if not isinstance(held, bool):
                findings.error(
                    CLIENT_REQUIREMENTS_SHAPE, pointer(*where), "`%s` must be a boolean" % member
                )
        elif not isinstance(held, dict):
            findings.error(
                CLIENT_REQUIREMENTS_SHAPE, pointer(*where), "`%s` must be an object" % member
            )
        else:
            check_requirement_settings(held, where, expected, findings)


def defines(span, revision):
    first, last = span
    return (first is None or revision >= first) and (last is None or revision <= last)


def check_requirement_revision(requirements, site, revision, findings):
    """Under the case's revision: each capability it lacks, at the
    capability (not below it), whatever its value; each setting it lacks of
    a capability it has; and, where `roots` is an empty marker, every member
    of a required `roots`."""
    for member, held in requirements.items():
        span = CLIENT_CAPABILITY_SPANS.get(member)
        if span is None:
            continue
        where = site + (member,)
        if not defines(span, revision):
            findings.error(
                CLIENT_REQUIREMENTS_REVISION,
                pointer(*where),
                "MCP %s's client capabilities have no `%s`" % (revision, member),
            )
            continue
        if not isinstance(held, dict):
            continue
        if member == ROOTS and revision >= EMPTY_ROOTS_SINCE:
            for name in held:
                findings.error(
                    CLIENT_REQUIREMENTS_REVISION,
                    pointer(*where, name),
                    "under MCP %s a required `roots` is empty" % revision,
                )
        for name, setting_span in CLIENT_SETTING_SPANS.get(member, {}).items():
            if name in held and not defines(setting_span, revision):
                findings.error(
                    CLIENT_REQUIREMENTS_REVISION,
                    pointer(*where, name),
                    "MCP %s's `%s` capability has no `%s`" % (revision, member, name),
                )


def check_requirement_deprecations(requirements, site, revision, findings):
    """Under a revision that deprecates them: a required `roots` and
    sampling's `context` and `tools`, whatever they hold."""
    if revision < CLIENT_DEPRECATIONS_SINCE:
        return
    if ROOTS in requirements:
        findings.warning(
            CLIENT_REQUIREMENTS_DEPRECATED,
            pointer(*site, ROOTS),
            "MCP %s deprecates the `roots` capability" % revision,
        )
    sampling = requirements.get(SAMPLING)
    if not isinstance(sampling, dict):
        return
    for name in DEPRECATED_SAMPLING_SETTINGS:
        if name in sampling:
            findings.warning(
                CLIENT_REQUIREMENTS_DEPRECATED,
                pointer(*site, SAMPLING, name),
                "MCP %s deprecates sampling's `%s` setting" % (revision, name),
            )


# --- Security (Section 7 of 0.8.0) -----------------------------------------
#
# The root `securitySchemes` names the ways a client may authenticate; every
# `security` (at the root, on a transport, on a primitive) lists
# alternatives, each naming schemes with the scopes it needs. Nothing here
# depends on the revision or on a protocol scope: a scheme or a requirement
# is the same object under every revision.

SECURITY_SCHEMES = "securitySchemes"
SECURITY = "security"

# Section 7.2: the scheme types, compared exactly (`HTTP` is none), and the
# table of each type's Security Scheme Object, closed but for extensions
# (the published 0.8.0 schema's four shapes). None where the type is judged
# apart (`in` is one of three values) or by another rule (`flows` is the
# OAuth flows rule's).
HTTP_SCHEME = "http"
API_KEY_SCHEME = "apiKey"
OAUTH2_SCHEME = "oauth2"
OPENID_SCHEME = "openIdConnect"
SHARED_SCHEME_MEMBERS = {"type": None, "description": str}
SCHEME_MEMBERS = {
    HTTP_SCHEME: dict(SHARED_SCHEME_MEMBERS, scheme=str, bearerFormat=str),
    API_KEY_SCHEME: dict(SHARED_SCHEME_MEMBERS, name=str, **{"in": None}),
    OAUTH2_SCHEME: dict(SHARED_SCHEME_MEMBERS, flows=None),
    OPENID_SCHEME: dict(SHARED_SCHEME_MEMBERS, openIdConnectUrl=str),
}
# The members a type cannot do without (the "For `http`" and similar cells).
REQUIRED_SCHEME_MEMBERS = {
    HTTP_SCHEME: ("scheme",),
    API_KEY_SCHEME: ("name", "in"),
    OAUTH2_SCHEME: ("flows",),
    OPENID_SCHEME: ("openIdConnectUrl",),
}
API_KEY_PLACES = ("header", "query", "cookie")
# The four OAuth flows, each with the URLs it requires. Every flow may hold
# all three URLs and `scopes`, and nothing else but extensions.
FLOW_REQUIRED_URLS = {
    "implicit": ("authorizationUrl",),
    "password": ("tokenUrl",),
    "clientCredentials": ("tokenUrl",),
    "authorizationCode": ("authorizationUrl", "tokenUrl"),
}
FLOW_URLS = ("authorizationUrl", "tokenUrl", "refreshUrl")
FLOW_MEMBERS = {"authorizationUrl": str, "tokenUrl": str, "refreshUrl": str, "scopes": dict}
# Scopes are OAuth2's and OpenID Connect's; these two types take none.
SCOPELESS_SCHEMES = (HTTP_SCHEME, API_KEY_SCHEME)


def check_security(document, findings):
    check_security_schemes(document, findings)
    declared = declared_schemes(document)
    for site, requirement in requirement_sites(document):
        check_requirement_shape(requirement, site, findings)
        for at, name, scopes in requirement_entries(requirement, site):
            check_scheme_reference(name, at, declared, findings)
            check_scope_unique(scopes, at, findings)
            # A name resolves to its entry whatever that entry holds; an
            # undeclared name resolves to nothing, and only its own rule
            # speaks of it.
            scheme = declared.get(name) if declared is not None else None
            check_non_oauth_scopes(scheme, scopes, at, findings)
            check_uncatalogued_scopes(scheme, scopes, at, findings)


def check_security_schemes(document, findings):
    if SECURITY_SCHEMES not in document:
        return  # a document without schemes leaves the member out
    schemes = document[SECURITY_SCHEMES]
    if not isinstance(schemes, dict) or not schemes:
        findings.error(
            SCHEME_SHAPE, pointer(SECURITY_SCHEMES), "`securitySchemes` must be a non-empty object"
        )
        return
    for name, scheme in schemes.items():
        at = (SECURITY_SCHEMES, name)
        # Not an extension location: an `x-` key is a scheme name like any
        # other, judged as a scheme. A badly named scheme is judged too.
        check_scheme_name(name, at, findings)
        if not isinstance(scheme, dict):
            findings.error(SCHEME_SHAPE, pointer(*at), "a security scheme must be an object")
            continue
        kind = check_scheme_shape(scheme, at, findings)
        if kind == OAUTH2_SCHEME:
            check_oauth_flows(scheme, at, findings)
        elif kind == OPENID_SCHEME:
            # Only where the type's table defines it is it a URI member.
            check_uri(scheme, at, "openIdConnectUrl", findings)


def check_scheme_name(name, at, findings):
    # The whole name, ASCII letters and digits only (`clé` does not match).
    if not NAME_PATTERN.fullmatch(name):
        findings.error(SCHEME_NAME, pointer(*at), "the name must match ^[A-Za-z0-9._-]+$")


def check_scheme_shape(scheme, at, findings):
    """Reports the scheme's shape errors, and returns its type when it names
    one, else None. Without a known type there is no table to judge the
    other members by: the type's finding is the only one."""
    if "type" not in scheme:
        findings.error(SCHEME_SHAPE, pointer(*at), "the security scheme has no `type`")
        return None
    kind = scheme["type"]
    # A `type` of another JSON type names no scheme (and may be a list,
    # which cannot be looked up in a table).
    if not isinstance(kind, str) or kind not in SCHEME_MEMBERS:
        findings.error(
            SCHEME_SHAPE,
            pointer(*at, "type"),
            "`type` must be `http`, `apiKey`, `oauth2` or `openIdConnect`",
        )
        return None
    # However many required members are missing, the scheme is one place.
    if any(member not in scheme for member in REQUIRED_SCHEME_MEMBERS[kind]):
        findings.error(
            SCHEME_SHAPE, pointer(*at), "a %s scheme lacks a member its type requires" % kind
        )
    # Another type's member (an API key's `scheme`, `bearerFormat` on
    # OAuth2) is unknown here; so is an extension spelt `X-`.
    check_closed_object(scheme, at, SCHEME_MEMBERS[kind], SCHEME_SHAPE, findings)
    # Compared exactly; a value of another type is no place either.
    if kind == API_KEY_SCHEME and "in" in scheme and not json_in(scheme["in"], API_KEY_PLACES):
        findings.error(
            SCHEME_SHAPE, pointer(*at, "in"), "`in` must be `header`, `query` or `cookie`"
        )
    return kind


def check_oauth_flows(scheme, at, findings):
    if "flows" not in scheme:
        return  # a required member missing: the scheme shape rule's
    flows = scheme["flows"]
    where = at + ("flows",)
    if not isinstance(flows, dict):
        findings.error(OAUTH_FLOWS, pointer(*where), "`flows` must be an object")
        return
    # Extensions do not count: an object with only `x-` members holds no flow.
    if not any(kind in flows for kind in FLOW_REQUIRED_URLS):
        findings.error(OAUTH_FLOWS, pointer(*where), "`flows` holds none of the four OAuth flows")
    for member, flow in flows.items():
        if member.startswith(EXTENSION_PREFIX):
            continue
        site = where + (member,)
        if member not in FLOW_REQUIRED_URLS:
            # `deviceCode` is no flow of the format: one finding, its
            # contents unjudged (there is no table to judge them by).
            findings.error(OAUTH_FLOWS, pointer(*site), "`%s` is not an OAuth flow" % member)
        elif not isinstance(flow, dict):
            findings.error(OAUTH_FLOWS, pointer(*site), "a flow must be an object")
        else:
            check_flow(flow, site, FLOW_REQUIRED_URLS[member], findings)


def check_flow(flow, site, required_urls, findings):
    # However many are missing, the flow is one place: one finding.
    if any(member not in flow for member in required_urls + ("scopes",)):
        findings.error(
            OAUTH_FLOWS, pointer(*site), "the flow lacks `scopes` or a URL its kind requires"
        )
    check_closed_object(flow, site, FLOW_MEMBERS, OAUTH_FLOWS, findings)
    scopes = flow.get("scopes")
    if isinstance(scopes, dict):
        # An empty map is valid: the text requires the map, not entries.
        for name, description in scopes.items():
            if not isinstance(description, str):
                findings.error(
                    OAUTH_FLOWS,
                    pointer(*site, "scopes", name),
                    "the description of scope `%s` must be a string" % name,
                )
    for member in FLOW_URLS:
        check_uri(flow, site, member, findings)


def declared_schemes(document):
    """The root's schemes by name, to resolve requirements against: empty
    without a `securitySchemes` (no name is declared), None when it is not
    an object (nothing checkable is declared; its own error says so)."""
    if SECURITY_SCHEMES not in document:
        return {}
    schemes = document[SECURITY_SCHEMES]
    return schemes if isinstance(schemes, dict) else None


def requirement_sites(document):
    """The (site, value) of every `security` member: the root's, each
    transport's and each primitive's that is an object, whatever its type,
    its kind or its protocol scope; security is not scoped beyond its
    object."""
    sites = []
    if SECURITY in document:
        sites.append(((SECURITY,), document[SECURITY]))
    for collection in ["transports"] + list(PRIMITIVE_KINDS):
        items = document.get(collection)
        if not isinstance(items, list):
            continue
        for index, item in enumerate(items):
            if isinstance(item, dict) and SECURITY in item:
                sites.append(((collection, index, SECURITY), item[SECURITY]))
    return sites


def check_requirement_shape(requirement, site, findings):
    # `[]` clears the requirements and `[{}]` allows anonymous access: both
    # valid. Each wrong entry is its own finding.
    if not isinstance(requirement, list):
        findings.error(REQUIREMENT_SHAPE, pointer(*site), "`security` must be an array")
        return
    for index, alternative in enumerate(requirement):
        at = site + (index,)
        if not isinstance(alternative, dict):
            findings.error(
                REQUIREMENT_SHAPE, pointer(*at), "a security requirement must be an object"
            )
            continue
        for name, scopes in alternative.items():
            if not isinstance(scopes, list):
                findings.error(
                    REQUIREMENT_SHAPE, pointer(*at, name), "the scopes must be an array"
                )
                continue
            for position, scope in enumerate(scopes):
                if not isinstance(scope, str):
                    findings.error(
                        REQUIREMENT_SHAPE,
                        pointer(*at, name, position),
                        "a scope must be a string",
                    )


def requirement_entries(requirement, site):
    """The (site tokens, scheme name, scope list as written) of each name in
    each alternative that is an object; the scope list may be of any type."""
    if not isinstance(requirement, list):
        return []
    entries = []
    for index, alternative in enumerate(requirement):
        if isinstance(alternative, dict):
            for name, scopes in alternative.items():
                entries.append((site + (index, name), name, scopes))
    return entries


def check_scheme_reference(name, at, declared, findings):
    # A `securitySchemes` that is not an object declares nothing checkable:
    # names are not judged against it. Otherwise names match exactly, an
    # `x-` name like any other, whatever the scope list holds.
    if declared is not None and name not in declared:
        findings.error(
            SCHEME_REFERENCE, pointer(*at), "no security scheme is named `%s`" % name
        )


def check_scope_unique(scopes, at, findings):
    # Whether or not the name is declared, whatever the scheme's type; only
    # string scopes take part (another is the shape rule's).
    if not isinstance(scopes, list):
        return
    seen = set()
    for position, scope in enumerate(scopes):
        if not isinstance(scope, str):
            continue
        if scope in seen:
            # Every repeat after the first occurrence.
            findings.error(
                SCOPE_UNIQUE, pointer(*at, position), "`%s` is listed twice" % scope
            )
        seen.add(scope)


def check_non_oauth_scopes(scheme, scopes, at, findings):
    # Only a name resolving to a scheme object of a known scope-less type is
    # judged; once per name, whatever the entries are.
    if not isinstance(scheme, dict) or not json_in(scheme.get("type"), SCOPELESS_SCHEMES):
        return
    if isinstance(scopes, list) and scopes:
        findings.error(
            NON_OAUTH_SCOPES,
            pointer(*at),
            "a %s scheme takes no scopes: give it an empty array" % scheme["type"],
        )


def check_uncatalogued_scopes(scheme, scopes, at, findings):
    """A warning, never an error ("MAY warn", "MUST NOT reject"), for each
    string scope no static catalogue of the scheme lists, repeats included
    at each occurrence. An OpenID Connect scheme's scopes come from its
    discovery document, never retrieved: its catalogue here is empty."""
    if not isinstance(scheme, dict) or not isinstance(scopes, list):
        return
    kind = scheme.get("type")
    if kind == OAUTH2_SCHEME:
        catalogue = scope_catalogue(scheme)
    elif kind == OPENID_SCHEME:
        catalogue = set()
    else:
        return
    for position, scope in enumerate(scopes):
        if isinstance(scope, str) and scope not in catalogue:
            findings.warning(
                UNCATALOGUED_SCOPE,
                pointer(*at, position),
                "no flow of the scheme lists scope `%s`" % scope,
            )


def scope_catalogue(scheme):
    """The union of the scope names of an OAuth2 scheme's flows that are
    objects with a `scopes` object; empty when `flows` is malformed. Only
    the four flows count: `deviceCode` or an extension is no flow."""
    flows = scheme.get("flows")
    if not isinstance(flows, dict):
        return set()
    names = set()
    for kind in FLOW_REQUIRED_URLS:
        flow = flows.get(kind)
        if isinstance(flow, dict) and isinstance(flow.get("scopes"), dict):
            names |= set(flow["scopes"])
    return names


# --- MCP `_meta` (Section 3.5) ----------------------------------------------
#
# MCP's `_meta`, wherever a description holds it: on a Tool, Resource,
# Resource Template or Prompt, on a completed result of a named example (a
# Tool's, Prompt's, Resource's or Resource Template's, or a completion
# example's), and on a content block (of a Tool result, a Prompt message or
# a sampling step's message or result), an embedded resource's contents and
# a Resource example's entry. It is judged under the case's revision, and
# only when the primitive (the example's, the step's) is offered in that
# revision. A completed result is MCP's `Result`, which has carried `_meta`
# since 2024-11-05; every other object gained it with 2025-06-18 and holds
# none before. Before 2025-06-18 a result's `_meta` is an object whose keys
# MCP gives no grammar; from it on, every `_meta` is an object whose keys
# follow MCP's grammar. A key MCP defines under the revision is judged by
# where it stands and what it holds; any other key under a prefix MCP keeps
# for itself draws a warning. In a referenced example every finding is at
# the reference site (the `locate` given says where).

META = "_meta"
# The revision that gave the four primitives, content blocks and Resource
# Contents `_meta`, and `_meta` keys their grammar.
META_SINCE = "2025-06-18"
# From this revision on, MCP reserves a prefix by its second label; before
# it, by any label but the last.
RESERVED_BY_SECOND_LABEL_SINCE = "2025-11-25"
MCP_NAMES = ("modelcontextprotocol", "mcp")
# The key grammar, in ASCII: `[prefix/]name`, a prefix being dot-joined labels.
PREFIX_LABEL = re.compile(r"[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?")
KEY_NAME = re.compile(r"(?:[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)?")

# What holds a `_meta`: a declaration, a completed result, or a content
# object (a block, an embedded resource's contents, a Resource example's
# entry).
META_ON_DECLARATION = "declaration"
META_ON_RESULT = "result"
META_ON_CONTENT = "content"
# Whose MCP's own keys are: a request's or a notification's stand nowhere
# in a description; a result's on a completed result alone.
REQUEST_KEY = "request"
NOTIFICATION_KEY = "notification"
RESULT_KEY = "result"


def is_related_task(value):
    return isinstance(value, dict) and isinstance(value.get("taskId"), str)


def is_implementation(value):
    # Its other members are not judged.
    return (
        isinstance(value, dict)
        and isinstance(value.get("name"), str)
        and isinstance(value.get("version"), str)
    )


MCP_PREFIX = "io.modelcontextprotocol/"
# MCP's own keys: whose each is, the revisions that define it (first, last),
# and for a result's, what its value must be (a request's or a
# notification's is never looked at).
MCP_META_KEYS = {
    "progressToken": (REQUEST_KEY, (META_SINCE, None), None),
    MCP_PREFIX + "related-task": (RESULT_KEY, ("2025-11-25", None), is_related_task),
    MCP_PREFIX + "serverInfo": (RESULT_KEY, ("2026-07-28", None), is_implementation),
    MCP_PREFIX + "protocolVersion": (REQUEST_KEY, ("2026-07-28", None), None),
    MCP_PREFIX + "clientInfo": (REQUEST_KEY, ("2026-07-28", None), None),
    MCP_PREFIX + "clientCapabilities": (REQUEST_KEY, ("2026-07-28", None), None),
    MCP_PREFIX + "logLevel": (REQUEST_KEY, ("2026-07-28", None), None),
    MCP_PREFIX + "subscriptionId": (NOTIFICATION_KEY, ("2026-07-28", None), None),
}


def check_meta(primitive, at, scope, revision, findings):
    """A declaration's `_meta`."""
    locate = lambda *tokens: pointer(*at, *tokens)
    judge_meta(primitive, locate, META_ON_DECLARATION, scope, revision, findings)


def judge_meta(owner, locate, place, scope, revision, findings):
    """The `_meta` of `owner` (an object standing at `locate()`, which is a
    `place`) under the case's revision, for a primitive whose scope is
    `scope`."""
    if not isinstance(owner, dict) or META not in owner or not in_scope(scope, revision):
        return
    where = within(locate, META)
    if revision < META_SINCE and place != META_ON_RESULT:
        # Whatever the value, even `{}`: nothing more is said about it here.
        findings.error(
            META_REVISION, where(), "MCP %s defines no `_meta` on this object" % revision
        )
        return
    meta = owner[META]
    if not isinstance(meta, dict):
        findings.error(META_KEY, where(), "`_meta` must be an object")
        return
    if revision < META_SINCE:
        return  # a result's keys, before MCP gave them a grammar
    # Keys are taken as written (an `x-` key too); values are looked at only
    # for MCP's own keys.
    for key, value in meta.items():
        labels = prefix_labels(key)
        if labels is None:
            findings.error(META_KEY, where(key), "`%s` is not a well-formed `_meta` key" % key)
            continue
        known = MCP_META_KEYS.get(key)
        if known is not None and defines(known[1], revision):
            problem = meta_key_use_problem(key, value, known, place)
            if problem:
                findings.error(META_KEY_USE, where(key), problem)
        elif reserves(labels, revision):
            findings.warning(
                META_RESERVED,
                where(key),
                "`%s` is under a prefix MCP %s reserves, and is not a key it defines" % (key, revision),
            )


def meta_key_use_problem(key, value, known, place):
    """What is wrong with one of MCP's own keys standing on a `place`;
    None when nothing is."""
    whose, _, fits = known
    if whose != RESULT_KEY:
        return "`%s` is a %s's key: a description holds no %s" % (key, whose, whose)
    if place != META_ON_RESULT:
        return "`%s` stands on a completed result only" % key
    return None if fits(value) else "`%s` does not hold what MCP defines for it" % key


def prefix_labels(key):
    """The labels of a `_meta` key's prefix (none for a key without one), or
    None when the key is outside the grammar. The name is what follows the
    last `/`; a second `/` leaves one in the prefix, which no label holds."""
    prefix, slash, name = key.rpartition("/")
    if not KEY_NAME.fullmatch(name):
        return None
    if not slash:
        return []
    labels = prefix.split(".")
    if not all(PREFIX_LABEL.fullmatch(label) for label in labels):
        return None
    return labels


def reserves(labels, revision):
    """Whether MCP `revision` keeps a prefix of these labels for itself;
    labels are compared as written."""
    if revision >= RESERVED_BY_SECOND_LABEL_SINCE:
        return len(labels) > 1 and labels[1] in MCP_NAMES
    return any(label in MCP_NAMES for label in labels[:-1])


# --- Tags (Section 13 of 0.8.0) --------------------------------------------


def check_tag_catalogue(document, findings):
    if "tags" not in document:
        return
    catalogue = document["tags"]
    if not isinstance(catalogue, list) or not catalogue:
        findings.error(TAG_CATALOGUE, pointer("tags"), "`tags` must be a non-empty array")
        return
    names_seen = set()
    for index, entry in enumerate(catalogue):
        site = ("tags", index)
        if not isinstance(entry, dict):
            findings.error(TAG_CATALOGUE, pointer(*site), "a tag must be an object")
            continue
        check_tag_entry(entry, site, findings)
        check_tag_name_unique(entry, site, names_seen, findings)


def check_tag_entry(entry, site, findings):
    if "name" not in entry:
        findings.error(TAG_CATALOGUE, pointer(*site), "the tag has no `name`")
    for member, value in entry.items():
        where = pointer(*site, member)
        if member.startswith(EXTENSION_PREFIX):
            continue
        if member not in TAG_MEMBERS:
            findings.error(TAG_CATALOGUE, where, "`%s` is not a tag member" % member)
        elif member == "name":
            if not isinstance(value, str) or value == "":
                findings.error(TAG_CATALOGUE, where, "`name` must be a non-empty string")
        elif not isinstance(value, str):
            findings.error(TAG_CATALOGUE, where, "`description` must be a string")


def check_tag_name_unique(entry, site, names_seen, findings):
    name = entry.get("name")
    if not isinstance(name, str):
        return
    if name in names_seen:
        findings.error(TAG_NAME_UNIQUE, pointer(*site, "name"), "tag `%s` is declared twice" % name)
    names_seen.add(name)


def declared_tag_names(document):
    """The names a root catalogue declares, or None when there is no
    catalogue to check references against (no `tags`, or not an array)."""
    catalogue = document.get("tags")
    if not isinstance(catalogue, list):
        return None
    return {
        entry["name"]
        for entry in catalogue
        if isinstance(entry, dict) and isinstance(entry.get("name"), str)
    }


def check_tag_list(primitive, at, findings):
    if "tags" not in primitive:
        return
    tags = primitive["tags"]
    if not isinstance(tags, list) or not tags:
        findings.error(TAG_REFERENCE_LIST, pointer(*at, "tags"), "`tags` must be a non-empty array")
        return
    seen = set()
    for index, tag in enumerate(tags):
        where = pointer(*at, "tags", index)
        if not isinstance(tag, str):
            findings.error(TAG_REFERENCE_LIST, where, "a tag reference must be a string")
            continue
        if tag in seen:
            findings.error(TAG_REFERENCE_LIST, where, "`%s` is listed twice" % tag)
        seen.add(tag)


def check_tags_declared(primitive, at, catalogue, findings):
    # Without a catalogue (or with one that is not an array) references are
    # free strings; an empty catalogue declares nothing.
    if catalogue is None:
        return
    tags = primitive.get("tags")
    if not isinstance(tags, list):
        return
    for index, tag in enumerate(tags):
        # A non-string entry is a reference-list error only.
        if isinstance(tag, str) and tag not in catalogue:
            findings.error(
                TAG_DECLARED, pointer(*at, "tags", index), "no catalogue tag is named `%s`" % tag
            )


# --- Components and references (Section 17 of 0.8.0) -----------------------

# What `lookup_component` gives for a component the document does not hold
# (a component may itself be `null`).
ABSENT = object()


def namespaces_of(document):
    """The (namespace, map) pairs of the namespaces present as objects; the
    keys of any other member of `components` are no component names."""
    components = document.get("components")
    if not isinstance(components, dict):
        return []
    return [
        (namespace, held)
        for namespace, held in components.items()
        if namespace in COMPONENT_NAMESPACES and isinstance(held, dict)
    ]


def check_component_structure(document, findings):
    components = document.get("components")
    if not isinstance(components, dict):
        return  # absent, or the document shape rule's error
    if not components:
        findings.error(COMPONENT_STRUCTURE, pointer("components"), "`components` is empty")
    for member, held in components.items():
        where = pointer("components", member)
        if member.startswith(EXTENSION_PREFIX):
            continue
        if member not in COMPONENT_NAMESPACES:
            findings.error(COMPONENT_STRUCTURE, where, "`%s` is not a namespace" % member)
        elif not isinstance(held, dict) or not held:
            findings.error(COMPONENT_STRUCTURE, where, "a namespace must be a non-empty object")
        else:
            for name, component in held.items():
                check_component_entry(member, name, component, findings)


def check_component_entry(namespace, name, component, findings):
    site = ("components", namespace, name)
    if not isinstance(component, dict):
        findings.error(COMPONENT_STRUCTURE, pointer(*site), "a component must be an object")
    elif namespace != SCHEMAS and not is_reference(component) and "protocolVersions" in component:
        # An example takes its scope from each use site. In a schema the
        # keyword is JSON Schema's, not a scope.
        findings.error(
            COMPONENT_STRUCTURE,
            pointer(*site, "protocolVersions"),
            "an example component has no scope of its own",
        )


def check_component_names(document, findings):
    for namespace, held in namespaces_of(document):
        for name in held:
            if not NAME_PATTERN.fullmatch(name):
                findings.error(
                    COMPONENT_NAME,
                    pointer("components", namespace, name),
                    "the name must match ^[A-Za-z0-9._-]+$",
                )


def check_component_references(document, findings):
    # Each component is a place that takes a reference into its own namespace.
    for namespace, held in namespaces_of(document):
        for name, component in held.items():
            site = ("components", namespace, name)
            check_use_site(document, component, site, namespace, findings)


def check_reference_cycles(document, findings):
    for namespace, held in namespaces_of(document):
        for name, component in held.items():
            if leads_back(document, namespace, name, component):
                findings.error(
                    REFERENCE_CYCLE,
                    pointer("components", namespace, name),
                    "the chain of references from here comes back here",
                )


def leads_back(document, namespace, name, component):
    """Whether following references from the component `name` returns to
    it; a chain that breaks, ends at a value or runs into a cycle elsewhere
    does not."""
    reached = {name}
    value = component
    while is_reference(value):
        link = next_link(value, namespace)
        if link == name:
            return True
        if link in reached:
            return False
        # A broken link (None) names no component: the lookup ends the chain.
        reached.add(link)
        value = lookup_component(document, namespace, link)
    return False


def check_primitive_references(document, primitive, at, kind, findings):
    if kind == "tools":
        for member in TOOL_SCHEMA_MEMBERS:
            check_use_site(document, primitive.get(member), at + (member,), SCHEMAS, findings)
    examples = primitive.get("examples")
    if not isinstance(examples, dict):
        return
    for name, example in examples.items():
        check_use_site(
            document, example, at + ("examples", name), EXAMPLE_NAMESPACES[kind], findings
        )


def is_reference(value):
    """At a place that takes one, an object with `$componentRef` is a
    Reference Object (elsewhere the member means nothing)."""
    return isinstance(value, dict) and REFERENCE_KEY in value


def check_use_site(document, value, site, namespace, findings):
    """Checks `value` at `site`, a place taking references into `namespace`,
    when it is a Reference Object: its own link only. The links after it are
    their components' findings, so a chain is reported once, where it
    breaks."""
    if not is_reference(value):
        return
    check_reference_siblings(value, site, findings)
    target = reference_target(value[REFERENCE_KEY])
    where = pointer(*site)
    if target is None:
        findings.error(
            REFERENCE_SYNTAX, where, "`$componentRef` must be #/components/<namespace>/<name>"
        )
        return
    named, name = target
    if named != namespace:
        findings.error(REFERENCE_NAMESPACE, where, "this place takes a `%s` component" % namespace)
    elif lookup_component(document, namespace, name) is ABSENT:
        findings.error(REFERENCE_TARGET, where, "no `%s` component `%s`" % (namespace, name))


def check_reference_siblings(reference, site, findings):
    # Reported, then ignored: the reference is still followed.
    for member in reference:
        if member != REFERENCE_KEY:
            findings.error(
                REFERENCE_SYNTAX,
                pointer(*site, member),
                "a Reference Object holds nothing beside `$componentRef`",
            )


def reference_target(written):
    """The (namespace, name) a `$componentRef` names, or None when it is not
    `#/components/<namespace>/<name>`. Nothing is decoded: a `~`, a `%` or a
    second `/` breaks the name pattern."""
    if not isinstance(written, str) or not written.startswith(REFERENCE_PREFIX):
        return None
    namespace, _, name = written[len(REFERENCE_PREFIX) :].partition("/")
    if namespace not in COMPONENT_NAMESPACES or not NAME_PATTERN.fullmatch(name):
        return None
    return namespace, name


def next_link(reference, namespace):
    """The name of the component a reference leads to within `namespace`,
    or None when its link is broken (malformed, or into another namespace)."""
    target = reference_target(reference[REFERENCE_KEY])
    if target is None or target[0] != namespace:
        return None
    return target[1]


def lookup_component(document, namespace, name):
    """The component `name` of `namespace`, or ABSENT. Resolution is local,
    and a `components` or namespace that is not an object holds nothing."""
    components = document.get("components")
    held = components.get(namespace) if isinstance(components, dict) else None
    if isinstance(held, dict) and name in held:
        return held[name]
    return ABSENT


def resolve(document, value, namespace):
    """What a chain of references from `value` ends at; ABSENT when a link is
    broken or the chain runs round a cycle."""
    reached = set()
    while is_reference(value):
        name = next_link(value, namespace)
        if name in reached:
            return ABSENT
        # A broken link (None) names no component: the lookup gives ABSENT.
        reached.add(name)
        value = lookup_component(document, namespace, name)
    return value


# --- Elicitation declarations ---------------------------------------------


def check_declarations(document, primitive, at, primitive_scope, revision, findings):
    if "elicitations" not in primitive:
        return
    declarations = primitive["elicitations"]
    where = at + ("elicitations",)
    if not isinstance(declarations, list) or not declarations:
        findings.error(DECLARATIONS, pointer(*where), "`elicitations` must be a non-empty array")
        return
    names_seen = set()
    for index, declaration in enumerate(declarations):
        site = where + (index,)
        if not isinstance(declaration, dict):
            findings.error(DECLARATIONS, pointer(*site), "a declaration must be an object")
            continue
        check_name_unique(declaration, site, names_seen, findings)
        check_declaration(document, declaration, site, primitive_scope, revision, findings)


def check_declaration(document, declaration, site, primitive_scope, revision, findings):
    mode = declaration.get("mode")
    check_declaration_shape(declaration, site, mode, findings)
    check_name(declaration, site, findings)
    check_mode(declaration, site, findings)
    check_texts(declaration, site, findings)
    check_mode_members(declaration, site, mode, findings)
    if mode == URL_MODE:
        check_url(declaration, site, findings)
    scope = check_declaration_scope(declaration, site, primitive_scope, findings)
    if mode == FORM:
        # Only a form's `requestedSchema` is a place that takes a reference.
        schema_site = site + ("requestedSchema",)
        check_use_site(document, declaration.get("requestedSchema"), schema_site, SCHEMAS, findings)
        check_form_schema(document, declaration, site, scope, revision, findings)
    check_declaration_revision(site, mode, scope, revision, findings)


def check_declaration_shape(declaration, site, mode, findings):
    for member in ("name", "message"):
        if member not in declaration:
            findings.error(DECLARATION_SHAPE, pointer(*site), "the declaration has no `%s`" % member)
    for member, value in declaration.items():
        where = pointer(*site, member)
        if member.startswith(EXTENSION_PREFIX):
            continue
        if member not in DECLARATION_MEMBERS:
            findings.error(DECLARATION_SHAPE, where, "`%s` is not a declaration member" % member)
        elif member == "name" or member in TEXT_MEMBERS:
            if not isinstance(value, str):
                findings.error(DECLARATION_SHAPE, where, "`%s` must be a string" % member)
        elif member == "url":
            # In form mode a `url` is forbidden outright (mode-members).
            if mode != FORM and not isinstance(value, str):
                findings.error(DECLARATION_SHAPE, where, "`url` must be a string")
        elif member == "requestedSchema":
            # In URL mode the member is forbidden outright (mode-members).
            if mode != URL_MODE and not isinstance(value, dict):
                findings.error(DECLARATION_SHAPE, where, "`requestedSchema` must be an object")
        elif member == "protocolVersions":
            if not is_string_list(value):
                findings.error(DECLARATION_SHAPE, where, "`protocolVersions` must be strings")


def check_name(declaration, site, findings):
    name = declaration.get("name")
    if isinstance(name, str) and not NAME_PATTERN.fullmatch(name):
        findings.error(
            DECLARATION_NAME, pointer(*site, "name"), "the name must match ^[A-Za-z0-9._-]+$"
        )


def check_name_unique(declaration, site, names_seen, findings):
    name = declaration.get("name")
    if not isinstance(name, str):
        return
    if name in names_seen:
        findings.error(NAME_UNIQUE, pointer(*site, "name"), "`%s` is declared twice" % name)
    names_seen.add(name)


def check_mode(declaration, site, findings):
    if "mode" not in declaration:
        findings.error(MODE, pointer(*site), "the declaration has no `mode`")
    elif declaration["mode"] not in (FORM, URL_MODE):
        findings.error(MODE, pointer(*site, "mode"), "`mode` must be `form` or `url`")


def check_texts(declaration, site, findings):
    for member in TEXT_MEMBERS:
        if declaration.get(member) == "":
            findings.error(TEXT, pointer(*site, member), "`%s` must not be empty" % member)


def check_mode_members(declaration, site, mode, findings):
    if mode == FORM:
        if "requestedSchema" not in declaration:
            findings.error(MODE_MEMBERS, pointer(*site), "a form needs `requestedSchema`")
        if "url" in declaration:
            findings.error(MODE_MEMBERS, pointer(*site, "url"), "a form has no `url`")
    elif mode == URL_MODE:
        if "requestedSchema" in declaration:
            findings.error(
                MODE_MEMBERS, pointer(*site, "requestedSchema"), "a URL flow has no schema"
            )


def check_url(declaration, site, findings):
    url = declaration.get("url")
    if isinstance(url, str) and not is_uri(url):
        findings.error(URL, pointer(*site, "url"), "`url` is not an RFC 3986 URI")


def check_declaration_scope(declaration, site, primitive_scope, findings):
    """Reports an explicit declaration scope's problems, and returns the
    declaration's effective scope."""
    declared = declaration.get("protocolVersions")
    if not isinstance(declared, list):
        # Absent, or a shape error: the primitive's scope is inherited.
        return primitive_scope
    scope = string_entries(declared)
    where = pointer(*site, "protocolVersions")
    if not declared:
        findings.error(DECLARATION_SCOPE, where, "an explicit scope must not be empty")
    elif repeats_a_string(declared):
        findings.error(DECLARATION_SCOPE, where, "the scope names a revision twice")
    elif primitive_scope is not None and not scope <= primitive_scope:
        findings.error(
            DECLARATION_SCOPE, where, "the scope names revisions its primitive is not offered in"
        )
    return scope


def check_declaration_revision(site, mode, scope, revision, findings):
    if not in_scope(scope, revision):
        return
    problem = revision_problem(mode, revision)
    if problem:
        findings.error(PROTOCOL_VERSION, pointer(*site), problem)


def revision_problem(mode, revision):
    """Why an elicitation in `mode` cannot exist under `revision`, or None."""
    if revision < FIRST_ELICITATION_REVISION:
        return "MCP %s has no elicitation" % revision
    if mode == URL_MODE and revision < FIRST_URL_MODE_REVISION:
        return "MCP %s has no URL-mode elicitation" % revision
    return None


# --- Tools (Section 9 of 0.8.0) ---------------------------------------------
#
# A Tool's own members: its two schemas, the `x-mcp-header` annotation on its
# input properties, Tool Annotations and the Execution Object. A schema given
# as a Reference Object is resolved first and every finding inside it is
# reported at the reference site (the component is unscoped and may be
# shared); a reference that does not resolve, or ends at a component that is
# no object, is the reference and components rules' alone, and so is a
# schema that is no object the shape or member rule's: the schema rules skip
# it.

INPUT_SCHEMA = "inputSchema"
OUTPUT_SCHEMA = "outputSchema"
# The revisions that define each schema member.
SCHEMA_MEMBER_SPANS = {INPUT_SCHEMA: ALWAYS, OUTPUT_SCHEMA: OUTPUT_SCHEMA_SPAN}
# From this revision on a Tool schema is a JSON Schema with a dialect; before
# it, only the legacy shape is defined (and no `$schema`).
FIRST_DIALECT_REVISION = "2025-11-25"
# From this revision on `outputSchema` may have any root.
ANY_OUTPUT_ROOT_SINCE = "2026-07-28"
# The dialects this validator supports: JSON Schema 2020-12, the default,
# with or without an empty fragment. Supporting others is a validator's
# choice (the dialect rule's decisions); this one makes none.
DEFAULT_DIALECT = "https://json-schema.org/draft/2020-12/schema"
SUPPORTED_DIALECTS = (DEFAULT_DIALECT, DEFAULT_DIALECT + "#")
MCP_HEADER_KEY = "x-mcp-header"
# Header mapping exists from this revision on.
FIRST_MCP_HEADER_REVISION = "2026-07-28"
# The property types a header can carry, as one string.
HEADER_TYPES = ("string", "integer", "boolean")
# RFC 9110's field-name token: one or more tchar.
HEADER_TOKEN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
# Field names compare case-insensitively in ASCII only.
ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
# Section 9.6: Tool Annotations, open but for the types of these members.
TOOL_ANNOTATION_TYPES = {
    "title": is_string,
    "readOnlyHint": is_boolean,
    "destructiveHint": is_boolean,
    "idempotentHint": is_boolean,
    "openWorldHint": is_boolean,
}
# Section 9.7: the Execution Object, closed (no `x-` member either).
TASK_SUPPORT = "taskSupport"
TASK_SUPPORT_VALUES = ("forbidden", "optional", "required")


def check_tool_annotations(tool, at, findings):
    if "annotations" not in tool:
        return
    annotations = tool["annotations"]
    where = at + ("annotations",)
    if not isinstance(annotations, dict):
        findings.error(TOOL_ANNOTATIONS, pointer(*where), "`annotations` must be an object")
        return
    # Any other member (a Resource Annotation name, an `x-` one) passes.
    for member, fits in TOOL_ANNOTATION_TYPES.items():
        if member in annotations and not fits(annotations[member]):
            findings.error(
                TOOL_ANNOTATIONS, pointer(*where, member), "`%s` has the wrong type" % member
            )


def check_tool_execution(tool, at, findings):
    if "execution" not in tool:
        return
    execution = tool["execution"]
    where = at + ("execution",)
    if not isinstance(execution, dict):
        findings.error(TOOL_EXECUTION, pointer(*where), "`execution` must be an object")
        return
    # An empty object is allowed: `taskSupport` defaults to `forbidden`.
    for member, held in execution.items():
        if member != TASK_SUPPORT:
            findings.error(
                TOOL_EXECUTION,
                pointer(*where, member),
                "`%s` is not a member of the Execution Object" % member,
            )
        elif not json_in(held, TASK_SUPPORT_VALUES):
            findings.error(
                TOOL_EXECUTION,
                pointer(*where, member),
                "`taskSupport` must be `forbidden`, `optional` or `required`",
            )


def check_tool_schemas(document, tool, at, scope, revision, findings):
    for member in TOOL_SCHEMA_MEMBERS:
        found = tool_schema(document, tool, at + (member,))
        if found is None:
            continue
        schema, locate = found
        if member == INPUT_SCHEMA:
            # Revision-independent, and whatever the Tool's scope.
            check_object_root(schema, locate, INPUT_SCHEMA_ROOT, findings)
            check_mcp_headers(schema, locate, scope, revision, findings)
        # The rest is the revision's: for a Tool that applies to it, and a
        # member it defines (an `outputSchema` before 2025-06-18 is the
        # member revision rule's one finding).
        if in_scope(scope, revision) and defines(SCHEMA_MEMBER_SPANS[member], revision):
            check_schema_under(member, schema, locate, revision, findings)


def tool_schema(document, tool, site):
    """The schema object at `site` (a Reference Object resolved) and the
    function that places a finding at pointer tokens inside it; None when
    there is no schema object to judge."""
    written = tool.get(site[-1])
    referenced = is_reference(written)
    schema = resolve(document, written, SCHEMAS) if referenced else written
    if not isinstance(schema, dict):
        return None
    if referenced:
        return schema, lambda *tokens: pointer(*site)
    return schema, lambda *tokens: pointer(*site, *tokens)


def check_object_root(schema, locate, rule, findings):
    # "An object" is `type: "object"` itself: an array of types, even one
    # holding "object", or a root admitting only objects otherwise, is not.
    if "type" not in schema:
        findings.error(rule, locate(), "the schema root has no `type`")
    elif schema["type"] != "object":
        findings.error(rule, locate("type"), "the schema root must have `type: \"object\"`")


def check_schema_under(member, schema, locate, revision, findings):
    """A schema under the case's revision, for a Tool that applies to it."""
    if member == OUTPUT_SCHEMA and revision < ANY_OUTPUT_ROOT_SINCE:
        check_object_root(schema, locate, OUTPUT_SCHEMA_ROOT, findings)
    if revision < FIRST_DIALECT_REVISION:
        # No dialect yet: a root `$schema` is undefined whatever it says,
        # and only the legacy shape is judged.
        if "$schema" in schema:
            findings.error(
                SCHEMA_DIALECT, locate("$schema"), "MCP %s defines no `$schema` here" % revision
            )
        check_legacy_shape(schema, locate, findings)
        return
    # A schema in a dialect this validator does not know cannot be judged.
    if is_supported_dialect(schema, locate, findings) and not is_valid_schema(schema):
        findings.error(SCHEMA_VALID, locate(), "the 2020-12 meta-schema rejects this schema")
    check_external_references(schema, locate, findings)


def is_supported_dialect(schema, locate, findings):
    """Whether the root's dialect is one this validator supports, reporting
    it when not. Without `$schema` it is the default, 2020-12; only the
    root's is judged (a `$schema` further in is an embedded resource's)."""
    if "$schema" not in schema:
        return True
    if json_in(schema["$schema"], SUPPORTED_DIALECTS):
        return True
    findings.error(SCHEMA_DIALECT, locate("$schema"), "not a dialect this validator supports")
    return False


def check_legacy_shape(schema, locate, findings):
    """The earlier revisions' shape: the root's `properties` an object of
    objects, its `required` an array of strings. No meta-schema is inferred,
    so nothing else is looked at."""
    if "properties" in schema:
        properties = schema["properties"]
        if not isinstance(properties, dict):
            findings.error(SCHEMA_LEGACY_SHAPE, locate("properties"), "`properties` must be an object")
        else:
            for name, prop in properties.items():
                # A boolean schema is valid 2020-12, but no object.
                if not isinstance(prop, dict):
                    findings.error(
                        SCHEMA_LEGACY_SHAPE,
                        locate("properties", name),
                        "a property schema must be an object",
                    )
    if "required" in schema:
        required = schema["required"]
        if not isinstance(required, list):
            findings.error(SCHEMA_LEGACY_SHAPE, locate("required"), "`required` must be an array")
        else:
            for index, entry in enumerate(required):
                if not isinstance(entry, str):
                    findings.error(
                        SCHEMA_LEGACY_SHAPE,
                        locate("required", index),
                        "a `required` entry must be a string",
                    )


# --- JSON Schema 2020-12: where subschemas are, and what keywords hold ------
#
# Only the keywords' places in the 2020-12 meta-schemas (core, applicator,
# unevaluated, validation, meta-data, format-annotation, content, and the
# deprecated `definitions` and `dependencies` the top meta-schema keeps)
# are encoded. Values under any other keyword (`enum`, `const`, `default`,
# `examples`, an unknown keyword) are data: a `$ref` or an `x-mcp-header`
# there is no keyword.

# Keywords whose value is one schema.
SCHEMA_KEYWORDS = frozenset(
    {
        "items",
        "additionalProperties",
        "not",
        "if",
        "then",
        "else",
        "contains",
        "propertyNames",
        "unevaluatedItems",
        "unevaluatedProperties",
        "contentSchema",
    }
)
# Keywords whose value is an object of schemas.
SCHEMA_MAP_KEYWORDS = frozenset(
    {"properties", "patternProperties", "$defs", "dependentSchemas", "definitions"}
)
# Keywords whose value is a non-empty array of schemas.
SCHEMA_ARRAY_KEYWORDS = frozenset({"allOf", "anyOf", "oneOf", "prefixItems"})
# Each entry of `dependencies` is a schema or an array of property names.
DEPENDENCIES = "dependencies"
SIMPLE_TYPES = frozenset({"array", "boolean", "integer", "null", "number", "object", "string"})
# Core's patterns: an `$id` has no non-empty fragment; an anchor is a name.
ID_PATTERN = re.compile(r"[^#]*#?")
ANCHOR_PATTERN = re.compile(r"[A-Za-z_][-A-Za-z0-9._]*")


def subschemas(schema):
    """Every value at a schema position of `schema`, the root included, as
    (pointer tokens, value) pairs. Walked with a stack rather than by
    recursion: a schema may nest deeper than Python's recursion limit.
    A value at a schema position that is no object is listed (the meta-schema
    check judges it) but has nothing below it."""
    found = []
    stack = [((), schema)]
    while stack:
        tokens, value = stack.pop()
        found.append((tokens, value))
        if not isinstance(value, dict):
            continue
        for keyword, held in value.items():
            if keyword in SCHEMA_KEYWORDS:
                stack.append((tokens + (keyword,), held))
            elif keyword in SCHEMA_MAP_KEYWORDS and isinstance(held, dict):
                stack.extend((tokens + (keyword, name), sub) for name, sub in held.items())
            elif keyword in SCHEMA_ARRAY_KEYWORDS and isinstance(held, list):
                stack.extend((tokens + (keyword, index), sub) for index, sub in enumerate(held))
            elif keyword == DEPENDENCIES and isinstance(held, dict):
                # A list of names is no schema: only an object is walked (a
                # boolean has nothing below it, and is valid wherever it is).
                stack.extend(
                    (tokens + (keyword, name), sub) for name, sub in held.items() if is_object(sub)
                )
    return found


def is_valid_schema(schema):
    """Whether the 2020-12 meta-schema accepts `schema`: every subschema an
    object or a boolean, and every keyword it defines holding a value of its
    kind. Unknown keywords are allowed, and `$ref` is not followed."""
    return all(is_valid_subschema(value) for _, value in subschemas(schema))


def is_valid_subschema(value):
    if isinstance(value, bool):
        return True
    if not isinstance(value, dict):
        return False
    return all(keyword_value_fits(keyword, held) for keyword, held in value.items())


def keyword_value_fits(keyword, held):
    # A keyword with one schema as its value is judged as a subschema, when
    # it is walked; so is each entry of an object or array of schemas.
    fits = KEYWORD_VALUES.get(keyword)
    return fits is None or fits(held)


def is_non_negative_integer(value):
    # JSON Schema's integers are the numbers without a fractional part: 2.0
    # is one.
    return is_number(value) and value >= 0 and (isinstance(value, int) or value.is_integer())


def is_unique_string_list(value):
    return is_string_list(value) and len(set(value)) == len(value)


def is_non_empty_list(value):
    return isinstance(value, list) and len(value) > 0


def is_list(value):
    return isinstance(value, list)


def is_type_value(value):
    if isinstance(value, str):
        return value in SIMPLE_TYPES
    return (
        is_non_empty_list(value)
        and is_unique_string_list(value)
        and all(name in SIMPLE_TYPES for name in value)
    )


def is_positive_number(value):
    return is_number(value) and value > 0


def is_id(value):
    return isinstance(value, str) and bool(ID_PATTERN.fullmatch(value))


def is_anchor(value):
    return isinstance(value, str) and bool(ANCHOR_PATTERN.fullmatch(value))


def is_vocabulary(value):
    return isinstance(value, dict) and all(isinstance(v, bool) for v in value.values())


def is_dependent_required(value):
    return isinstance(value, dict) and all(is_unique_string_list(v) for v in value.values())


def is_dependencies(value):
    # Each entry a schema or an array of unique property names.
    return isinstance(value, dict) and all(
        isinstance(v, (dict, bool)) or is_unique_string_list(v) for v in value.values()
    )


# What the value of each keyword the 2020-12 meta-schemas define must be.
# The entries of an object or array of schemas, and a one-schema keyword's
# value, are judged as subschemas when `subschemas` walks them.
KEYWORD_VALUES = {
    "$id": is_id,
    "$schema": is_string,
    "$ref": is_string,
    "$anchor": is_anchor,
    "$dynamicRef": is_string,
    "$dynamicAnchor": is_anchor,
    "$vocabulary": is_vocabulary,
    "$comment": is_string,
    "type": is_type_value,
    "enum": is_list,
    "multipleOf": is_positive_number,
    "maximum": is_number,
    "exclusiveMaximum": is_number,
    "minimum": is_number,
    "exclusiveMinimum": is_number,
    "maxLength": is_non_negative_integer,
    "minLength": is_non_negative_integer,
    "pattern": is_string,
    "maxItems": is_non_negative_integer,
    "minItems": is_non_negative_integer,
    "uniqueItems": is_boolean,
    "maxContains": is_non_negative_integer,
    "minContains": is_non_negative_integer,
    "maxProperties": is_non_negative_integer,
    "minProperties": is_non_negative_integer,
    "required": is_unique_string_list,
    "dependentRequired": is_dependent_required,
    DEPENDENCIES: is_dependencies,
    "title": is_string,
    "description": is_string,
    "deprecated": is_boolean,
    "readOnly": is_boolean,
    "writeOnly": is_boolean,
    "examples": is_list,
    "format": is_string,
    "contentEncoding": is_string,
    "contentMediaType": is_string,
}
KEYWORD_VALUES.update((keyword, is_object) for keyword in SCHEMA_MAP_KEYWORDS)
KEYWORD_VALUES.update((keyword, is_non_empty_list) for keyword in SCHEMA_ARRAY_KEYWORDS)


def check_external_references(schema, locate, findings):
    """A warning at each `$ref` that leaves the schema: validation past it is
    incomplete, since nothing is fetched."""
    positions = [(tokens, value) for tokens, value in subschemas(schema) if is_object(value)]
    # `$id`s as written: relative ones are not resolved against each other.
    ids = {value["$id"] for _, value in positions if isinstance(value.get("$id"), str)}
    for tokens, value in positions:
        reference = value.get("$ref")
        # A `$ref` of another type refers to nothing (the validity rule's).
        if isinstance(reference, str) and is_external_reference(reference, ids):
            findings.warning(
                SCHEMA_EXTERNAL_REF,
                locate(*tokens, "$ref"),
                "`%s` is not retrieved: this schema's validation is incomplete" % reference,
            )


def is_external_reference(reference, ids):
    # An empty part before `#` (a fragment, `#/$defs/...` or `#anchor`) is a
    # reference into the same schema; so is one naming a schema's own `$id`.
    base = reference.partition("#")[0]
    return base != "" and base not in ids


# --- `x-mcp-header` (Section 9.2) ---------------------------------------------


def check_mcp_headers(schema, locate, scope, revision, findings):
    """Every `x-mcp-header` at a schema position of an `inputSchema`: its
    placement and value (whatever the revision), its uniqueness in the
    schema, and whether the case's revision defines it at all."""
    headers = [
        (tokens, value)
        for tokens, value in subschemas(schema)
        if is_object(value) and MCP_HEADER_KEY in value
    ]
    for tokens, holder in headers:
        if not is_header_property(tokens, holder) or not is_header_name(holder[MCP_HEADER_KEY]):
            findings.error(
                MCP_HEADER,
                locate(*tokens, MCP_HEADER_KEY),
                "`x-mcp-header` needs a field-name token, on a scalar property under `properties`",
            )
    check_unique_headers(headers, locate, findings)
    if in_scope(scope, revision) and revision < FIRST_MCP_HEADER_REVISION:
        for tokens, _ in headers:
            findings.error(
                MCP_HEADER_REVISION,
                locate(*tokens, MCP_HEADER_KEY),
                "MCP %s defines no `x-mcp-header`" % revision,
            )


def is_header_property(tokens, holder):
    """Whether the schema at `tokens` is a property reached from the root
    through `properties` alone (`properties`, a name, `properties`, a name,
    ...), whose `type` is one of the header types as a string. The root is
    no property.

    The tokens are keywords, each followed by a name or an index unless its
    value is one schema; so the tokens at even positions are keywords up to
    the first lone one (`items`, `not`...), which is itself at an even
    position. They are all `properties` exactly on the paths wanted."""
    if not tokens or any(keyword != "properties" for keyword in tokens[::2]):
        return False
    return json_in(holder.get("type"), HEADER_TYPES)


def is_header_name(value):
    return isinstance(value, str) and bool(HEADER_TOKEN.fullmatch(value))


def check_unique_headers(headers, locate, findings):
    # Every string value counts, valid or misplaced; each repeated one is
    # reported, the first too (a tree has no "first").
    names = [
        value[MCP_HEADER_KEY].translate(ASCII_LOWER)
        for _, value in headers
        if isinstance(value[MCP_HEADER_KEY], str)
    ]
    for tokens, value in headers:
        name = value[MCP_HEADER_KEY]
        if isinstance(name, str) and names.count(name.translate(ASCII_LOWER)) > 1:
            findings.error(
                MCP_HEADER_UNIQUE,
                locate(*tokens, MCP_HEADER_KEY),
                "another property of this schema maps to the header `%s`" % name,
            )


# --- Tool interaction examples --------------------------------------------


def check_interaction_steps(tool, at, scope, revision, findings):
    # Steps have no scope of their own: they take the Tool's.
    if not in_scope(scope, revision):
        return
    examples = tool.get("interactionExamples")
    if not isinstance(examples, dict):
        return
    for name, example in examples.items():
        steps = example.get("steps") if isinstance(example, dict) else None
        if not isinstance(steps, list):
            continue
        for index, step in enumerate(steps):
            if not isinstance(step, dict) or step.get("type") != "elicitation":
                continue
            site = at + ("interactionExamples", name, "steps", index)
            if "request" in step:
                request = step["request"]
                site = site + ("request",)
            else:
                request = None
            # A request that is not an object, or has no mode, is form mode.
            mode = request.get("mode", FORM) if isinstance(request, dict) else FORM
            problem = revision_problem(mode, revision)
            if problem:
                findings.error(PROTOCOL_VERSION, pointer(*site), problem)


# --- Tool interaction examples: scenarios and steps (Section 9.4) ----------
#
# Judged under every revision and whatever the Tool's scope: what a revision
# lets an elicitation step carry is `mcp.elicitation.protocol-version`'s
# question (above); the map, the scenarios, the steps and their payloads are
# the same in every revision.


def check_interaction_examples(document, tool, at, scope, revision, findings):
    if "interactionExamples" not in tool:
        return
    examples = tool["interactionExamples"]
    where = at + ("interactionExamples",)
    if not isinstance(examples, dict) or not examples:
        findings.error(
            INTERACTION_SHAPE, pointer(*where), "`interactionExamples` must be a non-empty object"
        )
        return
    for name, scenario in examples.items():
        site = where + (name,)
        # A name outside the pattern is still a scenario, judged as any other.
        if not NAME_PATTERN.fullmatch(name):
            findings.error(
                INTERACTION_NAME, pointer(*site), "the scenario name must match ^[A-Za-z0-9._-]+$"
            )
        if not isinstance(scenario, dict):
            findings.error(INTERACTION_SHAPE, pointer(*site), "a scenario must be an object")
            continue
        check_scenario(document, tool, scenario, site, scope, revision, findings)


def check_scenario(document, tool, scenario, site, scope, revision, findings):
    # However many are missing, the scenario is one place: one finding.
    if any(member not in scenario for member in SCENARIO_MEMBERS):
        findings.error(
            INTERACTION_SHAPE, pointer(*site), "a scenario needs `input`, `steps` and `result`"
        )
    # A `protocolVersions` is unknown here too: a scenario takes its Tool's scope.
    check_closed_object(scenario, site, SCENARIO_MEMBERS, INTERACTION_SHAPE, findings)
    if "steps" not in scenario:
        return
    steps = scenario["steps"]
    if not isinstance(steps, list) or not steps:
        findings.error(
            INTERACTION_SHAPE, pointer(*site, "steps"), "`steps` must be a non-empty array"
        )
        return
    for index, step in enumerate(steps):
        step_site = site + ("steps", index)
        if not isinstance(step, dict):
            findings.error(INTERACTION_SHAPE, pointer(*step_site), "a step must be an object")
            continue
        check_step(document, tool, step, step_site, scope, revision, findings)
        check_step_requirements(tool, step, step_site, findings)


def check_step(document, tool, step, site, scope, revision, findings):
    if any(member not in step for member in STEP_MEMBERS):
        findings.error(
            INTERACTION_SHAPE, pointer(*site), "a step needs `type`, `request` and `response`"
        )
    kind = step.get("type")
    if "type" in step and kind not in STEP_KINDS:
        # Compared exactly: `Elicitation` is no kind. Without a kind, which
        # other members the step may hold is unknown, so none is judged.
        findings.error(
            INTERACTION_SHAPE,
            pointer(*site, "type"),
            "`type` must be `elicitation`, `sampling` or `roots`",
        )
    for member in ("request", "response"):
        if member in step and not isinstance(step[member], dict):
            findings.error(
                INTERACTION_SHAPE, pointer(*site, member), "`%s` must be an object" % member
            )
    if kind not in STEP_KINDS:
        return
    check_step_members(step, site, kind, findings)
    request = step.get("request")
    response = step.get("response")
    if kind == ELICITATION_STEP:
        if isinstance(request, dict):
            check_elicitation_request(request, site + ("request",), findings)
        if isinstance(response, dict):
            check_elicitation_response(request, response, site + ("response",), findings)
        check_response_content(request, response, site + ("response",), findings)
        check_step_declaration(document, tool, step, site, findings)
    elif kind == ROOTS_STEP:
        if isinstance(request, dict):
            check_roots_request(request, site + ("request",), findings)
        if isinstance(response, dict):
            check_roots_response(response, site + ("response",), findings)
    else:
        if isinstance(request, dict):
            check_sampling_request(request, site + ("request",), scope, revision, findings)
        if isinstance(response, dict):
            check_sampling_response(response, site + ("response",), scope, revision, findings)


def check_step_members(step, site, kind, findings):
    """The members of a step of a known kind beyond `type`, `request` and
    `response`: `x-` extensions, and a string `declaration` on an
    elicitation step; anything else is reported at the member."""
    for member, value in step.items():
        if member.startswith(EXTENSION_PREFIX) or member in STEP_MEMBERS:
            continue
        where = pointer(*site, member)
        if member == STEP_DECLARATION and kind == ELICITATION_STEP:
            if not isinstance(value, str):
                findings.error(INTERACTION_SHAPE, where, "`declaration` must be a string")
        else:
            findings.error(
                INTERACTION_SHAPE, where, "`%s` is not a member of a %s step" % (member, kind)
            )


def check_elicitation_request(request, at, findings):
    if "mode" not in request:
        findings.error(INTERACTION_SHAPE, pointer(*at), "the request states no `mode`")
        return
    mode = request["mode"]
    if mode not in (FORM, URL_MODE):
        # Without a known mode, the canonical fields are unknown: none is judged.
        findings.error(INTERACTION_SHAPE, pointer(*at, "mode"), "`mode` must be `form` or `url`")
        return
    members = REQUEST_MEMBERS[mode]
    if any(member not in request for member in members):
        findings.error(
            INTERACTION_SHAPE, pointer(*at), "the request lacks a canonical field of %s mode" % mode
        )
    for member, value in request.items():
        where = pointer(*at, member)
        if member not in members:
            # Runtime state (`elicitationId`, `_meta`) included.
            findings.error(
                INTERACTION_SHAPE, where, "`%s` is not a field of a %s-mode request" % (member, mode)
            )
        elif not isinstance(value, members[member]) or (member == "message" and value == ""):
            findings.error(INTERACTION_SHAPE, where, "`%s` has the wrong type or is empty" % member)
    if mode == URL_MODE:
        check_uri(request, at, "url", findings)


def check_elicitation_response(request, response, at, findings):
    if "action" not in response:
        findings.error(INTERACTION_SHAPE, pointer(*at), "the response has no `action`")
    elif response["action"] not in RESPONSE_ACTIONS:
        findings.error(
            INTERACTION_SHAPE,
            pointer(*at, "action"),
            "`action` must be `accept`, `decline` or `cancel`",
        )
    for member, value in response.items():
        where = pointer(*at, member)
        if member not in RESPONSE_MEMBERS:
            findings.error(INTERACTION_SHAPE, where, "`%s` is not a member of the response" % member)
        elif member == "content" and not content_forbidden(request, response):
            # A `content` that may not stand at all is the response rule's
            # finding alone, whatever its value.
            if not isinstance(value, RESPONSE_MEMBERS[member]):
                findings.error(INTERACTION_SHAPE, where, "`content` must be an object")


def answered_elicitation(request, response):
    """The (mode, action) of an elicitation step whose request has a known
    mode and whose response a known action, or None: only such a step says
    whether its response may hold `content`."""
    if not isinstance(request, dict) or not isinstance(response, dict):
        return None
    mode = request.get("mode")
    action = response.get("action")
    if mode not in (FORM, URL_MODE) or action not in RESPONSE_ACTIONS:
        return None
    return mode, action


def content_expected(mode, action):
    # Only an accepted form returns what the user entered.
    return mode == FORM and action == ACCEPT


def content_forbidden(request, response):
    answered = answered_elicitation(request, response)
    return answered is not None and not content_expected(*answered)


def check_response_content(request, response, at, findings):
    answered = answered_elicitation(request, response)
    if answered is None:
        return  # the shape rule says what is wrong
    if content_expected(*answered):
        if "content" not in response:
            findings.error(
                INTERACTION_RESPONSE, pointer(*at), "an accepted form returns `content`"
            )
        elif form_rejects(request.get("requestedSchema"), response["content"]):
            findings.error(
                INTERACTION_RESPONSE,
                pointer(*at, "content"),
                "the request's `requestedSchema` rejects this content",
            )
    elif "content" in response:
        findings.error(
            INTERACTION_RESPONSE,
            pointer(*at, "content"),
            "a declined or cancelled form, and a URL flow, return no `content`",
        )


def form_rejects(schema, content):
    """Whether the form schema, evaluated as JSON Schema 2020-12, rejects
    the object `content`; False when it cannot tell (a schema that is not
    an object, of another dialect, that its meta-schema rejects or that
    does not compile) or accepts."""
    if not isinstance(schema, dict) or not isinstance(content, dict):
        return False
    if is_schema_in_error(schema):
        return False
    evaluator = SchemaEvaluator(schema)
    return evaluator.compiles() and evaluator.verdict(content) == REJECTED


def check_roots_request(request, at, findings):
    # `roots/list` takes no parameters: every member is one too many.
    for member in request:
        findings.error(
            INTERACTION_SHAPE, pointer(*at, member), "a roots request holds no `%s`" % member
        )


ROOTS_RESPONSE_MEMBERS = ("roots",)
ROOTS_ENTRY_MEMBERS = ("uri", "name")
# MCP's `Root`: its URI starts with `file://`, the scheme compared without
# case.
FILE_ROOT = re.compile(r"[Ff][Ii][Ll][Ee]://")


def check_roots_response(response, at, findings):
    # A semantic object, not an MCP message: `roots` alone, no `_meta`, no
    # `x-` member.
    for member in response:
        if member not in ROOTS_RESPONSE_MEMBERS:
            findings.error(
                INTERACTION_SHAPE, pointer(*at, member), "a roots response holds no `%s`" % member
            )
    if "roots" not in response:
        findings.error(INTERACTION_SHAPE, pointer(*at), "the response has no `roots`")
        return
    roots = response["roots"]
    if not isinstance(roots, list):
        findings.error(INTERACTION_SHAPE, pointer(*at, "roots"), "`roots` must be an array")
        return
    for index, root in enumerate(roots):
        site = at + ("roots", index)
        if not isinstance(root, dict):
            findings.error(INTERACTION_SHAPE, pointer(*site), "a root must be an object")
        else:
            check_root(root, site, findings)


def check_root(root, site, findings):
    for member, held in root.items():
        if member not in ROOTS_ENTRY_MEMBERS:
            findings.error(
                INTERACTION_SHAPE, pointer(*site, member), "a root holds no `%s`" % member
            )
        elif member == "name" and not isinstance(held, str):
            findings.error(INTERACTION_SHAPE, pointer(*site, member), "`name` must be a string")
    if "uri" not in root:
        findings.error(INTERACTION_SHAPE, pointer(*site), "the root has no `uri`")
        return
    uri = root["uri"]
    if not isinstance(uri, str):
        findings.error(INTERACTION_SHAPE, pointer(*site, "uri"), "`uri` must be a string")
    elif not is_uri(uri):
        check_uri(root, site, "uri", findings)
    elif not FILE_ROOT.match(uri):
        findings.error(
            INTERACTION_SHAPE, pointer(*site, "uri"), "a root's `uri` starts with `file://`"
        )


# --- Sampling steps: MCP's `sampling/createMessage` (Section 9.4) -----------
#
# The request holds the native parameters and the response the native
# completed result, closed as the published 0.8.0 schema closes them. Their
# types are the same under every revision, whatever the Tool's scope; what
# 2025-11-25 added (tools, a tool choice, a list of blocks) is judged under
# the revisions of the Tool's scope. The blocks are `mcp.content-block`'s,
# of the sampling family.

SAMPLING_REQUEST_MEMBERS = (
    "messages",
    "maxTokens",
    "modelPreferences",
    "systemPrompt",
    "includeContext",
    "temperature",
    "stopSequences",
    "metadata",
    "tools",
    "toolChoice",
)
SAMPLING_REQUIRED_MEMBERS = ("messages", "maxTokens")
SAMPLING_RESPONSE_MEMBERS = ("role", "content", "model", "stopReason")
SAMPLING_RESPONSE_REQUIRED = ("role", "content", "model")
SAMPLING_ROLE = "assistant"
INCLUDE_CONTEXT_VALUES = ("none", "thisServer", "allServers")
SERVER_CONTEXTS = ("thisServer", "allServers")
PRIORITIES = ("costPriority", "speedPriority", "intelligencePriority")
MODEL_PREFERENCES_MEMBERS = ("hints",) + PRIORITIES
HINT_MEMBERS = ("name",)
SAMPLING_TOOL_MEMBERS = {
    "name": is_string,
    "title": is_string,
    "description": is_string,
    "inputSchema": is_object,
    "annotations": is_object,
}
TOOL_CHOICE_MEMBERS = ("mode",)
TOOL_CHOICE_MODES = ("auto", "required", "none")
# Members that exist from this revision on.
SAMPLING_TOOLS_MEMBERS = ("tools", "toolChoice")


def is_positive_integer(value):
    return is_integer_value(value) and value >= 1


# The request's members with a type of their own (the others are judged
# apart below), with what each must be.
SAMPLING_REQUEST_TYPES = {
    "maxTokens": is_positive_integer,
    "systemPrompt": is_string,
    "includeContext": lambda value: json_in(value, INCLUDE_CONTEXT_VALUES),
    "temperature": is_number,
    "stopSequences": is_string_list,
    "metadata": is_object,
}


def sampling_error(at, tokens, message, findings):
    findings.error(SAMPLING_STEP_RULE, pointer(*at, *tokens), message)


def check_sampling_request(request, at, scope, revision, findings):
    if any(member not in request for member in SAMPLING_REQUIRED_MEMBERS):
        sampling_error(at, (), "the request needs `messages` and `maxTokens`", findings)
    for member, held in request.items():
        if member not in SAMPLING_REQUEST_MEMBERS:
            sampling_error(at, (member,), "`%s` is not a createMessage parameter" % member, findings)
        elif member in SAMPLING_REQUEST_TYPES and not SAMPLING_REQUEST_TYPES[member](held):
            sampling_error(at, (member,), "`%s` has the wrong type or value" % member, findings)
        elif (
            member in SAMPLING_TOOLS_MEMBERS
            and in_scope(scope, revision)
            and revision < FIRST_SAMPLING_TOOLS_REVISION
        ):
            sampling_error(at, (member,), "MCP %s has no `%s`" % (revision, member), findings)
    if "messages" in request:
        check_sampling_messages(request["messages"], at + ("messages",), scope, revision, findings)
    if "modelPreferences" in request:
        check_model_preferences(request["modelPreferences"], at + ("modelPreferences",), findings)
    if "tools" in request:
        check_sampling_tools(request["tools"], at + ("tools",), findings)
    if "toolChoice" in request:
        check_tool_choice(request["toolChoice"], at + ("toolChoice",), findings)


def check_sampling_messages(messages, at, scope, revision, findings):
    if not isinstance(messages, list) or not messages:
        sampling_error(at, (), "`messages` must be a non-empty array", findings)
        return
    for index, message in enumerate(messages):
        where = at + (index,)
        if not isinstance(message, dict):
            sampling_error(where, (), "a message must be an object", findings)
            continue
        if any(member not in message for member in MESSAGE_MEMBERS):
            sampling_error(where, (), "a message needs `role` and `content`", findings)
        for member in message:
            if member not in MESSAGE_MEMBERS:
                sampling_error(where, (member,), "a message has no `%s`" % member, findings)
        if "role" in message and not json_in(message["role"], MESSAGE_ROLES):
            sampling_error(where, ("role",), "`role` must be `user` or `assistant`", findings)
        if "content" in message:
            check_sampling_content(message["content"], where + ("content",), scope, revision, findings)


def check_sampling_content(content, at, scope, revision, findings):
    """A sampling message's or result's `content`: one block, or from
    2025-11-25 a non-empty list of them, of the sampling family."""
    locate = lambda *tokens: pointer(*at, *tokens)
    if not isinstance(content, list):
        check_content_block(content, locate, scope, revision, findings, SAMPLING_FAMILY)
        return
    if in_scope(scope, revision) and revision < FIRST_SAMPLING_TOOLS_REVISION:
        sampling_error(at, (), "MCP %s's content is one block" % revision, findings)
    if not content:
        sampling_error(at, (), "`content` must be a block or a non-empty array", findings)
    for index, block in enumerate(content):
        where = within(locate, index)
        check_content_block(block, where, scope, revision, findings, SAMPLING_FAMILY)


def check_model_preferences(preferences, at, findings):
    if not isinstance(preferences, dict):
        sampling_error(at, (), "`modelPreferences` must be an object", findings)
        return
    for member, held in preferences.items():
        if member not in MODEL_PREFERENCES_MEMBERS:
            sampling_error(at, (member,), "model preferences have no `%s`" % member, findings)
        elif member in PRIORITIES and not is_priority(held):
            sampling_error(at, (member,), "a priority is a number from 0 to 1", findings)
    if "hints" not in preferences:
        return
    hints = preferences["hints"]
    if not isinstance(hints, list) or not hints:
        sampling_error(at, ("hints",), "`hints` must be a non-empty array", findings)
        return
    for index, hint in enumerate(hints):
        where = at + ("hints", index)
        name = hint.get("name") if isinstance(hint, dict) else None
        if not isinstance(name, str) or not name:
            sampling_error(where, (), "a hint is an object with a non-empty `name`", findings)
        if isinstance(hint, dict):
            for member in hint:
                if member not in HINT_MEMBERS:
                    sampling_error(where, (member,), "a hint has no `%s`" % member, findings)


def check_sampling_tools(tools, at, findings):
    if not isinstance(tools, list) or not tools:
        sampling_error(at, (), "`tools` must be a non-empty array", findings)
        return
    for index, tool in enumerate(tools):
        where = at + (index,)
        if not isinstance(tool, dict) or not (
            isinstance(tool.get("name"), str) and isinstance(tool.get("inputSchema"), dict)
        ):
            sampling_error(where, (), "a tool is an object with `name` and `inputSchema`", findings)
        if not isinstance(tool, dict):
            continue
        for member, held in tool.items():
            if member not in SAMPLING_TOOL_MEMBERS:
                sampling_error(where, (member,), "a tool has no `%s`" % member, findings)
            elif member not in ("name", "inputSchema") and not SAMPLING_TOOL_MEMBERS[member](held):
                sampling_error(where, (member,), "`%s` has the wrong type" % member, findings)


def check_tool_choice(choice, at, findings):
    if not isinstance(choice, dict):
        sampling_error(at, (), "`toolChoice` must be an object", findings)
        return
    if "mode" not in choice:
        sampling_error(at, (), "`toolChoice` has no `mode`", findings)
    elif not json_in(choice["mode"], TOOL_CHOICE_MODES):
        sampling_error(at, ("mode",), "`mode` must be auto, required or none", findings)
    for member in choice:
        if member not in TOOL_CHOICE_MEMBERS:
            sampling_error(at, (member,), "`toolChoice` has no `%s`" % member, findings)


def check_sampling_response(response, at, scope, revision, findings):
    if any(member not in response for member in SAMPLING_RESPONSE_REQUIRED):
        sampling_error(at, (), "the result needs `role`, `content` and `model`", findings)
    for member, held in response.items():
        if member not in SAMPLING_RESPONSE_MEMBERS:
            # `_meta` too: the published schema closes the result.
            sampling_error(at, (member,), "the result has no `%s`" % member, findings)
        elif member == "role" and held != SAMPLING_ROLE:
            sampling_error(at, (member,), "the result's `role` is `assistant`", findings)
        elif member in ("model", "stopReason") and not isinstance(held, str):
            sampling_error(at, (member,), "`%s` must be a string" % member, findings)
    if "content" in response:
        check_sampling_content(response["content"], at + ("content",), scope, revision, findings)


# --- Client requirements against the steps (Sections 8.5 and 9.4) -----------
#
# A Tool whose `clientRequirements` is an object says what a call needs
# from the client; a step asking for a capability, or a setting of one, it
# leaves out draws a warning (a call may still use more on some paths). A
# Tool that declares none makes no claim. Judged under every revision.

STEP_CAPABILITIES = {ELICITATION_STEP: "elicitation", SAMPLING_STEP: SAMPLING, ROOTS_STEP: ROOTS}


def check_step_requirements(tool, step, site, findings):
    requirements = tool.get(CLIENT_REQUIREMENTS)
    kind = step.get("type")
    if not isinstance(requirements, dict) or kind not in STEP_KINDS:
        return
    capability = STEP_CAPABILITIES[kind]
    if capability not in requirements:
        findings.warning(
            INTERACTION_CLIENT_REQUIREMENTS,
            pointer(*site, "type"),
            "the Tool's `clientRequirements` have no `%s`" % capability,
        )
        return
    settings = requirements[capability]
    if not isinstance(settings, dict):
        settings = {}
    request = step.get("request")
    if not isinstance(request, dict):
        return
    for member in missing_settings(kind, request, settings):
        findings.warning(
            INTERACTION_CLIENT_REQUIREMENTS,
            pointer(*site, "request", member),
            "the Tool's `%s` requirement lacks the setting this request needs" % capability,
        )


def missing_settings(kind, request, settings):
    """The request members that need a setting `settings` lacks."""
    missing = []
    if kind == ELICITATION_STEP:
        mode = request.get("mode")
        # An `elicitation` without settings declares form mode.
        if mode == URL_MODE and URL_MODE not in settings:
            missing.append("mode")
        if mode == FORM and URL_MODE in settings and FORM not in settings:
            missing.append("mode")
    elif kind == SAMPLING_STEP:
        tools = request.get("tools")
        if isinstance(tools, list) and tools and "tools" not in settings:
            missing.append("tools")
        if json_in(request.get("includeContext"), SERVER_CONTEXTS) and "context" not in settings:
            missing.append("includeContext")
    return missing


def check_step_declaration(document, tool, step, site, findings):
    name = step.get(STEP_DECLARATION)
    if not isinstance(name, str):
        return  # absent, or the shape rule's error
    declaration = named_declaration(tool, name)
    if declaration is None:
        findings.error(
            INTERACTION_DECLARATION,
            pointer(*site, STEP_DECLARATION),
            "the Tool declares no elicitation `%s`" % name,
        )
        return
    request = step.get("request")
    if not isinstance(request, dict):
        return
    mode = request.get("mode")
    if mode not in (FORM, URL_MODE) or declaration.get("mode") not in (FORM, URL_MODE):
        return
    at = site + ("request",)
    # Only the first difference is reported.
    if mode != declaration["mode"]:
        findings.error(
            INTERACTION_DECLARATION,
            pointer(*at, "mode"),
            "the declaration asks in %s mode" % declaration["mode"],
        )
    elif mode == FORM:
        shown = request.get("requestedSchema")
        # Resolved first (a schema that is no Reference Object is itself). A
        # schema missing, of another type or behind a broken reference is
        # other rules' finding: nothing is compared.
        declared = resolve(document, declaration.get("requestedSchema"), SCHEMAS)
        if isinstance(shown, dict) and isinstance(declared, dict) and not json_equal(shown, declared):
            findings.error(
                INTERACTION_DECLARATION,
                pointer(*at, "requestedSchema"),
                "the form differs from the declaration's",
            )
    else:
        shown = request.get("url")
        declared = declaration.get("url")
        # A declaration that gives no URL lets the step show any.
        if isinstance(shown, str) and isinstance(declared, str) and shown != declared:
            findings.error(
                INTERACTION_DECLARATION, pointer(*at, "url"), "the declaration sends the user to `%s`" % declared
            )


def named_declaration(tool, name):
    """The first of the Tool's Elicitation Declarations named `name` exactly,
    or None; another Tool's declarations do not count."""
    declarations = tool.get("elicitations")
    if not isinstance(declarations, list):
        return None
    for declaration in declarations:
        if isinstance(declaration, dict) and declaration.get("name") == name:
            return declaration
    return None


# --- Resources and Resource Templates (Section 10 of 0.8.0) ----------------
#
# Resource Annotations (Section 10.3) on both kinds, and a Resource
# Template's `uriTemplate` as an RFC 6570 URI Template (Sections 2.2 and
# 10.2.1). The annotations' types and the template's syntax are the same
# under every revision and whatever the declaration's scope; which
# revisions define `lastModified` is judged under the case's revision, for
# a declaration whose effective scope includes it.

RESOURCE_KINDS = ("resources", "resourceTemplates")
RESOURCE_ANNOTATIONS_MEMBER = "annotations"
LAST_MODIFIED = "lastModified"
# MCP's Role: exactly these strings, compared case-sensitively.
AUDIENCE_ROLES = ("user", "assistant")
# `lastModified` exists from this revision on; the earlier revisions define
# audience and priority only.
FIRST_LAST_MODIFIED_REVISION = "2025-06-18"
# RFC 3339's date-time, the profile of ISO 8601 the suite judges by: a full
# date, `T`, a time with an optional fraction, then `Z` or a `±hh:mm`
# offset. `T` and `Z` may be lower case (RFC 3339, Section 5.6, NOTE). The
# digits are ASCII: `\d` would take any Unicode digit. Whether each field
# is in range is judged in code, below.
DATE_TIME = re.compile(
    r"([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.[0-9]+)?"
    r"(?:[Zz]|[+-]([0-9]{2}):([0-9]{2}))"
)
# The days of each month of a common year; February has one more in a leap
# year.
MONTH_DAYS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
FEBRUARY = 2


def check_resource_annotations(resource, at, scope, revision, findings):
    if RESOURCE_ANNOTATIONS_MEMBER not in resource:
        return
    where = at + (RESOURCE_ANNOTATIONS_MEMBER,)
    locate = lambda *tokens: pointer(*where, *tokens)
    judge_annotations(resource[RESOURCE_ANNOTATIONS_MEMBER], locate, scope, revision, findings)


def judge_annotations(annotations, locate, scope, revision, findings):
    """Resource Annotations, at `locate(...)`: a declaration's, or a content
    block's in a named example (inside a referenced one, `locate` answers
    the reference site whatever it is asked)."""
    if not isinstance(annotations, dict):
        # Not an object: it holds no member to judge, by either rule.
        findings.error(RESOURCE_ANNOTATIONS, locate(), "`annotations` must be an object")
        return
    # The object is open: any other member (a Tool Annotation name, an `x-`
    # one, which is an ordinary unknown member of a carried MCP object)
    # passes with any value.
    check_audience(annotations, locate, findings)
    if "priority" in annotations and not is_priority(annotations["priority"]):
        findings.error(
            RESOURCE_ANNOTATIONS,
            locate("priority"),
            "`priority` must be a number from 0 to 1",
        )
    if LAST_MODIFIED not in annotations:
        return
    modified = annotations[LAST_MODIFIED]
    if not isinstance(modified, str) or not is_date_time(modified):
        findings.error(
            RESOURCE_ANNOTATIONS,
            locate(LAST_MODIFIED),
            "`lastModified` must be an RFC 3339 date and time with a zone",
        )
    # Whatever its value: the earlier revisions have no such member at all.
    if in_scope(scope, revision) and revision < FIRST_LAST_MODIFIED_REVISION:
        findings.error(
            RESOURCE_ANNOTATIONS_REVISION,
            locate(LAST_MODIFIED),
            "MCP %s's Resource Annotations have no `lastModified`" % revision,
        )


def check_audience(annotations, locate, findings):
    if "audience" not in annotations:
        return
    audience = annotations["audience"]
    if not isinstance(audience, list):
        findings.error(RESOURCE_ANNOTATIONS, locate("audience"), "`audience` must be an array")
        return
    # An empty list, and a role given twice, pass: MCP asks for neither.
    for index, role in enumerate(audience):
        if not json_in(role, AUDIENCE_ROLES):
            findings.error(
                RESOURCE_ANNOTATIONS,
                locate("audience", index),
                "an audience is `user` or `assistant`",
            )


def is_priority(value):
    # Both ends included; a boolean is no number.
    return is_number(value) and 0 <= value <= 1


def is_date_time(text):
    """Whether `text` is an RFC 3339 date-time: its syntax, then each field
    in range (a day within its month, leap years included; a second of 60
    for a leap second; an offset's hours and minutes as a time's)."""
    match = DATE_TIME.fullmatch(text)
    if match is None:
        return False
    year, month, day, hour, minute, second = (int(match.group(n)) for n in range(1, 7))
    if not 1 <= month <= 12 or not 1 <= day <= days_in_month(year, month):
        return False
    if hour > 23 or minute > 59 or second > 60:
        return False
    if match.group(7) is None:
        # `Z`: no offset to judge.
        return True
    return int(match.group(7)) <= 23 and int(match.group(8)) <= 59


def days_in_month(year, month):
    if month == FEBRUARY and is_leap_year(year):
        return MONTH_DAYS[month - 1] + 1
    return MONTH_DAYS[month - 1]


def is_leap_year(year):
    # The Gregorian calendar's rule, which RFC 3339's Appendix C gives.
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


# --- RFC 6570 URI Templates --------------------------------------------------
#
# Any level is accepted. A template is literals and expressions in any
# order, none of them required (a template without any expression is
# valid). The character tables and the grammar's small productions are
# data; the parser walks the template.

# Section 2.1: the characters a literal holds as themselves, as inclusive
# code point ranges: ASCII but controls, space and `" ' % < > \ ^ ` { | }`,
# then `ucschar` and `iprivate`. A `%` starts a pct-encoded triplet instead.
LITERAL_RANGES = (
    (0x21, 0x21),
    (0x23, 0x24),
    (0x26, 0x26),
    (0x28, 0x3B),
    (0x3D, 0x3D),
    (0x3F, 0x5B),
    (0x5D, 0x5D),
    (0x5F, 0x5F),
    (0x61, 0x7A),
    (0x7E, 0x7E),
    (0xA0, 0xD7FF),
    (0xE000, 0xF8FF),
    (0xF900, 0xFDCF),
    (0xFDF0, 0xFFEF),
    (0x10000, 0x1FFFD),
    (0x20000, 0x2FFFD),
    (0x30000, 0x3FFFD),
    (0x40000, 0x4FFFD),
    (0x50000, 0x5FFFD),
    (0x60000, 0x6FFFD),
    (0x70000, 0x7FFFD),
    (0x80000, 0x8FFFD),
    (0x90000, 0x9FFFD),
    (0xA0000, 0xAFFFD),
    (0xB0000, 0xBFFFD),
    (0xC0000, 0xCFFFD),
    (0xD0000, 0xDFFFD),
    (0xE1000, 0xEFFFD),
    (0xF0000, 0xFFFFD),
    (0x100000, 0x10FFFD),
)
PCT_ENCODED = re.compile(r"%[0-9A-Fa-f]{2}")
EXPRESSION_START = "{"
EXPRESSION_END = "}"
# Section 2.2: the operators of levels 2 and 3. The reserved ones
# (`= , ! @ |`) are no operator and no varchar either, so an expression
# starting with one fails as a variable name.
EXPRESSION_OPERATORS = ("+", "#", ".", "/", ";", "?", "&")
# Section 2.3: varname = varchar *( ["."] varchar ), varchar = ALPHA /
# DIGIT / "_" / pct-encoded (ASCII letters and digits only).
_VARCHAR = r"(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})"
VARNAME = re.compile(_VARCHAR + r"(?:\.?" + _VARCHAR + r")*")
# Section 2.4.1: max-length = %x31-39 0*3DIGIT, a positive integer below
# 10000 without a leading zero.
MAX_LENGTH = re.compile(r"[1-9][0-9]{0,3}")
PREFIX_MARK = ":"
EXPLODE_MARK = "*"


def check_uri_template(template, at, findings):
    written = template.get("uriTemplate")
    # A `uriTemplate` that is not a string is the shape rule's finding. One
    # finding per template, however many faults it has.
    if isinstance(written, str) and not is_uri_template(written):
        findings.error(
            URI_TEMPLATE,
            pointer(*at, "uriTemplate"),
            "`uriTemplate` is not an RFC 6570 URI Template",
        )


def is_uri_template(text):
    position = 0
    while position < len(text):
        if text[position] == EXPRESSION_START:
            end = text.find(EXPRESSION_END, position)
            # Unclosed; or, when a `{` comes before the `}`, a body holding a
            # character no expression can: both fail here.
            if end < 0 or not is_expression(text[position + 1 : end]):
                return False
            position = end + 1
            continue
        encoded = PCT_ENCODED.match(text, position)
        if encoded is not None:
            position = encoded.end()
        elif is_literal_character(text[position]):
            position += 1
        else:
            # A stray `}`, a lone `%`, a space, a quote...
            return False
    return True


def is_literal_character(char):
    code = ord(char)
    return any(low <= code <= high for low, high in LITERAL_RANGES)


def is_expression(body):
    """An optional operator, then one or more varspecs separated by commas;
    an empty body, or an empty varspec (`{a,}`), is none."""
    if body[:1] in EXPRESSION_OPERATORS:
        body = body[1:]
    return all(is_varspec(spec) for spec in body.split(","))


def is_varspec(spec):
    """A varname, then at most one modifier: a prefix `:` max-length or the
    explode `*`, never both."""
    name, prefix, length = spec.partition(PREFIX_MARK)
    if prefix:
        return MAX_LENGTH.fullmatch(length) is not None and is_varname(name)
    if name.endswith(EXPLODE_MARK):
        name = name[:-1]
    return is_varname(name)


def is_varname(name):
    return VARNAME.fullmatch(name) is not None


# --- RFC 6570 expansion, read backwards ---------------------------------------
#
# Whether a URI is something the expansion of a template (Section 3 of RFC
# 6570) can produce for some values of its variables, each undefined, a
# string, a list or a map. The URI is matched against the template's
# literals as Section 3.1 expands them (URI characters and triplets copied,
# any other character percent-encoded as UTF-8 octets, a triplet's
# hexadecimal digits matched in either case) and, for each expression,
# against the form its operator writes (Section 3.2.1's table): its first
# character, its separator, the `name=value` pairs of the named operators,
# the characters the operator leaves unencoded with percent-encoded
# triplets for the others, at most one value per variable unless one of
# them is exploded, and the prefix of a variable: of an expression's only
# variable, or in a named expression without an exploded variable, of the
# variable each name names (each at most once). The order of the names
# within one named expression is not judged. A memoized walk tries every
# end of each expression.

# Section 1.5: unreserved and reserved characters, as sets and as the
# body of a regular expression's character class.
UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
RESERVED = frozenset(":/?#[]@!$&'()*+,;=")
UNRESERVED_CLASS = r"A-Za-z0-9\-._~"
RESERVED_CLASS = r":/?#\[\]@!$&'()*+,;="
# A character encodes to at most four UTF-8 bytes, each a triplet.
MAX_TRIPLETS_PER_CHARACTER = 12
# (first, separator, named, empty-value suffix, reserved left unencoded),
# by operator; "" is the simple expression's.
OPERATOR_FORMS = {
    "": ("", ",", False, "", False),
    "+": ("", ",", False, "", True),
    ".": (".", ".", False, "", False),
    "/": ("/", "/", False, "", False),
    ";": (";", ";", True, "", False),
    "?": ("?", "&", True, "=", False),
    "&": ("&", "&", True, "=", False),
    "#": ("#", ",", False, "", True),
}
# What joins a composite value's items (a list's, a map's keys and values)
# when it is not exploded, and a map's key to its value when it is.
ITEM_SEPARATOR = ","
PAIR_MARK = "="
# A literal's pieces: a pct-encoded triplet, or one character.
LITERAL_PIECE = re.compile(r"(%[0-9A-Fa-f]{2})|(.)", re.DOTALL)


def template_parts(template):
    """The template as a list of literal strings and expressions, each
    expression (operator, [(name, prefix length or None, exploded)]); the
    template is known to parse."""
    parts = []
    position = 0
    while position < len(template):
        start = template.find(EXPRESSION_START, position)
        if start < 0:
            parts.append(template[position:])
            break
        if start > position:
            parts.append(template[position:start])
        end = template.find(EXPRESSION_END, start)
        parts.append(parse_expression(template[start + 1 : end]))
        position = end + 1
    return parts


def parse_expression(body):
    operator = body[:1] if body[:1] in EXPRESSION_OPERATORS else ""
    variables = []
    for spec in body[len(operator) :].split(","):
        name, _, length = spec.partition(PREFIX_MARK)
        exploded = name.endswith(EXPLODE_MARK)
        variables.append((name.rstrip(EXPLODE_MARK), int(length) if length else None, exploded))
    return operator, variables


def literal_forms(literal):
    """What a literal becomes in the expansion (Section 3.1): a character
    outside the unreserved and reserved sets (a `ucschar` or `iprivate`
    one) is percent-encoded as UTF-8 octets; pct-encoded triplets and the
    other characters are copied. A triplet's hexadecimal digits, copied or
    made here, match in either case (RFC 3986 makes them equivalent); the
    other characters exactly."""
    pieces = []
    # The template parses, so a `%` starts a triplet.
    for triplet, char in LITERAL_PIECE.findall(literal):
        if triplet:
            pieces.append(triplet_form(triplet))
        elif char in UNRESERVED or char in RESERVED:
            pieces.append(re.escape(char))
        else:
            pieces.append(
                triplet_form("".join("%%%02X" % byte for byte in char.encode("utf-8")))
            )
    return re.compile("".join(pieces))


def triplet_form(triplets):
    """A pattern matching pct-encoded `triplets` with hexadecimal digits in
    either case."""
    return "(?i:" + re.escape(triplets) + ")"


def expands_to(template, uri):
    """Whether `uri` is an expansion of `template` (a parsed RFC 6570
    template) for some values of its variables."""
    parts = []
    for part in template_parts(template):
        parts.append(literal_forms(part) if isinstance(part, str) else part)
    seen = {}

    def matches(position, index):
        key = (position, index)
        if key in seen:
            return seen[key]
        if index == len(parts):
            found = position == len(uri)
        elif not isinstance(parts[index], tuple):
            literal = parts[index].match(uri, position)
            found = literal is not None and matches(literal.end(), index + 1)
        elif not uri.startswith(OPERATOR_FORMS[parts[index][0]][0], position):
            # Without its first character, the expression expands to nothing.
            found = matches(position, index + 1)
        else:
            # No expansion of the expression runs past a character it
            # never writes.
            limit = expression_alphabet(parts[index]).match(uri, position).end()
            found = any(
                expression_writes(parts[index], uri[position:end]) and matches(end, index + 1)
                for end in range(position, limit + 1)
            )
        seen[key] = found
        return found

    return matches(0, 0)


@functools.lru_cache(maxsize=None)
def value_pattern(reserved_allowed, extra):
    """The values an operator writes: the characters it leaves unencoded,
    triplets, and the characters of `extra` (the separators a composite
    value brings)."""
    allowed = UNRESERVED_CLASS + (RESERVED_CLASS if reserved_allowed else "")
    return re.compile("(?:[" + allowed + re.escape(extra) + "]|%[0-9A-Fa-f]{2})*")


def expression_alphabet(expression):
    """Every character any expansion of the expression can hold."""
    first, separator, named, _, reserved_allowed = OPERATOR_FORMS[expression[0]]
    return value_pattern(reserved_allowed, first + separator + ITEM_SEPARATOR + PAIR_MARK)


def is_value(text, reserved_allowed, extra=""):
    return value_pattern(reserved_allowed, extra).fullmatch(text) is not None


def fits_prefix(text, reserved_allowed, length):
    """Whether `text` is a value of at most `length` characters once its
    triplets are decoded (as UTF-8; bytes that are no UTF-8 count one by
    one)."""
    if len(text) > MAX_TRIPLETS_PER_CHARACTER * length or not is_value(text, reserved_allowed):
        return False
    data = urllib.parse.unquote_to_bytes(text)
    try:
        return len(data.decode("utf-8")) <= length
    except UnicodeDecodeError:
        return len(data) <= length


def expression_writes(expression, text):
    """Whether one expression can expand to `text`, which is empty or
    starts with the expression's first character."""
    if text == "":
        return True  # every variable undefined
    operator, variables = expression
    first, separator, named, if_empty, reserved_allowed = OPERATOR_FORMS[operator]
    body = text[len(first) :]
    exploded = any(explode for _, _, explode in variables)
    if named:
        return named_expression_writes(body, variables, separator, if_empty, exploded)
    only_prefix = variables[0][1] if len(variables) == 1 else None
    if only_prefix is not None:
        return fits_prefix(body, reserved_allowed, only_prefix)
    if exploded:
        return is_value(body, reserved_allowed, separator + ITEM_SEPARATOR + PAIR_MARK)
    if not is_value(body, reserved_allowed, separator + ITEM_SEPARATOR):
        return False
    # One value per variable: the separator, when a value cannot hold it
    # unencoded, parts the values.
    if separator in UNRESERVED or separator == ITEM_SEPARATOR or reserved_allowed:
        return True
    return len(body.split(separator)) <= len(variables)


def named_expression_writes(body, variables, separator, if_empty, exploded):
    """The `name=value` pairs of `;`, `?` and `&`. With an exploded
    variable, a name may be any key of a map, any number of times, so no
    name says whose value it gives. Without one, each name is its own
    variable's, at most once, with a value within that variable's prefix."""
    given = []
    for pair in body.split(separator):
        name, mark, value = pair.partition(PAIR_MARK)
        if not mark and if_empty:
            return False  # `?x` and `&x` are written `x=` when empty
        if exploded:
            if name == "" or not is_value(name, False) or not is_value(value, False, ITEM_SEPARATOR):
                return False
        elif not any(name == own and fits_variable(value, length) for own, length, _ in variables):
            return False
        given.append(name)
    return exploded or len(given) == len(set(given))


def fits_variable(value, length):
    """Whether a named pair's `value` is one a variable with prefix
    `length` (None without one) can give: a prefixed one a string of at
    most that many characters, any other a string or a composite's items."""
    if length is None:
        return is_value(value, False, ITEM_SEPARATOR)
    return fits_prefix(value, False, length)


# --- Prompts (Section 11 of 0.8.0) ------------------------------------------
#
# A Prompt's `arguments`: the same under every revision and whatever the
# Prompt's scope (which revisions define an argument's `title` is the
# member revision rule's, above).

PROMPT_ARGUMENTS_MEMBER = "arguments"
# Section 11.2: the Prompt Argument Object, closed but for `x-` extensions
# (Section 14.2 lists it), each member with its JSON type. An empty `name`
# passes: the table asks for a string only.
PROMPT_ARGUMENT_MEMBERS = {"name": str, "title": str, "description": str, "required": bool}
REQUIRED_ARGUMENT_MEMBER = "name"


def check_prompt_arguments(prompt, at, findings):
    if PROMPT_ARGUMENTS_MEMBER not in prompt:
        return
    arguments = prompt[PROMPT_ARGUMENTS_MEMBER]
    where = at + (PROMPT_ARGUMENTS_MEMBER,)
    # A present collection holds at least one entry (Section 3.3).
    if not isinstance(arguments, list) or not arguments:
        findings.error(
            PROMPT_ARGUMENTS, pointer(*where), "`arguments` must be a non-empty array"
        )
        return
    # Repeated names are not judged: the catalog decides neither way.
    for index, argument in enumerate(arguments):
        site = where + (index,)
        if not isinstance(argument, dict):
            # The arguments after it are still checked.
            findings.error(PROMPT_ARGUMENTS, pointer(*site), "an argument must be an object")
            continue
        if REQUIRED_ARGUMENT_MEMBER not in argument:
            findings.error(PROMPT_ARGUMENTS, pointer(*site), "the argument has no `name`")
        # `bool` is no `int` here: `isinstance(1, bool)` is false.
        check_closed_object(argument, site, PROMPT_ARGUMENT_MEMBERS, PROMPT_ARGUMENTS, findings)


# --- Named examples (Sections 9.3, 10.4, 11.3 and 11.4 of 0.8.0) -------------
#
# The example maps of the four primitives and their names; Prompt examples
# (their arguments, their completed `GetPromptResult` and its content
# blocks); completion examples of Resource Templates and Prompts; Tool
# examples (their input and structured content against the Tool's schemas,
# their completed `CallToolResult`) and Resource and Resource Template
# examples (their URI and completed `ReadResourceResult`), below.
#
# An example has no scope of its own: the rules that depend on the revision
# (the result type, which content block types exist, a completion context,
# the cache fields) judge it under the revisions its declaration's effective scope includes;
# the others under every revision, whatever the scope.

EXAMPLES_MEMBER = "examples"
COMPLETION_EXAMPLES_MEMBER = "completionExamples"
# The kinds that have completion examples (`completionExamples` elsewhere is
# the primitive shape rule's unknown member, not an example map).
COMPLETION_KINDS = ("resourceTemplates", "prompts")
PROMPT_EXAMPLES = EXAMPLE_NAMESPACES["prompts"]

# Members a completed result never holds: the JSON-RPC envelope, a
# request's members, an error, and a task handle (Sections 10.4.4, 11.3,
# 11.4).
UNFINISHED_RESULT_MEMBERS = ("jsonrpc", "id", "method", "params", "error", "task")

# MCP 2026-07-28 marks a completed result with `resultType: "complete"`;
# earlier revisions have no such field.
RESULT_TYPE = "resultType"
COMPLETE = "complete"
FIRST_RESULT_TYPE_REVISION = "2026-07-28"

# Section 11.3: a Prompt example is `arguments` (optional, a map of strings)
# and `result`, closed but for `x-` extensions.
PROMPT_EXAMPLE_MEMBERS = ("arguments", "result")
EXAMPLE_ARGUMENTS = "arguments"
EXAMPLE_RESULT = "result"

# MCP's `PromptMessage`: exactly a role and a content block.
MESSAGE_MEMBERS = ("role", "content")
MESSAGE_ROLES = ("user", "assistant")

# Content blocks come in two families, as MCP's types have them: the
# general one (`ContentBlock`: Prompt messages, Tool results, a sampled
# tool result's content) and sampling's (`SamplingContent`: the messages
# and result of a sampling step). Each family maps the types it has to the
# revisions that define them there, as (first, last). The members each type
# requires and may carry are in BLOCK_MEMBERS, below, with what each must
# be.
TEXT_BLOCK = "text"
IMAGE_BLOCK = "image"
AUDIO_BLOCK = "audio"
RESOURCE_BLOCK = "resource"
LINK_BLOCK = "resource_link"
TOOL_USE_BLOCK = "tool_use"
TOOL_RESULT_BLOCK = "tool_result"
FIRST_AUDIO_REVISION = "2025-03-26"
FIRST_SAMPLING_TOOLS_REVISION = "2025-11-25"
GENERAL_FAMILY = "general"
SAMPLING_FAMILY = "sampling"
BLOCK_SPANS = {
    GENERAL_FAMILY: {
        TEXT_BLOCK: ALWAYS,
        IMAGE_BLOCK: ALWAYS,
        RESOURCE_BLOCK: ALWAYS,
        AUDIO_BLOCK: (FIRST_AUDIO_REVISION, None),
        LINK_BLOCK: ("2025-06-18", None),
    },
    SAMPLING_FAMILY: {
        TEXT_BLOCK: ALWAYS,
        IMAGE_BLOCK: ALWAYS,
        AUDIO_BLOCK: (FIRST_AUDIO_REVISION, None),
        TOOL_USE_BLOCK: (FIRST_SAMPLING_TOOLS_REVISION, None),
        TOOL_RESULT_BLOCK: (FIRST_SAMPLING_TOOLS_REVISION, None),
    },
}
# Embedded resource contents: a `uri`, exactly one of `text` and `blob`,
# and optionally `mimeType` and `_meta`.
RESOURCE_CONTENTS_MEMBERS = ("uri", "text", "blob", "mimeType", "_meta")
# RFC 4648's standard alphabet, padded to a multiple of four characters,
# with no line break; the unused bits of the last group are not judged.
BASE64 = re.compile(r"(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?")

# Sections 10.4.6 and 11.4: a completion example is an `argument` (a name
# and a value), an optional `context` (a non-empty map of strings under
# `arguments`) and a `result`; all three closed but for `x-` extensions.
COMPLETION_EXAMPLE_MEMBERS = ("argument", "context", "result")
COMPLETION_ARGUMENT_MEMBERS = ("name", "value")
COMPLETION_CONTEXT_MEMBERS = ("arguments",)
# A completion request carries a context from this revision on.
FIRST_COMPLETION_CONTEXT_REVISION = "2025-06-18"
# MCP's `CompleteResult`: at most this many values.
MAX_COMPLETION_VALUES = 100


def check_example_maps(primitive, at, kind, findings):
    """Every named example map of the primitive: an object with one entry
    at least, each named by the pattern. The entries are their kind's."""
    maps = [EXAMPLES_MEMBER]
    if kind in COMPLETION_KINDS:
        maps.append(COMPLETION_EXAMPLES_MEMBER)
    for member in maps:
        if member not in primitive:
            continue
        held = primitive[member]
        if not isinstance(held, dict) or not held:
            findings.error(
                EXAMPLE_MAP, pointer(*at, member), "`%s` must be a non-empty object" % member
            )
            continue
        for name in held:
            # Matched whole and case-sensitively; the empty name fails.
            if not NAME_PATTERN.fullmatch(name):
                findings.error(
                    EXAMPLE_NAME,
                    pointer(*at, member, name),
                    "the example name must match ^[A-Za-z0-9._-]+$",
                )


def within(locate, *prefix):
    """A `locate` for the place at `prefix` inside the one `locate` serves:
    inside a referenced example, still the reference site."""
    return lambda *tokens: locate(*prefix, *tokens)


def example_map(primitive, member):
    held = primitive.get(member)
    return held if isinstance(held, dict) else {}


def declared_arguments(prompt):
    """The string names of a Prompt's argument entries, and those of them
    marked `required: true`; a Prompt without a list of arguments has none."""
    names, required = set(), set()
    arguments = prompt.get(PROMPT_ARGUMENTS_MEMBER)
    if not isinstance(arguments, list):
        return names, required
    for argument in arguments:
        if not isinstance(argument, dict) or not isinstance(argument.get("name"), str):
            continue
        names.add(argument["name"])
        if argument.get("required") is True:
            required.add(argument["name"])
    return names, required


def check_prompt_examples(document, prompt, at, scope, revision, findings):
    declared, required = declared_arguments(prompt)
    for name, written in example_map(prompt, EXAMPLES_MEMBER).items():
        site = at + (EXAMPLES_MEMBER, name)
        if is_reference(written):
            example = resolve(document, written, PROMPT_EXAMPLES)
            if example is ABSENT or not isinstance(example, dict):
                # A broken or cyclic chain, or a component that is not an
                # object: the components suite's rules alone.
                continue
            # Judged against this Prompt, every finding at the reference site.
            locate = lambda *tokens, site=site: pointer(*site)
        else:
            example = written
            locate = lambda *tokens, site=site: pointer(*site, *tokens)
        check_prompt_example(example, locate, declared, required, scope, revision, findings)


def check_prompt_example(example, locate, declared, required, scope, revision, findings):
    if not isinstance(example, dict):
        findings.error(PROMPT_EXAMPLE_SHAPE, locate(), "a Prompt example must be an object")
        return
    if EXAMPLE_RESULT not in example:
        findings.error(PROMPT_EXAMPLE_SHAPE, locate(), "the Prompt example has no `result`")
    for member in example:
        if not member.startswith(EXTENSION_PREFIX) and member not in PROMPT_EXAMPLE_MEMBERS:
            findings.error(
                PROMPT_EXAMPLE_SHAPE,
                locate(member),
                "`%s` is not a member of a Prompt example" % member,
            )
    check_example_arguments(example, locate, declared, required, findings)
    if EXAMPLE_RESULT in example:
        result = example[EXAMPLE_RESULT]
        check_prompt_result(result, within(locate, EXAMPLE_RESULT), scope, revision, findings)


def check_example_arguments(example, locate, declared, required, findings):
    if EXAMPLE_ARGUMENTS not in example:
        # Omission means no arguments: every required one is missing.
        if required:
            findings.error(
                PROMPT_EXAMPLE_ARGUMENTS, locate(), "a required argument is not given"
            )
        return
    arguments = example[EXAMPLE_ARGUMENTS]
    if not isinstance(arguments, dict):
        # The shape rule's finding; there are no keys to compare.
        findings.error(
            PROMPT_EXAMPLE_SHAPE, locate(EXAMPLE_ARGUMENTS), "`arguments` must be an object"
        )
        return
    for key, value in arguments.items():
        if not isinstance(value, str):
            findings.error(
                PROMPT_EXAMPLE_SHAPE,
                locate(EXAMPLE_ARGUMENTS, key),
                "an argument value must be a string",
            )
        if key not in declared:
            findings.error(
                PROMPT_EXAMPLE_ARGUMENTS,
                locate(EXAMPLE_ARGUMENTS, key),
                "the Prompt declares no argument `%s`" % key,
            )
    if not required <= set(arguments):
        findings.error(
            PROMPT_EXAMPLE_ARGUMENTS,
            locate(EXAMPLE_ARGUMENTS),
            "a required argument is not given",
        )


def check_completed_result(result, locate, findings):
    """The members no completed result holds, each at itself. `result` is
    an object."""
    for member in UNFINISHED_RESULT_MEMBERS:
        if member in result:
            findings.error(
                COMPLETED_RESULT,
                locate(member),
                "a completed result holds no `%s`" % member,
            )


def check_result_type(result, locate, scope, revision, findings):
    """Under the case's revision, for a declaration that applies to it."""
    if not in_scope(scope, revision):
        return
    if revision >= FIRST_RESULT_TYPE_REVISION:
        if RESULT_TYPE not in result:
            findings.error(
                RESULT_TYPE_RULE, locate(), "MCP %s marks a completed result `complete`" % revision
            )
        elif result[RESULT_TYPE] != COMPLETE:
            findings.error(
                RESULT_TYPE_RULE, locate(RESULT_TYPE), "`resultType` must be \"complete\""
            )
    elif RESULT_TYPE in result:
        findings.error(
            RESULT_TYPE_RULE, locate(RESULT_TYPE), "MCP %s has no `resultType`" % revision
        )


def check_prompt_result(result, locate, scope, revision, findings):
    if not isinstance(result, dict):
        findings.error(PROMPT_EXAMPLE_RESULT, locate(), "the result must be an object")
        return
    check_completed_result(result, locate, findings)
    check_result_type(result, locate, scope, revision, findings)
    judge_meta(result, locate, META_ON_RESULT, scope, revision, findings)
    if "description" in result and not isinstance(result["description"], str):
        findings.error(
            PROMPT_EXAMPLE_RESULT, locate("description"), "`description` must be a string"
        )
    if "messages" not in result:
        findings.error(PROMPT_EXAMPLE_RESULT, locate(), "the result has no `messages`")
        return
    messages = result["messages"]
    if not isinstance(messages, list):
        # An empty list passes: MCP asks for no message.
        findings.error(PROMPT_EXAMPLE_RESULT, locate("messages"), "`messages` must be an array")
        return
    for index, message in enumerate(messages):
        check_message(message, within(locate, "messages", index), scope, revision, findings)


def check_message(message, locate, scope, revision, findings):
    if not isinstance(message, dict):
        findings.error(PROMPT_EXAMPLE_RESULT, locate(), "a message must be an object")
        return
    if any(member not in message for member in MESSAGE_MEMBERS):
        findings.error(PROMPT_EXAMPLE_RESULT, locate(), "a message needs `role` and `content`")
    # MCP's objects have no `x-` extensions: every other member is unknown.
    for member in message:
        if member not in MESSAGE_MEMBERS:
            findings.error(
                PROMPT_EXAMPLE_RESULT, locate(member), "`%s` is not a member of a message" % member
            )
    if "role" in message and not json_in(message["role"], MESSAGE_ROLES):
        findings.error(
            PROMPT_EXAMPLE_RESULT, locate("role"), "`role` must be `user` or `assistant`"
        )
    if "content" in message:
        content = message["content"]
        where = within(locate, "content")
        check_content_block(content, where, scope, revision, findings)
        check_block_annotations(content, where, scope, revision, findings)


def is_base64(value):
    return isinstance(value, str) and BASE64.fullmatch(value) is not None


def is_uri_string(value):
    return isinstance(value, str) and is_uri(value)


# Each type's (required, optional) members, with what each must be; None
# for a value this rule does not judge (those of `annotations` are the
# Resource Annotations rules', of `_meta` the `_meta` rules' (above, with
# the revisions that define it), the others no rule's here). A
# `tool_result`'s `content` (one block or a non-empty list of them, of the
# general family) is judged apart.
BLOCK_OPTIONAL_MEMBERS = {"annotations": None, "_meta": None}
LINK_OPTIONAL_MEMBERS = dict(
    BLOCK_OPTIONAL_MEMBERS,
    title=None,
    description=None,
    mimeType=None,
    size=None,
    icons=None,
)
TOOL_RESULT_OPTIONAL_MEMBERS = dict(
    BLOCK_OPTIONAL_MEMBERS, isError=is_boolean, structuredContent=None
)
BLOCK_MEMBERS = {
    TEXT_BLOCK: ({"text": is_string}, BLOCK_OPTIONAL_MEMBERS),
    IMAGE_BLOCK: ({"data": is_base64, "mimeType": is_string}, BLOCK_OPTIONAL_MEMBERS),
    AUDIO_BLOCK: ({"data": is_base64, "mimeType": is_string}, BLOCK_OPTIONAL_MEMBERS),
    RESOURCE_BLOCK: ({"resource": is_object}, BLOCK_OPTIONAL_MEMBERS),
    LINK_BLOCK: ({"uri": is_uri_string, "name": is_string}, LINK_OPTIONAL_MEMBERS),
    TOOL_USE_BLOCK: (
        {"id": is_string, "name": is_string, "input": is_object},
        BLOCK_OPTIONAL_MEMBERS,
    ),
    TOOL_RESULT_BLOCK: ({"toolUseId": is_string, "content": None}, TOOL_RESULT_OPTIONAL_MEMBERS),
}


def check_content_block(block, locate, scope, revision, findings, family=GENERAL_FAMILY):
    if not isinstance(block, dict):
        findings.error(CONTENT_BLOCK, locate(), "a content block must be an object")
        return
    if "type" not in block:
        findings.error(CONTENT_BLOCK, locate(), "the content block has no `type`")
        return
    kind = block["type"]
    spans = BLOCK_SPANS[family]
    if not isinstance(kind, str) or kind not in spans:
        # Reported at `type` alone: an unknown type (or one of the other
        # family) has no members to judge.
        findings.error(CONTENT_BLOCK, locate("type"), "`type` names no %s content block type" % family)
        return
    # Whether the type exists is the revision's, for a declaration that applies.
    if in_scope(scope, revision) and not defines(spans[kind], revision):
        findings.error(
            CONTENT_BLOCK,
            locate("type"),
            "MCP %s has no `%s` content block" % (revision, kind),
        )
    required, optional = BLOCK_MEMBERS[kind]
    if any(member not in block for member in required):
        findings.error(
            CONTENT_BLOCK, locate(), "a `%s` block needs %s" % (kind, ", ".join(required))
        )
    for member, held in block.items():
        if member == "type":
            continue
        judge = required.get(member, optional.get(member, ABSENT))
        if judge is ABSENT:
            findings.error(
                CONTENT_BLOCK, locate(member), "a `%s` block has no `%s`" % (kind, member)
            )
        elif judge is not None and not judge(held):
            findings.error(CONTENT_BLOCK, locate(member), "`%s` is not what it must be" % member)
    judge_meta(block, locate, META_ON_CONTENT, scope, revision, findings)
    resource = block.get("resource")
    if kind == RESOURCE_BLOCK and isinstance(resource, dict):
        where = within(locate, "resource")
        check_resource_contents(resource, where, findings)
        judge_meta(resource, where, META_ON_CONTENT, scope, revision, findings)
    if kind == TOOL_RESULT_BLOCK and "content" in block:
        check_block_list(block["content"], within(locate, "content"), scope, revision, findings)


def check_block_list(content, locate, scope, revision, findings, family=GENERAL_FAMILY):
    """A `content` that is one block or a non-empty list of them: a
    sampled tool result's (of the general family)."""
    if not isinstance(content, list):
        check_content_block(content, locate, scope, revision, findings, family)
        return
    if not content:
        findings.error(CONTENT_BLOCK, locate(), "`content` must be a block or a non-empty array")
    for index, block in enumerate(content):
        check_content_block(block, within(locate, index), scope, revision, findings, family)


def check_block_annotations(block, locate, scope, revision, findings):
    """A content block of a named example (a Tool's or a Prompt's) carries
    Resource Annotations, judged by their rules."""
    if isinstance(block, dict) and RESOURCE_ANNOTATIONS_MEMBER in block:
        annotations = block[RESOURCE_ANNOTATIONS_MEMBER]
        where = within(locate, RESOURCE_ANNOTATIONS_MEMBER)
        judge_annotations(annotations, where, scope, revision, findings)


def check_resource_contents(resource, locate, findings):
    if "uri" not in resource or ("text" in resource) == ("blob" in resource):
        findings.error(
            CONTENT_BLOCK,
            locate(),
            "embedded resource contents need a `uri` and one of `text` and `blob`",
        )
    for member, held in resource.items():
        if member not in RESOURCE_CONTENTS_MEMBERS:
            findings.error(
                CONTENT_BLOCK, locate(member), "resource contents have no `%s`" % member
            )
        elif member == "uri" and not is_uri_string(held):
            findings.error(CONTENT_BLOCK, locate(member), "`uri` must be a URI")
        elif member == "text" and not isinstance(held, str):
            findings.error(CONTENT_BLOCK, locate(member), "`text` must be a string")
        elif member == "blob" and not is_base64(held):
            findings.error(CONTENT_BLOCK, locate(member), "`blob` must be base64")
        elif member == "mimeType" and not isinstance(held, str):
            findings.error(CONTENT_BLOCK, locate(member), "`mimeType` must be a string")


def template_variables(template):
    """The variable names of a Resource Template's `uriTemplate`, without
    operators and modifiers; None when it is missing or does not parse."""
    written = template.get("uriTemplate")
    if not isinstance(written, str) or not is_uri_template(written):
        return None
    names = set()
    position = written.find(EXPRESSION_START)
    while position >= 0:
        end = written.find(EXPRESSION_END, position)
        body = written[position + 1 : end]
        if body[:1] in EXPRESSION_OPERATORS:
            body = body[1:]
        for spec in body.split(","):
            name = spec.partition(PREFIX_MARK)[0]
            if name.endswith(EXPLODE_MARK):
                name = name[:-1]
            names.add(name)
        position = written.find(EXPRESSION_START, end)
    return names


def check_completion_examples(primitive, at, kind, scope, revision, findings):
    if kind == "prompts":
        targets = declared_arguments(primitive)[0]
    else:
        targets = template_variables(primitive)
    for name, example in example_map(primitive, COMPLETION_EXAMPLES_MEMBER).items():
        site = at + (COMPLETION_EXAMPLES_MEMBER, name)
        # Always inline: a `$componentRef` is a member outside the table.
        if not isinstance(example, dict):
            findings.error(
                COMPLETION_EXAMPLE_SHAPE, pointer(*site), "a completion example must be an object"
            )
            continue
        check_completion_example_shape(example, site, findings)
        check_completion_target(example, site, targets, findings)
        if "context" in example and in_scope(scope, revision):
            if revision < FIRST_COMPLETION_CONTEXT_REVISION:
                findings.error(
                    COMPLETION_EXAMPLE_REVISION,
                    pointer(*site, "context"),
                    "MCP %s has no completion context" % revision,
                )
        if EXAMPLE_RESULT in example:
            locate = lambda *tokens, site=site: pointer(*site, EXAMPLE_RESULT, *tokens)
            check_completion_result(example[EXAMPLE_RESULT], locate, scope, revision, findings)


def check_completion_members(value, site, members, findings):
    # A member outside `members` that is not an `x-` extension, at itself.
    for member in value:
        if not member.startswith(EXTENSION_PREFIX) and member not in members:
            findings.error(
                COMPLETION_EXAMPLE_SHAPE,
                pointer(*site, member),
                "`%s` is not a member here" % member,
            )


def check_completion_example_shape(example, site, findings):
    if "argument" not in example or EXAMPLE_RESULT not in example:
        findings.error(
            COMPLETION_EXAMPLE_SHAPE,
            pointer(*site),
            "a completion example needs `argument` and `result`",
        )
    check_completion_members(example, site, COMPLETION_EXAMPLE_MEMBERS, findings)
    if "argument" in example:
        check_completion_argument(example["argument"], site + ("argument",), findings)
    if "context" in example:
        check_completion_context(example["context"], site + ("context",), findings)


def check_completion_argument(argument, site, findings):
    if not isinstance(argument, dict):
        findings.error(COMPLETION_EXAMPLE_SHAPE, pointer(*site), "`argument` must be an object")
        return
    if any(member not in argument for member in COMPLETION_ARGUMENT_MEMBERS):
        findings.error(
            COMPLETION_EXAMPLE_SHAPE, pointer(*site), "`argument` needs `name` and `value`"
        )
    for member in COMPLETION_ARGUMENT_MEMBERS:
        if member in argument and not isinstance(argument[member], str):
            findings.error(
                COMPLETION_EXAMPLE_SHAPE, pointer(*site, member), "`%s` must be a string" % member
            )
    check_completion_members(argument, site, COMPLETION_ARGUMENT_MEMBERS, findings)


def check_completion_context(context, site, findings):
    # An empty context is left out, so a context without `arguments` is wrong.
    if not isinstance(context, dict) or "arguments" not in context:
        findings.error(
            COMPLETION_EXAMPLE_SHAPE, pointer(*site), "`context` must be an object with `arguments`"
        )
        if not isinstance(context, dict):
            return
    check_completion_members(context, site, COMPLETION_CONTEXT_MEMBERS, findings)
    if "arguments" not in context:
        return
    arguments = context["arguments"]
    where = site + ("arguments",)
    if not isinstance(arguments, dict) or not arguments:
        findings.error(
            COMPLETION_EXAMPLE_SHAPE, pointer(*where), "`arguments` must be a non-empty object"
        )
        return
    for key, value in arguments.items():
        if not isinstance(value, str):
            findings.error(
                COMPLETION_EXAMPLE_SHAPE, pointer(*where, key), "a context value must be a string"
            )


def check_completion_target(example, site, targets, findings):
    """The completed argument and the context's keys against the Prompt's
    arguments or the template's variables; nothing when those are unknown
    (a template that does not parse)."""
    if targets is None:
        return
    argument = example.get("argument")
    completed = argument.get("name") if isinstance(argument, dict) else None
    if isinstance(completed, str) and completed not in targets:
        findings.error(
            COMPLETION_EXAMPLE_TARGET,
            pointer(*site, "argument", "name"),
            "the declaration has no argument `%s`" % completed,
        )
    context = example.get("context")
    arguments = context.get("arguments") if isinstance(context, dict) else None
    if not isinstance(arguments, dict):
        return
    for key in arguments:
        # A context may leave out required arguments; it never repeats the
        # completed one.
        if key not in targets or key == completed:
            findings.error(
                COMPLETION_EXAMPLE_TARGET,
                pointer(*site, "context", "arguments", key),
                "the context gives `%s`, which is not another argument" % key,
            )


def check_completion_result(result, locate, scope, revision, findings):
    if not isinstance(result, dict):
        findings.error(COMPLETION_EXAMPLE_RESULT, locate(), "the result must be an object")
        return
    check_completed_result(result, locate, findings)
    check_result_type(result, locate, scope, revision, findings)
    judge_meta(result, locate, META_ON_RESULT, scope, revision, findings)
    # Other members of the result and of `completion` are open.
    if "completion" not in result:
        findings.error(COMPLETION_EXAMPLE_RESULT, locate(), "the result has no `completion`")
        return
    completion = result["completion"]
    if not isinstance(completion, dict):
        findings.error(
            COMPLETION_EXAMPLE_RESULT, locate("completion"), "`completion` must be an object"
        )
        return
    if "values" not in completion:
        findings.error(
            COMPLETION_EXAMPLE_RESULT, locate("completion"), "`completion` has no `values`"
        )
    else:
        values = completion["values"]
        if not isinstance(values, list) or len(values) > MAX_COMPLETION_VALUES:
            findings.error(
                COMPLETION_EXAMPLE_RESULT,
                locate("completion", "values"),
                "`values` must be an array of at most %d strings" % MAX_COMPLETION_VALUES,
            )
        if isinstance(values, list):
            for index, value in enumerate(values):
                if not isinstance(value, str):
                    findings.error(
                        COMPLETION_EXAMPLE_RESULT,
                        locate("completion", "values", index),
                        "a completion value must be a string",
                    )
    if "total" in completion and not is_non_negative_integer(completion["total"]):
        findings.error(
            COMPLETION_EXAMPLE_RESULT,
            locate("completion", "total"),
            "`total` must be a non-negative integer",
        )
    if "hasMore" in completion and not isinstance(completion["hasMore"], bool):
        findings.error(
            COMPLETION_EXAMPLE_RESULT,
            locate("completion", "hasMore"),
            "`hasMore` must be a boolean",
        )


# --- Tool examples (Section 9.3 of 0.8.0) -----------------------------------
#
# A Tool example, inline or a `$componentRef` into `toolExamples` followed
# along its chain (every finding inside it then at the reference site), is
# an `input` object and a `result`, closed but for `x-` extensions. Its
# result is MCP's `CallToolResult`: content blocks, a boolean `isError`, and
# `structuredContent` only where the revision has it. Its input is judged
# against the Tool's `inputSchema`, and a success's structured content
# against its `outputSchema`: by JSON Schema 2020-12 evaluation from
# 2025-11-25 on, by the names `required` lists before it (with a warning
# when the schema says more than that shape).

TOOL_EXAMPLES = EXAMPLE_NAMESPACES["tools"]
TOOL_EXAMPLE_MEMBERS = ("input", "result")
EXAMPLE_INPUT = "input"
STRUCTURED_CONTENT = "structuredContent"
IS_ERROR = "isError"
# `structuredContent` exists from this revision on (as an object), and may
# be any JSON value from the next one that lets `outputSchema` have any root.
FIRST_STRUCTURED_CONTENT_REVISION = "2025-06-18"
# Before 2025-11-25 an evaluation is complete only against a schema made of
# these members, whose `properties` values are all empty objects.
LEGACY_EVALUATED_MEMBERS = frozenset({"type", "properties", "required"})

# What an evaluation concludes: the value is accepted, rejected, or it
# cannot be told (the schema does not compile, or asks what this evaluator
# does not implement).
ACCEPTED = "accepted"
REJECTED = "rejected"
UNDECIDED = "undecided"


def check_tool_examples(document, tool, at, scope, revision, findings):
    input_schema = resolved_schema(document, tool, INPUT_SCHEMA)
    output_schema = resolved_schema(document, tool, OUTPUT_SCHEMA)
    for name, written in example_map(tool, EXAMPLES_MEMBER).items():
        site = at + (EXAMPLES_MEMBER, name)
        if is_reference(written):
            example = resolve(document, written, TOOL_EXAMPLES)
            if example is ABSENT or not isinstance(example, dict):
                # The components suite's rules alone.
                continue
            locate = lambda *tokens, site=site: pointer(*site)
        else:
            example = written
            locate = lambda *tokens, site=site: pointer(*site, *tokens)
        if not check_tool_example_shape(example, locate, findings):
            continue
        if EXAMPLE_INPUT in example and isinstance(example[EXAMPLE_INPUT], dict):
            value = example[EXAMPLE_INPUT]
            where = within(locate, EXAMPLE_INPUT)
            check_example_input(value, input_schema, where, scope, revision, findings)
        if EXAMPLE_RESULT in example:
            result = example[EXAMPLE_RESULT]
            result_locate = within(locate, EXAMPLE_RESULT)
            if check_tool_result(result, result_locate, scope, revision, findings):
                check_structured_content(
                    result, output_schema, result_locate, scope, revision, findings
                )


def resolved_schema(document, tool, member):
    """The Tool's schema object at `member`, a Reference Object resolved;
    None when there is no schema object."""
    written = tool.get(member)
    schema = resolve(document, written, SCHEMAS) if is_reference(written) else written
    return schema if isinstance(schema, dict) else None


def check_tool_example_shape(example, locate, findings):
    """The example's own members; False when it is no object at all."""
    if not isinstance(example, dict):
        findings.error(TOOL_EXAMPLE_SHAPE, locate(), "a Tool example must be an object")
        return False
    for member in TOOL_EXAMPLE_MEMBERS:
        if member not in example:
            findings.error(TOOL_EXAMPLE_SHAPE, locate(), "the Tool example has no `%s`" % member)
    if EXAMPLE_INPUT in example and not isinstance(example[EXAMPLE_INPUT], dict):
        findings.error(TOOL_EXAMPLE_SHAPE, locate(EXAMPLE_INPUT), "`input` must be an object")
    for member in example:
        if not member.startswith(EXTENSION_PREFIX) and member not in TOOL_EXAMPLE_MEMBERS:
            findings.error(
                TOOL_EXAMPLE_SHAPE,
                locate(member),
                "`%s` is not a member of a Tool example" % member,
            )
    return True


def check_tool_result(result, locate, scope, revision, findings):
    """MCP's `CallToolResult`; True when the result is an object (whose
    structured content the structured content rule then judges)."""
    if not isinstance(result, dict):
        findings.error(TOOL_EXAMPLE_RESULT, locate(), "the result must be an object")
        return False
    check_completed_result(result, locate, findings)
    check_result_type(result, locate, scope, revision, findings)
    judge_meta(result, locate, META_ON_RESULT, scope, revision, findings)
    if "content" not in result:
        findings.error(TOOL_EXAMPLE_RESULT, locate(), "the result has no `content`")
    elif not isinstance(result["content"], list):
        findings.error(TOOL_EXAMPLE_RESULT, locate("content"), "`content` must be an array")
    else:
        for index, block in enumerate(result["content"]):
            where = within(locate, "content", index)
            check_content_block(block, where, scope, revision, findings)
            check_block_annotations(block, where, scope, revision, findings)
    if IS_ERROR in result and not isinstance(result[IS_ERROR], bool):
        findings.error(TOOL_EXAMPLE_RESULT, locate(IS_ERROR), "`isError` must be a boolean")
    problem = structured_content_problem(result, scope, revision)
    if problem is not None:
        findings.error(TOOL_EXAMPLE_RESULT, locate(STRUCTURED_CONTENT), problem)
    return True


def structured_content_problem(result, scope, revision):
    """What is wrong with the result's `structuredContent` under the case's
    revision, for a Tool that applies to it; None when nothing is."""
    if STRUCTURED_CONTENT not in result or not in_scope(scope, revision):
        return None
    if revision < FIRST_STRUCTURED_CONTENT_REVISION:
        return "MCP %s has no `structuredContent`" % revision
    if revision < ANY_OUTPUT_ROOT_SINCE and not isinstance(result[STRUCTURED_CONTENT], dict):
        return "`structuredContent` must be an object under MCP %s" % revision
    return None


def check_structured_content(result, schema, locate, scope, revision, findings):
    """An execution error carries no structured content, under every
    revision; a success of a Tool with an output schema carries structured
    content it accepts, under the revisions of the Tool's scope that define
    `outputSchema`, unless its structured content already breaks the
    result rule. A non-boolean `isError` is neither."""
    is_error = result.get(IS_ERROR, False)
    if is_error is True and STRUCTURED_CONTENT in result:
        findings.error(
            TOOL_EXAMPLE_STRUCTURED,
            locate(STRUCTURED_CONTENT),
            "an execution error carries no `structuredContent`",
        )
    # The rest is a success's: `isError` absent or false.
    if is_error is not False or schema is None:
        return
    if not in_scope(scope, revision) or revision < FIRST_STRUCTURED_CONTENT_REVISION:
        return
    if structured_content_problem(result, scope, revision) is not None:
        return
    if STRUCTURED_CONTENT not in result:
        findings.error(
            TOOL_EXAMPLE_STRUCTURED,
            locate(),
            "a success of a Tool with an `outputSchema` carries `structuredContent`",
        )
        return
    judge_against_schema(
        result[STRUCTURED_CONTENT],
        schema,
        within(locate, STRUCTURED_CONTENT),
        TOOL_EXAMPLE_STRUCTURED,
        revision,
        findings,
    )


def check_example_input(value, schema, locate, scope, revision, findings):
    if schema is None or not in_scope(scope, revision):
        return
    judge_against_schema(value, schema, locate, TOOL_EXAMPLE_INPUT, revision, findings)


def judge_against_schema(value, schema, locate, rule, revision, findings):
    """`value` against a Tool schema under the case's revision: one error
    of `rule` when it is rejected, one warning when the evaluation is
    incomplete, both at `locate()`."""
    if revision < FIRST_DIALECT_REVISION:
        if misses_required(value, schema):
            findings.error(rule, locate(), "a name `required` lists is missing")
        if not is_legacy_evaluable(schema):
            findings.warning(
                TOOL_EXAMPLE_INCOMPLETE,
                locate(),
                "MCP %s names no dialect: only `required` is enforced" % revision,
            )
        return
    if is_schema_in_error(schema):
        # The Tool schema rules report it; it judges no example.
        return
    evaluator = SchemaEvaluator(schema)
    verdict = evaluator.verdict(value) if evaluator.compiles() else UNDECIDED
    if verdict == REJECTED:
        findings.error(rule, locate(), "the schema rejects this value")
    elif verdict == UNDECIDED:
        findings.warning(
            TOOL_EXAMPLE_INCOMPLETE, locate(), "this value cannot be validated in full"
        )


def misses_required(value, schema):
    """Whether the object `value` lacks a name the schema's `required`
    lists (an input is an object; so is structured content, where the
    earlier revisions define it)."""
    required = schema.get("required")
    if not isinstance(required, list):
        return False
    return any(isinstance(name, str) and name not in value for name in required)


def is_legacy_evaluable(schema):
    """Whether `required` is all a schema of the earlier revisions says:
    nothing but `type`, `properties` and `required`, and no property
    constrained."""
    if not set(schema) <= LEGACY_EVALUATED_MEMBERS:
        return False
    properties = schema.get("properties", {})
    return isinstance(properties, dict) and all(
        isinstance(prop, dict) and not prop for prop in properties.values()
    )


def is_schema_in_error(schema):
    """A root dialect this validator does not support, or a schema the
    2020-12 meta-schema rejects."""
    if "$schema" in schema and not json_in(schema["$schema"], SUPPORTED_DIALECTS):
        return True
    return not is_valid_schema(schema)


# --- Resource and Resource Template examples (Section 10.4 of 0.8.0) --------
#
# A Resource example, inline or a `$componentRef` into `resourceExamples`
# (a template's into `resourceTemplateExamples`) followed along its chain,
# every finding inside it then at the reference site, is one
# `resources/read`: a static Resource's of its own URI (the example has no
# `uri`), a template's of a concrete `uri` the template expands to. Its
# result is MCP's `ReadResourceResult`, with the cache fields of 2026-07-28;
# an entry answering the requested URI with another MIME type than the
# declaration's, or (for a static Resource) another size, draws a warning.

STATIC_EXAMPLE_MEMBERS = ("result",)
TEMPLATE_EXAMPLE_MEMBERS = ("uri", "result")
EXAMPLE_URI = "uri"
CONTENTS = "contents"
# MCP's Resource Contents: a `uri`, exactly one of `text` and `blob`, and
# optionally `mimeType` and `_meta` (no `annotations`).
CONTENTS_MEMBERS = ("uri", "text", "blob", "mimeType", "_meta")
# MCP 2026-07-28's `CacheableResult`: how long, and how widely, a read
# result may be cached; the earlier revisions have neither field.
TTL = "ttlMs"
CACHE_SCOPE = "cacheScope"
CACHE_SCOPES = ("public", "private")
FIRST_CACHE_REVISION = "2026-07-28"
MEDIA_TYPE_PARAMETERS = ";"


def check_resource_examples(document, resource, at, kind, scope, revision, findings):
    template = kind == "resourceTemplates"
    namespace = EXAMPLE_NAMESPACES[kind]
    written_template = resource.get("uriTemplate")
    # A template that does not parse is its own rule's; nothing is matched.
    expandable = isinstance(written_template, str) and is_uri_template(written_template)
    for name, written in example_map(resource, EXAMPLES_MEMBER).items():
        site = at + (EXAMPLES_MEMBER, name)
        if is_reference(written):
            example = resolve(document, written, namespace)
            if example is ABSENT or not isinstance(example, dict):
                # The components suite's rules alone.
                continue
            locate = lambda *tokens, site=site: pointer(*site)
        else:
            example = written
            locate = lambda *tokens, site=site: pointer(*site, *tokens)
        if not check_resource_example_shape(example, locate, template, findings):
            continue
        if template:
            requested = example.get(EXAMPLE_URI)
            if not is_uri_string(requested):
                requested = None
            elif expandable and not expands_to(written_template, requested):
                findings.error(
                    TEMPLATE_EXPANSION,
                    locate(EXAMPLE_URI),
                    "`uriTemplate` cannot expand to this URI",
                )
        else:
            requested = resource.get("uri")
        if EXAMPLE_RESULT not in example:
            continue
        result_locate = within(locate, EXAMPLE_RESULT)
        entries = check_read_result(example[EXAMPLE_RESULT], result_locate, scope, revision, findings)
        for index, entry in entries:
            if not isinstance(requested, str) or entry.get("uri") != requested:
                continue  # another resource of a collection: not compared
            where = within(result_locate, CONTENTS, index)
            check_entry_mime_type(resource, entry, where, findings)
            if not template:
                check_entry_size(resource, entry, where, findings)


def check_resource_example_shape(example, locate, template, findings):
    """The example's own members; False when it is no object at all."""
    if not isinstance(example, dict):
        findings.error(RESOURCE_EXAMPLE_SHAPE, locate(), "a Resource example must be an object")
        return False
    members = TEMPLATE_EXAMPLE_MEMBERS if template else STATIC_EXAMPLE_MEMBERS
    for member in members:
        if member not in example:
            findings.error(
                RESOURCE_EXAMPLE_SHAPE, locate(), "the example has no `%s`" % member
            )
    for member in example:
        if not member.startswith(EXTENSION_PREFIX) and member not in members:
            # A static Resource's example has no `uri`: the Resource gives it.
            findings.error(
                RESOURCE_EXAMPLE_SHAPE,
                locate(member),
                "`%s` is not a member of this example" % member,
            )
    if template and EXAMPLE_URI in example and not is_uri_string(example[EXAMPLE_URI]):
        findings.error(
            RESOURCE_EXAMPLE_SHAPE, locate(EXAMPLE_URI), "`uri` must be a string holding a URI"
        )
    return True


def check_read_result(result, locate, scope, revision, findings):
    """MCP's `ReadResourceResult`; the (index, entry) of each entry that is
    an object, for the comparisons with the declaration."""
    if not isinstance(result, dict):
        findings.error(RESOURCE_EXAMPLE_RESULT, locate(), "the result must be an object")
        return []
    check_completed_result(result, locate, findings)
    check_result_type(result, locate, scope, revision, findings)
    judge_meta(result, locate, META_ON_RESULT, scope, revision, findings)
    check_cache_fields(result, locate, scope, revision, findings)
    if CONTENTS not in result:
        findings.error(RESOURCE_EXAMPLE_RESULT, locate(), "the result has no `contents`")
        return []
    contents = result[CONTENTS]
    if not isinstance(contents, list) or not contents:
        findings.error(
            RESOURCE_EXAMPLE_RESULT, locate(CONTENTS), "`contents` must be a non-empty array"
        )
        return []
    entries = []
    for index, entry in enumerate(contents):
        where = within(locate, CONTENTS, index)
        if not isinstance(entry, dict):
            findings.error(RESOURCE_EXAMPLE_RESULT, where(), "an entry must be an object")
            continue
        check_contents_entry(entry, where, findings)
        judge_meta(entry, where, META_ON_CONTENT, scope, revision, findings)
        entries.append((index, entry))
    return entries


def check_contents_entry(entry, locate, findings):
    if "uri" not in entry or ("text" in entry) == ("blob" in entry):
        findings.error(
            RESOURCE_EXAMPLE_RESULT,
            locate(),
            "an entry needs a `uri` and exactly one of `text` and `blob`",
        )
    for member, held in entry.items():
        if member not in CONTENTS_MEMBERS:
            # `annotations` among them: Resource Contents define none.
            findings.error(
                RESOURCE_EXAMPLE_RESULT, locate(member), "an entry has no `%s`" % member
            )
        elif member == "uri" and not is_uri_string(held):
            findings.error(RESOURCE_EXAMPLE_RESULT, locate(member), "`uri` must be a URI")
        elif member in ("text", "mimeType") and not isinstance(held, str):
            findings.error(
                RESOURCE_EXAMPLE_RESULT, locate(member), "`%s` must be a string" % member
            )
        elif member == "blob" and not is_base64(held):
            findings.error(RESOURCE_EXAMPLE_RESULT, locate(member), "`blob` must be base64")


def check_cache_fields(result, locate, scope, revision, findings):
    """Under the case's revision, for a declaration that applies to it."""
    if not in_scope(scope, revision):
        return
    if revision < FIRST_CACHE_REVISION:
        for member in (TTL, CACHE_SCOPE):
            if member in result:
                findings.error(
                    RESOURCE_CACHE_FIELDS,
                    locate(member),
                    "MCP %s has no `%s`" % (revision, member),
                )
        return
    if TTL not in result or CACHE_SCOPE not in result:
        findings.error(
            RESOURCE_CACHE_FIELDS,
            locate(),
            "MCP %s's read results have `ttlMs` and `cacheScope`" % revision,
        )
    if TTL in result and not (is_number(result[TTL]) and result[TTL] >= 0):
        findings.error(
            RESOURCE_CACHE_FIELDS, locate(TTL), "`ttlMs` must be a non-negative number"
        )
    if CACHE_SCOPE in result and not json_in(result[CACHE_SCOPE], CACHE_SCOPES):
        findings.error(
            RESOURCE_CACHE_FIELDS,
            locate(CACHE_SCOPE),
            "`cacheScope` must be \"public\" or \"private\"",
        )


def media_type_essence(value):
    """A MIME type's type and subtype, lower-cased, without parameters."""
    return value.partition(MEDIA_TYPE_PARAMETERS)[0].strip().lower()


def check_entry_mime_type(resource, entry, locate, findings):
    declared = resource.get("mimeType")
    given = entry.get("mimeType")
    if not isinstance(declared, str) or not isinstance(given, str):
        return
    if media_type_essence(declared) != media_type_essence(given):
        findings.warning(
            RESOURCE_EXAMPLE_MIME_TYPE,
            locate("mimeType"),
            "the declaration's MIME type is %s" % declared,
        )


def entry_length(entry):
    """The byte length of an entry's `text` (as UTF-8) or base64 `blob`;
    None when it has neither well formed, or both."""
    text, blob = entry.get("text"), entry.get("blob")
    if "text" in entry and "blob" in entry:
        return None
    if isinstance(text, str):
        try:
            return len(text.encode("utf-8"))
        except UnicodeEncodeError:
            return None  # a lone surrogate: the serialization rules'
    if is_base64(blob):
        return len(base64.b64decode(blob))
    return None


def check_entry_size(resource, entry, locate, findings):
    declared = resource.get("size")
    if not is_number(declared):
        return
    length = entry_length(entry)
    if length is not None and length != declared:
        findings.warning(
            RESOURCE_EXAMPLE_SIZE, locate(), "the declaration's size is %s bytes" % declared
        )


# --- JSON Schema 2020-12 evaluation -------------------------------------------
#
# A small evaluator of the validation and applicator vocabularies, for a
# schema the meta-schema check accepts. References resolve within the schema
# only (a JSON pointer or an anchor, from the root or from a subschema's
# `$id`); a schema with a `$ref` that does not resolve does not compile.
# `format` and the content keywords are annotations. Three outcomes: an
# assertion this evaluator cannot decide (`$dynamicRef`, a `pattern` Python
# cannot compile, a recursion that never reaches a value) makes its schema
# undecided rather than accepting, unless something else already rejects.

# Keywords that assert something this evaluator does not evaluate.
UNDECIDED_KEYWORDS = ("$dynamicRef",)


def schema_children(value):
    """The values at the schema positions directly below `value`."""
    children = []
    for keyword, held in value.items():
        if keyword in SCHEMA_KEYWORDS:
            children.append(held)
        elif keyword in SCHEMA_MAP_KEYWORDS and isinstance(held, dict):
            children.extend(held.values())
        elif keyword in SCHEMA_ARRAY_KEYWORDS and isinstance(held, list):
            children.extend(held)
    return children


def conjoin(verdicts):
    """All of the verdicts: rejected when one is, else undecided when one
    is, else accepted."""
    if REJECTED in verdicts:
        return REJECTED
    if UNDECIDED in verdicts:
        return UNDECIDED
    return ACCEPTED


def disjoin(verdicts):
    """At least one of the verdicts."""
    if ACCEPTED in verdicts:
        return ACCEPTED
    if UNDECIDED in verdicts:
        return UNDECIDED
    return REJECTED


def decided(holds):
    return ACCEPTED if holds else REJECTED


def is_integer_value(value):
    return is_number(value) and (isinstance(value, int) or value.is_integer())


TYPE_TESTS = {
    "null": lambda value: value is None,
    "boolean": lambda value: isinstance(value, bool),
    "integer": is_integer_value,
    "number": is_number,
    "string": lambda value: isinstance(value, str),
    "array": lambda value: isinstance(value, list),
    "object": lambda value: isinstance(value, dict),
}


def has_type(value, written):
    names = written if isinstance(written, list) else [written]
    return any(name in TYPE_TESTS and TYPE_TESTS[name](value) for name in names)


def is_multiple(value, divisor):
    """Whether `value` is an integer multiple of `divisor`; None when the
    arithmetic cannot tell."""
    if isinstance(value, int) and isinstance(divisor, int):
        return value % divisor == 0
    try:
        return decimal.Decimal(repr(value)) % decimal.Decimal(repr(divisor)) == 0
    except decimal.DecimalException:
        return None


def pattern_verdict(pattern, text):
    try:
        return decided(re.search(pattern, text) is not None)
    except (re.error, RecursionError):
        return UNDECIDED


def count_verdict(low, high, least, most):
    """Whether a count known to lie between `low` and `high` lies between
    `least` and `most` (None: no upper bound)."""
    fits_low = low >= least and (most is None or low <= most)
    fits_high = high >= least and (most is None or high <= most)
    if fits_low and fits_high:
        return ACCEPTED
    if high < least or (most is not None and low > most):
        return REJECTED
    return UNDECIDED


class SchemaEvaluator:
    """One Tool schema, ready to judge values against."""

    def __init__(self, root):
        self.root = root
        # The resource (the root, or a subschema with an `$id`) each object
        # subschema belongs to, by identity; subschemas by `$id` as written;
        # anchors by (resource identity, name); every `$ref` with its resource.
        self.resource_of = {}
        self.ids = {}
        self.anchors = {}
        self.references = []
        self.active = set()
        stack = [(root, root)]
        while stack:
            value, resource = stack.pop()
            if not isinstance(value, dict):
                continue
            if isinstance(value.get("$id"), str):
                resource = value
                self.ids[value["$id"]] = value
                self.ids[value["$id"].rstrip("#")] = value
            self.resource_of[id(value)] = resource
            for keyword in ("$anchor", "$dynamicAnchor"):
                if isinstance(value.get(keyword), str):
                    self.anchors[(id(resource), value[keyword])] = value
            if isinstance(value.get("$ref"), str):
                self.references.append((value["$ref"], resource))
            stack.extend((child, resource) for child in schema_children(value))

    def compiles(self):
        """Whether every `$ref` of the schema resolves within it."""
        return all(self.target(reference, resource) for reference, resource in self.references)

    def target(self, reference, resource):
        """The (schema, resource) a reference from `resource` names, or None."""
        base, _, fragment = reference.partition("#")
        if base:
            if base not in self.ids:
                return None  # another document: never retrieved
            resource = self.ids[base]
        fragment = urllib.parse.unquote(fragment)
        if fragment == "":
            found = resource
        elif fragment.startswith("/"):
            found = follow_pointer(resource, fragment)
        else:
            found = self.anchors.get((id(resource), fragment), ABSENT)
        if found is ABSENT or not isinstance(found, (dict, bool)):
            return None
        if isinstance(found, dict):
            resource = self.resource_of.get(id(found), resource)
        return found, resource

    def verdict(self, value):
        try:
            return self.evaluate(self.root, value, self.root)[0]
        except RecursionError:
            return UNDECIDED

    def evaluate(self, schema, value, resource):
        """(verdict, names of the properties evaluated, indices of the items
        evaluated): the annotations `unevaluated*` read, kept only when the
        schema accepts."""
        if schema is True:
            return ACCEPTED, set(), set()
        if schema is False:
            return REJECTED, set(), set()
        if not isinstance(schema, dict):
            return UNDECIDED, set(), set()
        resource = self.resource_of.get(id(schema), resource)
        key = (id(schema), id(value))
        if key in self.active:
            # The schema comes back to the same value without consuming it.
            return UNDECIDED, set(), set()
        self.active.add(key)
        try:
            verdict, names, indices = Evaluation(self, schema, value, resource).run()
        finally:
            self.active.discard(key)
        if verdict != ACCEPTED:
            return verdict, set(), set()
        return verdict, names, indices


# An array index in a JSON pointer: no sign, no leading zero.
ARRAY_INDEX = re.compile(r"0|[1-9][0-9]*")


def follow_pointer(value, fragment):
    """The value an RFC 6901 pointer names inside `value`, or ABSENT."""
    for token in fragment[1:].split("/"):
        token = token.replace("~1", "/").replace("~0", "~")
        if isinstance(value, dict) and token in value:
            value = value[token]
        elif isinstance(value, list) and ARRAY_INDEX.fullmatch(token) and int(token) < len(value):
            value = value[int(token)]
        else:
            return ABSENT
    return value


class Evaluation:
    """One schema object against one value."""

    def __init__(self, evaluator, schema, value, resource):
        self.evaluator = evaluator
        self.schema = schema
        self.value = value
        self.resource = resource
        self.verdicts = []
        self.names = set()
        self.indices = set()

    def sub(self, schema, value):
        return self.evaluator.evaluate(schema, value, self.resource)

    def adopt(self, outcome):
        """An in-place subschema's verdict, and its annotations when it
        accepts."""
        verdict, names, indices = outcome
        self.verdicts.append(verdict)
        self.names |= names
        self.indices |= indices

    def run(self):
        schema, value = self.schema, self.value
        for keyword in UNDECIDED_KEYWORDS:
            if keyword in schema:
                self.verdicts.append(UNDECIDED)
        self.references()
        self.assertions()
        self.applicators()
        if isinstance(value, dict):
            self.object_keywords()
        if isinstance(value, list):
            self.array_keywords()
        # `unevaluated*` last, once every other keyword has annotated.
        settled = conjoin(self.verdicts)
        if isinstance(value, dict) and "unevaluatedProperties" in schema:
            self.unevaluated_properties(settled)
        if isinstance(value, list) and "unevaluatedItems" in schema:
            self.unevaluated_items(settled)
        return conjoin(self.verdicts), self.names, self.indices

    def references(self):
        if "$ref" not in self.schema:
            return
        found = self.evaluator.target(self.schema["$ref"], self.resource)
        if found is None:
            self.verdicts.append(UNDECIDED)
            return
        target, resource = found
        self.adopt(self.evaluator.evaluate(target, self.value, resource))

    def assertions(self):
        schema, value = self.schema, self.value
        if "type" in schema:
            self.verdicts.append(decided(has_type(value, schema["type"])))
        if "enum" in schema:
            self.verdicts.append(decided(json_in(value, schema["enum"])))
        if "const" in schema:
            self.verdicts.append(decided(json_equal(value, schema["const"])))
        if is_number(value):
            self.number_keywords()
        if isinstance(value, str):
            self.string_keywords()

    def number_keywords(self):
        schema, value = self.schema, self.value
        bounds = (
            ("minimum", lambda bound: value >= bound),
            ("maximum", lambda bound: value <= bound),
            ("exclusiveMinimum", lambda bound: value > bound),
            ("exclusiveMaximum", lambda bound: value < bound),
        )
        for keyword, holds in bounds:
            if keyword in schema:
                self.verdicts.append(decided(holds(schema[keyword])))
        if "multipleOf" in schema:
            multiple = is_multiple(value, schema["multipleOf"])
            self.verdicts.append(UNDECIDED if multiple is None else decided(multiple))

    def string_keywords(self):
        schema, value = self.schema, self.value
        # Lengths count code points, as Python's strings do.
        if "minLength" in schema:
            self.verdicts.append(decided(len(value) >= schema["minLength"]))
        if "maxLength" in schema:
            self.verdicts.append(decided(len(value) <= schema["maxLength"]))
        if "pattern" in schema:
            self.verdicts.append(pattern_verdict(schema["pattern"], value))

    def applicators(self):
        schema, value = self.schema, self.value
        for sub in schema.get("allOf", []):
            self.adopt(self.sub(sub, value))
        if "anyOf" in schema:
            outcomes = [self.sub(sub, value) for sub in schema["anyOf"]]
            for outcome in outcomes:
                self.names |= outcome[1]
                self.indices |= outcome[2]
            self.verdicts.append(disjoin([outcome[0] for outcome in outcomes]))
        if "oneOf" in schema:
            self.one_of([self.sub(sub, value) for sub in schema["oneOf"]])
        if "not" in schema:
            inverse = {ACCEPTED: REJECTED, REJECTED: ACCEPTED, UNDECIDED: UNDECIDED}
            self.verdicts.append(inverse[self.sub(schema["not"], value)[0]])
        if "if" in schema:
            self.conditional()

    def one_of(self, outcomes):
        accepted = [outcome for outcome in outcomes if outcome[0] == ACCEPTED]
        undecided = any(outcome[0] == UNDECIDED for outcome in outcomes)
        if len(accepted) > 1:
            self.verdicts.append(REJECTED)
        elif undecided:
            self.verdicts.append(UNDECIDED)
        elif accepted:
            self.adopt(accepted[0])
        else:
            self.verdicts.append(REJECTED)

    def conditional(self):
        schema, value = self.schema, self.value
        condition = self.sub(schema["if"], value)
        if condition[0] == UNDECIDED:
            if "then" in schema or "else" in schema:
                self.verdicts.append(UNDECIDED)
            return
        # `if` asserts nothing itself; it annotates when it holds.
        self.names |= condition[1]
        self.indices |= condition[2]
        branch = "then" if condition[0] == ACCEPTED else "else"
        if branch in schema:
            self.adopt(self.sub(schema[branch], value))

    def object_keywords(self):
        schema, value = self.schema, self.value
        if "required" in schema:
            self.verdicts.append(decided(all(name in value for name in schema["required"])))
        if "minProperties" in schema:
            self.verdicts.append(decided(len(value) >= schema["minProperties"]))
        if "maxProperties" in schema:
            self.verdicts.append(decided(len(value) <= schema["maxProperties"]))
        for name, names in schema.get("dependentRequired", {}).items():
            if name in value:
                self.verdicts.append(decided(all(other in value for other in names)))
        for name, sub in schema.get("dependentSchemas", {}).items():
            if name in value:
                self.adopt(self.sub(sub, value))
        if "propertyNames" in schema:
            for name in value:
                self.verdicts.append(self.sub(schema["propertyNames"], name)[0])
        matched = set()
        properties = schema.get("properties", {})
        for name, sub in properties.items():
            if name in value:
                matched.add(name)
                self.verdicts.append(self.sub(sub, value[name])[0])
        for pattern, sub in schema.get("patternProperties", {}).items():
            for name in value:
                found = pattern_verdict(pattern, name)
                if found == UNDECIDED:
                    self.verdicts.append(UNDECIDED)
                elif found == ACCEPTED:
                    matched.add(name)
                    self.verdicts.append(self.sub(sub, value[name])[0])
        if "additionalProperties" in schema:
            for name in value:
                if name not in matched:
                    matched.add(name)
                    self.verdicts.append(self.sub(schema["additionalProperties"], value[name])[0])
        self.names |= matched

    def array_keywords(self):
        schema, value = self.schema, self.value
        if "minItems" in schema:
            self.verdicts.append(decided(len(value) >= schema["minItems"]))
        if "maxItems" in schema:
            self.verdicts.append(decided(len(value) <= schema["maxItems"]))
        if schema.get("uniqueItems") is True:
            repeated = any(
                json_equal(value[i], value[j])
                for i in range(len(value))
                for j in range(i + 1, len(value))
            )
            self.verdicts.append(decided(not repeated))
        prefix = schema.get("prefixItems", [])
        for index, sub in enumerate(prefix[: len(value)]):
            self.indices.add(index)
            self.verdicts.append(self.sub(sub, value[index])[0])
        if "items" in schema:
            for index in range(len(prefix), len(value)):
                self.indices.add(index)
                self.verdicts.append(self.sub(schema["items"], value[index])[0])
        if "contains" in schema:
            self.contains()

    def contains(self):
        schema, value = self.schema, self.value
        verdicts = [self.sub(schema["contains"], item)[0] for item in value]
        for index, verdict in enumerate(verdicts):
            if verdict == ACCEPTED:
                self.indices.add(index)
        low = verdicts.count(ACCEPTED)
        high = low + verdicts.count(UNDECIDED)
        least = schema.get("minContains", 1)
        most = schema.get("maxContains")
        self.verdicts.append(count_verdict(low, high, least, most))

    def unevaluated_properties(self, settled):
        if settled == UNDECIDED:
            # What the undecided subschemas evaluated is not known.
            self.verdicts.append(UNDECIDED)
            return
        rest = self.schema["unevaluatedProperties"]
        for name, held in self.value.items():
            if name not in self.names:
                self.verdicts.append(self.sub(rest, held)[0])
        self.names |= set(self.value)

    def unevaluated_items(self, settled):
        if settled == UNDECIDED:
            self.verdicts.append(UNDECIDED)
            return
        rest = self.schema["unevaluatedItems"]
        for index, item in enumerate(self.value):
            if index not in self.indices:
                self.verdicts.append(self.sub(rest, item)[0])
        self.indices |= set(range(len(self.value)))


# --- URI syntax (RFC 3986, syntax only; never retrieved) ------------------

_PCT = r"%[0-9A-Fa-f]{2}"
_UNRESERVED_SUB = r"A-Za-z0-9\-._~!$&'()*+,;="
_PCHAR = r"(?:[" + _UNRESERVED_SUB + r":@]|" + _PCT + r")"
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*")
_QUERY_OR_FRAGMENT = re.compile(r"(?:" + _PCHAR + r"|[/?])*")
_PATH = re.compile(r"(?:" + _PCHAR + r"|/)*")
_USERINFO = re.compile(r"(?:[" + _UNRESERVED_SUB + r":]|" + _PCT + r")*")
_REG_NAME = re.compile(r"(?:[" + _UNRESERVED_SUB + r"]|" + _PCT + r")*")
_PORT = re.compile(r"[0-9]*")
_IPV_FUTURE = re.compile(r"[vV][0-9A-Fa-f]+\.[" + _UNRESERVED_SUB + r":]+")
_HEX16 = re.compile(r"[0-9A-Fa-f]{1,4}")
_DEC_OCTET = re.compile(r"25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9]")


def is_uri(text):
    scheme_match = _SCHEME.match(text)
    if not scheme_match or text[scheme_match.end() : scheme_match.end() + 1] != ":":
        return False
    rest = text[scheme_match.end() + 1 :]
    rest, _, fragment = rest.partition("#") if "#" in rest else (rest, "", "")
    if not _QUERY_OR_FRAGMENT.fullmatch(fragment):
        return False
    rest, _, query = rest.partition("?") if "?" in rest else (rest, "", "")
    if not _QUERY_OR_FRAGMENT.fullmatch(query):
        return False
    if rest.startswith("//"):
        authority, slash, path = rest[2:].partition("/")
        return is_authority(authority) and bool(_PATH.fullmatch(slash + path))
    return bool(_PATH.fullmatch(rest))


def is_authority(authority):
    if "@" in authority:
        userinfo, _, authority = authority.rpartition("@")
        if not _USERINFO.fullmatch(userinfo):
            return False
    if authority.startswith("["):
        literal, bracket, port = authority[1:].partition("]")
        if not bracket or not (port == "" or port.startswith(":")):
            return False
        return is_ip_literal(literal) and bool(_PORT.fullmatch(port[1:]))
    host, _, port = authority.partition(":")
    return bool(_REG_NAME.fullmatch(host)) and bool(_PORT.fullmatch(port))


def is_ip_literal(literal):
    return bool(_IPV_FUTURE.fullmatch(literal)) or is_ipv6(literal)


def is_ipv4(text):
    parts = text.split(".")
    return len(parts) == 4 and all(_DEC_OCTET.fullmatch(p) for p in parts)


def is_ipv6(text):
    """RFC 3986 IPv6address: eight 16-bit pieces, the last two of which may
    be an IPv4 address, with at most one `::` standing for one or more
    zero pieces."""
    if text.count("::") > 1:
        return False
    head, double, tail = text.partition("::")
    head_parts = head.split(":") if head else []
    tail_parts = tail.split(":") if tail else []
    parts = head_parts + tail_parts
    pieces = len(parts)
    if parts and is_ipv4(parts[-1]):
        parts = parts[:-1]
        pieces += 1
    if not all(_HEX16.fullmatch(p) for p in parts):
        return False
    if double:
        return pieces <= 7
    return pieces == 8


# --- Form schemas -----------------------------------------------------------


def check_form_schema(document, declaration, site, scope, revision, findings):
    written = declaration.get("requestedSchema")
    referenced = is_reference(written)
    schema = resolve(document, written, SCHEMAS) if referenced else written
    if not isinstance(schema, dict):
        # No schema (mode-members), not an object (the shape rule), a broken
        # chain, or one ending at a component that is no object (the
        # components rules alone): the form is skipped.
        return
    at = site + ("requestedSchema",)
    # Inside a referenced schema every finding is reported at the reference
    # site: the component is not protocol-scoped and may be shared.
    if referenced:
        locate = lambda *tokens: pointer(*at)
    else:
        locate = lambda *tokens: pointer(*at, *tokens)
    check_vocabulary(schema, locate, findings)
    check_consistency(schema, locate, findings)
    if revision == NARROW_FORM_REVISION and in_scope(scope, revision):
        check_narrow_vocabulary(schema, at, findings)


# --- Vocabulary: the primitive forms some MCP revision defines --------------


def check_vocabulary(schema, locate, findings):
    if not is_valid_schema_root(schema):
        findings.error(VOCABULARY, locate(), "the form schema's root is not MCP's requested schema")
    properties = schema.get("properties")
    if not isinstance(properties, dict):
        return
    for name, prop in properties.items():
        if not is_primitive_form(prop):
            findings.error(
                VOCABULARY,
                locate("properties", name),
                "`%s` is not one of MCP's primitive form schemas" % name,
            )


def is_valid_schema_root(schema):
    if not set(schema) <= SCHEMA_ROOT_KEYWORDS:
        return False
    if "$schema" in schema and not isinstance(schema["$schema"], str):
        return False
    if schema.get("type") != "object" or not isinstance(schema.get("properties"), dict):
        return False
    return "required" not in schema or is_string_list(schema["required"])


def is_primitive_form(prop):
    if not isinstance(prop, dict):
        return False
    return any(form(prop) for form in PRIMITIVE_FORMS)


def has_only(prop, keywords):
    return set(prop) <= keywords | ANNOTATIONS and all(
        isinstance(prop.get(a, ""), str) for a in ANNOTATIONS
    )


def is_number_bound(prop, *keywords):
    return all(is_number(prop[k]) for k in keywords if k in prop)


def is_plain_string_form(prop):
    return (
        prop.get("type") == "string"
        and has_only(prop, {"type", "minLength", "maxLength", "format", "default"})
        and is_number_bound(prop, "minLength", "maxLength")
        and ("format" not in prop or (isinstance(prop["format"], str) and prop["format"] in STRING_FORMATS))
        and ("default" not in prop or isinstance(prop["default"], str))
    )


def is_number_form(prop):
    return (
        prop.get("type") in ("number", "integer")
        and has_only(prop, {"type", "minimum", "maximum", "default"})
        and is_number_bound(prop, "minimum", "maximum", "default")
    )


def is_boolean_form(prop):
    return (
        prop.get("type") == "boolean"
        and has_only(prop, {"type", "default"})
        and ("default" not in prop or isinstance(prop["default"], bool))
    )


def is_legacy_enum_form(prop):
    return (
        prop.get("type") == "string"
        and has_only(prop, {"type", "enum", "enumNames", "default"})
        and is_string_list(prop.get("enum"))
        and ("enumNames" not in prop or is_string_list(prop["enumNames"]))
        and ("default" not in prop or isinstance(prop["default"], str))
    )


def is_titled_choice_list(value):
    return isinstance(value, list) and all(
        isinstance(entry, dict)
        and set(entry) == {"const", "title"}
        and isinstance(entry["const"], str)
        and isinstance(entry["title"], str)
        for entry in value
    )


def is_titled_single_select_form(prop):
    return (
        prop.get("type") == "string"
        and has_only(prop, {"type", "oneOf", "default"})
        and is_titled_choice_list(prop.get("oneOf"))
        and ("default" not in prop or isinstance(prop["default"], str))
    )


def is_multi_select_items(items):
    if not isinstance(items, dict):
        return False
    untitled = set(items) == {"type", "enum"} and items["type"] == "string" and is_string_list(
        items["enum"]
    )
    titled = set(items) == {"anyOf"} and is_titled_choice_list(items["anyOf"])
    return untitled or titled


def is_multi_select_form(prop):
    return (
        prop.get("type") == "array"
        and has_only(prop, {"type", "items", "minItems", "maxItems", "default"})
        and is_multi_select_items(prop.get("items"))
        and is_number_bound(prop, "minItems", "maxItems")
        and ("default" not in prop or is_string_list(prop["default"]))
    )


PRIMITIVE_FORMS = [
    is_plain_string_form,
    is_number_form,
    is_boolean_form,
    is_legacy_enum_form,
    is_titled_single_select_form,
    is_multi_select_form,
]


# --- Consistency: a form that agrees with itself ----------------------------


def check_consistency(schema, locate, findings):
    properties = schema.get("properties")
    declared = properties if isinstance(properties, dict) else {}
    required = schema.get("required")
    # Only string entries are names; another entry is a vocabulary error.
    names = [name for name in required if isinstance(name, str)] if isinstance(required, list) else []
    if any(name not in declared for name in names):
        findings.error(CONSISTENCY, locate("required"), "`required` names an undeclared property")
    for name, prop in declared.items():
        if isinstance(prop, dict) and property_problem(prop):
            findings.error(CONSISTENCY, locate("properties", name), property_problem(prop))


def property_problem(prop):
    """What makes one property contradict itself, or None."""
    enum = prop.get("enum")
    names = prop.get("enumNames")
    if isinstance(enum, list) and isinstance(names, list) and len(enum) != len(names):
        return "`enumNames` must name every `enum` value once"
    if "default" in prop:
        choices = single_select_choices(prop)
        if choices is not None and not json_in(prop["default"], choices):
            return "the default is not one of the choices"
        choices = multi_select_choices(prop)
        # A default that is not a list has no values to look up: that is a
        # vocabulary error only.
        if choices is not None and (
            isinstance(prop["default"], list) and not all(json_in(v, choices) for v in prop["default"])
        ):
            return "a default value is not one of the item choices"
    for low, high in BOUND_PAIRS:
        if is_number(prop.get(low)) and is_number(prop.get(high)) and prop[low] > prop[high]:
            return "`%s` exceeds `%s`" % (low, high)
    return None


def single_select_choices(prop):
    if isinstance(prop.get("enum"), list):
        return prop["enum"]
    if isinstance(prop.get("oneOf"), list):
        return [c["const"] for c in prop["oneOf"] if isinstance(c, dict) and "const" in c]
    return None


def multi_select_choices(prop):
    items = prop.get("items")
    if not isinstance(items, dict):
        return None
    if isinstance(items.get("enum"), list):
        return items["enum"]
    if isinstance(items.get("anyOf"), list):
        return [c["const"] for c in items["anyOf"] if isinstance(c, dict) and "const" in c]
    return None


# --- The 2025-06-18 form vocabulary ----------------------------------------


def check_narrow_vocabulary(schema, at, findings):
    # One finding per declaration, at the schema (or the reference site).
    if "$schema" in schema or any(
        isinstance(prop, dict) and is_beyond_narrow_vocabulary(prop)
        for prop in properties_of(schema)
    ):
        findings.error(
            PROTOCOL_SHAPE, pointer(*at), "MCP %s does not define this form" % NARROW_FORM_REVISION
        )


def is_beyond_narrow_vocabulary(prop):
    return (
        prop.get("type") == "array"
        or "oneOf" in prop
        or ("default" in prop and prop.get("type") != "boolean")
    )


def properties_of(schema):
    properties = schema.get("properties")
    return properties.values() if isinstance(properties, dict) else []


# --- Source text: JSON (the serialization suite) ---------------------------
#
# Section 15.2 asks for RFC 8259 JSON, and the suite's decisions hold a JSON
# text to the data model: member names unique once their escapes are
# decoded, numbers a finite double can hold, strings that are Unicode text.
# Python's `json` reads RFC 8259's grammar, but it is lenient past it: it
# takes `NaN` and `Infinity`, keeps the last of a repeated name, lets an
# escape spell half a surrogate pair, and reads `1e400` as infinity. So the
# text is read with hooks that keep what it would throw away (each object
# as its list of members as written, each number beyond a double marked),
# then walked from the root, where every value has its pointer: the faults
# are reported there, and the plain value is built for the document rules.

BYTE_ORDER_MARK = "\ufeff"
# `json` pairs a high and a low surrogate escape into one character, so a
# surrogate code point left in a decoded string stands alone.
SURROGATE = re.compile("[\ud800-\udfff]")


class NotJson(ValueError):
    """A token RFC 8259 does not have, which `json` would accept."""


class Members(list):
    """An object as the text writes it: its (name, value) pairs, in order,
    repeated names included."""


class Beyond:
    """A well-formed number that no finite double holds."""


def refuse_constant(token):
    raise NotJson("`%s` is not a JSON value" % token)


def read_number(text, exact):
    # Read as the data model's double first: an integer wider than 64 bits
    # is finite, one past the largest double is not.
    if math.isinf(float(text)):
        return Beyond()
    return exact(text)


def read_fraction(text):
    return read_number(text, float)


def read_integer(text):
    return read_number(text, int)


JSON_TEXT = json.JSONDecoder(
    object_pairs_hook=Members,
    parse_float=read_fraction,
    parse_int=read_integer,
    parse_constant=refuse_constant,
)


def validate_json_text(text, revision, context):
    """The findings of a document given as JSON text: its serialization
    faults when it has any (a text at fault is not judged as a document),
    otherwise those of the value it writes."""
    findings = Findings()
    value = read_json_text(text, findings)
    if findings.items:
        return findings.items
    return validate(value, revision, context)


def read_json_text(text, findings):
    # A byte-order mark is not judged (the syntax rule's decisions).
    if text.startswith(BYTE_ORDER_MARK):
        text = text[len(BYTE_ORDER_MARK):]
    try:
        written = JSON_TEXT.decode(text)
    except (NotJson, json.JSONDecodeError) as error:
        # A JSONDecodeError says where: "<what>: line L column C (char N)".
        findings.error(SYNTAX, "", "not RFC 8259 JSON: %s" % error)
        return None
    return settle(written, (), findings)


def settle(written, at, findings):
    """The plain JSON value of what JSON_TEXT read at the pointer tokens
    `at`, with the faults in it reported in reading order."""
    if isinstance(written, Members):
        return settle_object(written, at, findings)
    if isinstance(written, list):
        return [settle(item, at + (index,), findings) for index, item in enumerate(written)]
    if isinstance(written, Beyond):
        findings.error(NON_FINITE, pointer(*at), "the number is beyond the range of a double")
    elif isinstance(written, str) and SURROGATE.search(written):
        findings.error(LONE_SURROGATE, pointer(*at), "the string holds half a UTF-16 surrogate pair")
    # A value at fault is returned as read: the findings then stand alone.
    return written


def settle_object(members, at, findings):
    value = {}
    for name, member in members:
        if SURROGATE.search(name):
            # The name has no pointer that decodes, and nor has anything
            # below it: the fault is the object's, and its value is not read.
            findings.error(
                LONE_SURROGATE, pointer(*at), "a member name holds half a UTF-16 surrogate pair"
            )
        else:
            if name in value:
                findings.error(DUPLICATE_KEY, pointer(*at, name), "`%s` is written twice in this object" % name)
            value[name] = settle(member, at + (name,), findings)
    return value
