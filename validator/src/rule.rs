//! The IDs of the rules this validator checks, each defined exactly once.
//!
//! IDs starting with `mcp.` come from a requirement of the MCP protocol;
//! IDs starting with `mcpdesc.` come from the description format itself.

/// The root is an object holding `mcpdesc`, `info` (with non-empty string
/// `name` and `version`) and `protocolVersions`, each of the right type.
pub const DOCUMENT_SHAPE: &str = "mcpdesc.document.shape";

/// `mcpdesc` names the specification version this validator targets.
pub const DOCUMENT_SPECIFICATION_VERSION: &str = "mcpdesc.document.specification-version";

/// The root `protocolVersions` is non-empty and lists known revisions once each.
pub const PROTOCOL_VERSIONS_KNOWN: &str = "mcpdesc.protocol-versions.known";

/// Primitive collections are non-empty arrays of objects with their identity
/// members.
pub const PRIMITIVE_SHAPE: &str = "mcpdesc.primitive.shape";

/// An explicit primitive scope is a non-empty subset of the root scope.
pub const PRIMITIVE_PROTOCOL_SCOPE: &str = "mcpdesc.primitive.protocol-scope";

/// Declarations of one primitive (one Tool or Prompt `name`, Resource
/// `uri`, Resource Template `uriTemplate`) have pairwise-disjoint effective
/// scopes.
pub const PRIMITIVE_VARIANT_OVERLAP: &str = "mcpdesc.primitive.variant-overlap";

/// A warning: validation under a legacy revision is never complete.
pub const PROTOCOL_LEGACY_VALIDATION_INCOMPLETE: &str =
    "mcpdesc.protocol.legacy-validation-incomplete";

/// A primitive's `elicitations` is a non-empty array of objects.
pub const ELICITATION_DECLARATIONS: &str = "mcpdesc.elicitation.declarations";

/// A declaration has `name` and `message`, members of the declared types and
/// no member outside the declaration table except extensions.
pub const ELICITATION_SHAPE: &str = "mcpdesc.elicitation.shape";

/// A declaration `name` is made of letters, digits, `.`, `_` and `-` only.
pub const ELICITATION_NAME: &str = "mcpdesc.elicitation.name";

/// Declaration names are unique within one primitive.
pub const ELICITATION_NAME_UNIQUE: &str = "mcpdesc.elicitation.name-unique";

/// A declaration `mode` is present and exactly `"form"` or `"url"`.
pub const ELICITATION_MODE: &str = "mcpdesc.elicitation.mode";

/// `message`, `when`, `onDecline` and `onCancel` are not empty.
pub const ELICITATION_TEXT: &str = "mcpdesc.elicitation.text";

/// Form mode has a `requestedSchema` and no `url`; URL mode has no
/// `requestedSchema`.
pub const ELICITATION_MODE_MEMBERS: &str = "mcpdesc.elicitation.mode-members";

/// A URL-mode `url` is a syntactically valid RFC 3986 URI.
pub const ELICITATION_URL: &str = "mcpdesc.elicitation.url";

/// A form schema is a flat object of primitive schemas that some MCP revision
/// defines.
pub const ELICITATION_FORM_SCHEMA_VOCABULARY: &str = "mcp.elicitation.form-schema.vocabulary";

/// A form schema agrees with itself: required names, enum labels, defaults
/// and bounds.
pub const ELICITATION_FORM_SCHEMA_CONSISTENCY: &str = "mcpdesc.elicitation.form-schema.consistency";

/// Under MCP 2025-06-18, a form schema uses only what that revision defines.
pub const ELICITATION_FORM_SCHEMA_PROTOCOL_SHAPE: &str =
    "mcp.elicitation.form-schema.protocol-shape";

/// An explicit declaration scope is a non-empty subset of its primitive's
/// effective scope.
pub const ELICITATION_PROTOCOL_SCOPE: &str = "mcpdesc.elicitation.protocol-scope";

/// Elicitation is used only from MCP 2025-06-18, and URL mode only from
/// MCP 2025-11-25, in declarations and in Tool interaction steps.
pub const ELICITATION_PROTOCOL_VERSION: &str = "mcp.elicitation.protocol-version";

/// A text is well-formed JSON (RFC 8259) or YAML 1.2.
pub const SERIALIZATION_SYNTAX: &str = "mcpdesc.serialization.syntax";

/// A YAML stream holds exactly one document.
pub const SERIALIZATION_DOCUMENT_COUNT: &str = "mcpdesc.serialization.document-count";

/// Every YAML mapping key resolves to a string.
pub const SERIALIZATION_KEY_TYPE: &str = "mcpdesc.serialization.key-type";

/// No object or mapping has the same key twice.
pub const SERIALIZATION_DUPLICATE_KEY: &str = "mcpdesc.serialization.duplicate-key";

/// Every number is finite once read as a double.
pub const SERIALIZATION_NON_FINITE_NUMBER: &str = "mcpdesc.serialization.non-finite-number";

/// A YAML text carries no tag beyond the core tags of JSON-compatible values.
pub const SERIALIZATION_TAG: &str = "mcpdesc.serialization.tag";

/// A YAML text has no alias.
pub const SERIALIZATION_ALIAS: &str = "mcpdesc.serialization.alias";

/// Every string decodes to Unicode text: no lone UTF-16 surrogate.
pub const SERIALIZATION_LONE_SURROGATE: &str = "mcpdesc.serialization.lone-surrogate";

/// `_meta` stands only on objects of revisions that define it there.
pub const META_PROTOCOL_VERSION: &str = "mcp.meta.protocol-version";

/// `_meta` is an object whose keys follow MCP's key grammar.
pub const META_KEY: &str = "mcp.meta.key";

/// A warning: a `_meta` key under an MCP-reserved prefix that is not
/// recognized.
pub const META_RESERVED_KEY: &str = "mcp.meta.reserved-key";

/// A `_meta` key MCP defines stands only where MCP uses it (never a key of
/// requests or notifications), with the value MCP gives it.
pub const META_RESERVED_KEY_USE: &str = "mcp.meta.reserved-key-use";

/// The root `tags` is a non-empty array of Tag Objects with non-empty
/// string names.
pub const TAG_CATALOGUE: &str = "mcpdesc.tag.catalogue";

/// No two catalogue entries share a name.
pub const TAG_NAME_UNIQUE: &str = "mcpdesc.tag.name-unique";

/// A primitive's `tags` is a non-empty array of distinct strings.
pub const TAG_REFERENCE_LIST: &str = "mcpdesc.tag.reference-list";

/// With a root catalogue, every tag a primitive names is declared in it.
pub const TAG_DECLARED: &str = "mcpdesc.tag.declared";

/// A present `components` is a non-empty object of the five namespaces
/// and `x-` extensions; each namespace is a non-empty map of objects, and an
/// example component declares no `protocolVersions`.
pub const COMPONENT_STRUCTURE: &str = "mcpdesc.component.structure";

/// Every component name matches `^[A-Za-z0-9._-]+$`.
pub const COMPONENT_NAME: &str = "mcpdesc.component.name";

/// A Reference Object holds `$componentRef` alone, a string
/// `#/components/<namespace>/<name>` with a known namespace and a valid name.
pub const REFERENCE_SYNTAX: &str = "mcpdesc.reference.syntax";

/// A Reference Object names the namespace its place takes.
pub const REFERENCE_NAMESPACE: &str = "mcpdesc.reference.namespace";

/// The component a Reference Object names exists.
pub const REFERENCE_TARGET: &str = "mcpdesc.reference.target";

/// No chain of component references comes back to where it started.
pub const REFERENCE_CYCLE: &str = "mcpdesc.reference.cycle";

/// An `icons` list is a non-empty array of Icon Objects: a string `src`,
/// optional string `mimeType`, string-array `sizes` and `light` or `dark`
/// `theme`, and nothing else but `x-` extensions.
pub const ICON_SHAPE: &str = "mcpdesc.icon.shape";

/// A string member the specification types as a URI is an RFC 3986 URI.
pub const VALUE_URI: &str = "mcpdesc.value.uri";

/// A Tool's `interactionExamples` is a non-empty map of scenarios, each an
/// object with an object `input`, a non-empty `steps` array of steps with
/// `type`, `request` and `response` and the members of their kind, and an
/// object `result`; elicitation and roots payloads have their canonical
/// shapes.
pub const INTERACTION_SHAPE: &str = "mcpdesc.interaction.shape";

/// An interaction scenario's name matches `^[A-Za-z0-9._-]+$`.
pub const INTERACTION_NAME: &str = "mcpdesc.interaction.name";

/// An elicitation step's response agrees with its request: `content` on an
/// accepted form response only.
pub const INTERACTION_RESPONSE: &str = "mcpdesc.interaction.response";

/// An elicitation step's `declaration` names a declaration of the same
/// Tool, whose mode and form schema or known URL the request repeats.
pub const INTERACTION_DECLARATION: &str = "mcpdesc.interaction.declaration";

/// `transports` is a non-empty array of Transport Objects, each with a known
/// `type`, its kind's required member (`url` or `command`), members of the
/// declared types, and nothing outside its kind's table but
/// `protocolVersions`, `security` and `x-` extensions.
pub const TRANSPORT_SHAPE: &str = "mcpdesc.transport.shape";

/// An explicit transport scope is an array of strings, non-empty, naming
/// each revision once, and a subset of the root scope.
pub const TRANSPORT_PROTOCOL_SCOPE: &str = "mcpdesc.transport.protocol-scope";

/// With a non-empty `transports`, every root revision is served by some
/// transport.
pub const TRANSPORT_COVERAGE: &str = "mcpdesc.transport.coverage";

/// Streamable HTTP is used only from MCP 2025-03-26 on.
pub const TRANSPORT_PROTOCOL_VERSION: &str = "mcp.transport.protocol-version";

/// A warning: SSE applies to MCP 2025-03-26 or later, where it is legacy.
pub const TRANSPORT_LEGACY_SSE: &str = "mcp.transport.legacy-sse";

/// A present `securitySchemes` is a non-empty object of Security Scheme
/// Objects, each with a known `type`, its kind's required members of the
/// declared types (`in` one of `header`, `query`, `cookie`), and nothing
/// else but `description` and `x-` extensions.
pub const SECURITY_SCHEME_SHAPE: &str = "mcpdesc.security.scheme-shape";

/// Every security scheme name matches `^[A-Za-z0-9._-]+$`.
pub const SECURITY_SCHEME_NAME: &str = "mcpdesc.security.scheme-name";

/// An OAuth2 scheme's `flows` holds at least one of the four flows and
/// nothing else but `x-` extensions; each flow has `scopes` (names to
/// descriptions) and the URLs its kind requires.
pub const SECURITY_OAUTH_FLOWS: &str = "mcpdesc.security.oauth-flows";

/// A `security` value is an array of objects mapping names to arrays of
/// strings.
pub const SECURITY_REQUIREMENT_SHAPE: &str = "mcpdesc.security.requirement-shape";

/// Every name a security requirement uses is a root `securitySchemes` entry.
pub const SECURITY_SCHEME_REFERENCE: &str = "mcpdesc.security.scheme-reference";

/// A requirement lists each scope once.
pub const SECURITY_SCOPE_UNIQUE: &str = "mcpdesc.security.scope-unique";

/// A requirement of an HTTP or API-key scheme lists no scope.
pub const SECURITY_NON_OAUTH_SCOPES: &str = "mcpdesc.security.non-oauth-scopes";

/// A warning: an OAuth2 or OpenID Connect requirement uses a scope its
/// scheme does not list.
pub const SECURITY_UNCATALOGUED_SCOPE: &str = "mcpdesc.security.uncatalogued-scope";

/// `capabilities` is a non-empty array of Capabilities Objects, each with
/// the members of Section 8.2 of their types, closed `tools`, `resources`,
/// `prompts` and `tasks`, and nothing else but `protocolVersions` and `x-`
/// extensions.
pub const CAPABILITIES_SHAPE: &str = "mcpdesc.capabilities.shape";

/// An explicit Capabilities Object scope is an array of strings,
/// non-empty, naming each revision once, and a subset of the root scope.
pub const CAPABILITIES_PROTOCOL_SCOPE: &str = "mcpdesc.capabilities.protocol-scope";

/// At most one Capabilities Object applies to a revision.
pub const CAPABILITIES_SCOPE_OVERLAP: &str = "mcpdesc.capabilities.scope-overlap";

/// `completions` is used only from MCP 2025-03-26 on, core `tasks` only in
/// MCP 2025-11-25.
pub const CAPABILITIES_PROTOCOL_VERSION: &str = "mcp.capabilities.protocol-version";

/// A warning: `extensions` applies to a revision before MCP 2026-07-28.
pub const CAPABILITIES_EXTENSIONS_PRE_STANDARD: &str = "mcp.capabilities.extensions-pre-standard";

/// A warning: `logging` applies to MCP 2026-07-28, where it is deprecated.
pub const CAPABILITIES_LOGGING_DEPRECATED: &str = "mcp.capabilities.logging-deprecated";

/// An `extensions` map is a non-empty object whose keys are `prefix/name`
/// identifiers and whose values are objects.
pub const EXTENSIONS_IDENTIFIER: &str = "mcp.extensions.identifier";

/// A warning: an extension identifier under a prefix MCP reserves that the
/// validator's extension catalogue does not list.
pub const EXTENSIONS_RESERVED_IDENTIFIER: &str = "mcpdesc.extensions.reserved-identifier";

/// `clientRequirements` is a non-empty object without `protocolVersions`
/// whose capabilities and settings are objects (Section 8.5).
pub const CLIENT_REQUIREMENTS_SHAPE: &str = "mcpdesc.client-requirements.shape";

/// A client requirement names only capabilities and members the client
/// capabilities of each revision in the primitive's scope define.
pub const CLIENT_REQUIREMENTS_PROTOCOL_VERSION: &str = "mcp.client-requirements.protocol-version";

/// A warning: a client requirement names a capability or member its
/// revision deprecates.
pub const CLIENT_REQUIREMENTS_DEPRECATED: &str = "mcp.client-requirements.deprecated";

/// Common primitive members have their types: `title` and `description`
/// strings, `deprecated` a boolean, `mimeType` a string, `size` a number,
/// `outputSchema` an object.
pub const PRIMITIVE_MEMBERS: &str = "mcpdesc.primitive.members";

/// A primitive holds a member only when every revision of its effective
/// scope defines it (`title`, `outputSchema`, `annotations`, `execution`,
/// `icons`, a Prompt Argument's `title`).
pub const PRIMITIVE_PROTOCOL_VERSION: &str = "mcp.primitive.protocol-version";

/// A Tool's `inputSchema` has `type: "object"` at its root.
pub const TOOL_INPUT_SCHEMA_ROOT: &str = "mcp.tool.input-schema.root";

/// Before 2026-07-28, a Tool's `outputSchema` has `type: "object"` at its root.
pub const TOOL_OUTPUT_SCHEMA_ROOT: &str = "mcp.tool.output-schema.root";

/// Tool schemas declare `$schema` only from 2025-11-25 on, and then a
/// supported dialect.
pub const TOOL_SCHEMA_DIALECT: &str = "mcp.tool.schema-dialect";

/// From 2025-11-25 on, Tool schemas are valid under their dialect.
pub const TOOL_SCHEMA_VALID: &str = "mcp.tool.schema-valid";

/// Before 2025-11-25, Tool schemas have the legacy shape: `properties` an
/// object of objects, `required` an array of strings.
pub const TOOL_SCHEMA_LEGACY_SHAPE: &str = "mcp.tool.schema-legacy-shape";

/// A warning: a Tool schema refers to a target outside itself, which is
/// never retrieved, so its validation is incomplete.
pub const TOOL_SCHEMA_EXTERNAL_REF: &str = "mcpdesc.tool.schema-external-ref";

/// `x-mcp-header` is an HTTP token on a string, integer or boolean property
/// reached through `properties` alone.
pub const TOOL_MCP_HEADER: &str = "mcp.tool.mcp-header";

/// `x-mcp-header` values are unique case-insensitively within an `inputSchema`.
pub const TOOL_MCP_HEADER_UNIQUE: &str = "mcp.tool.mcp-header.unique";

/// `x-mcp-header` is used only by Tools that apply to 2026-07-28 and later
/// revisions alone.
pub const TOOL_MCP_HEADER_PROTOCOL_VERSION: &str = "mcp.tool.mcp-header.protocol-version";

/// Tool `annotations` is an object with a string `title` and boolean hints.
pub const TOOL_ANNOTATIONS: &str = "mcp.tool.annotations";

/// Tool `execution` is an object holding at most a known `taskSupport`.
pub const TOOL_EXECUTION: &str = "mcp.tool.execution";

/// A Prompt's `arguments` is a non-empty array of closed Prompt Argument
/// Objects with a string `name` and members of their types.
pub const PROMPT_ARGUMENTS: &str = "mcpdesc.prompt.arguments";

/// Resource Annotations: `audience` of `"user"` and `"assistant"`,
/// `priority` from 0 to 1, `lastModified` an ISO 8601 date and time.
pub const RESOURCE_ANNOTATIONS: &str = "mcp.resource.annotations";

/// Resource Annotations hold `lastModified` only from 2025-06-18 on.
pub const RESOURCE_ANNOTATIONS_PROTOCOL_VERSION: &str = "mcp.resource.annotations.protocol-version";

/// A Resource Template's `uriTemplate` is an RFC 6570 URI Template.
pub const RESOURCE_TEMPLATE_URI_TEMPLATE: &str = "mcpdesc.resource-template.uri-template";

/// A named example map (`examples` of any primitive, `completionExamples`
/// of a Prompt or Resource Template) is an object with at least one entry.
pub const EXAMPLE_MAP: &str = "mcpdesc.example.map";

/// Every name in a named example map is a local name.
pub const EXAMPLE_NAME: &str = "mcpdesc.example.name";

/// A named example's completed result holds no JSON-RPC envelope, request,
/// error or task member.
pub const EXAMPLE_COMPLETED_RESULT: &str = "mcpdesc.example.completed-result";

/// A named example's result has `resultType: "complete"` under 2026-07-28
/// and no `resultType` before it.
pub const EXAMPLE_RESULT_TYPE: &str = "mcp.example.result-type";

/// A Prompt Example Object holds a `result`, string `arguments` and no other
/// member but `x-` extensions.
pub const PROMPT_EXAMPLE_SHAPE: &str = "mcpdesc.prompt-example.shape";

/// A Prompt example's arguments are declared by its Prompt, the required
/// ones all given.
pub const PROMPT_EXAMPLE_ARGUMENTS: &str = "mcpdesc.prompt-example.arguments";

/// A Prompt example's result is a completed `GetPromptResult`: messages
/// with a role and a content block.
pub const PROMPT_EXAMPLE_RESULT: &str = "mcp.prompt-example.result";

/// A content block in a named example has a type its revision defines and
/// the members of that type.
pub const CONTENT_BLOCK: &str = "mcp.content-block";

/// A Completion Example Object has an `argument` of string `name` and
/// `value`, a `result`, a `context` of non-empty string `arguments` when
/// present, and no other member but `x-` extensions.
pub const COMPLETION_EXAMPLE_SHAPE: &str = "mcpdesc.completion-example.shape";

/// A completion example completes an argument of its Prompt or a variable
/// of its Resource Template, in a context of its other ones.
pub const COMPLETION_EXAMPLE_TARGET: &str = "mcpdesc.completion-example.target";

/// A completion example's result is a completed `CompleteResult`.
pub const COMPLETION_EXAMPLE_RESULT: &str = "mcp.completion-example.result";

/// A completion example has a `context` only from 2025-06-18 on.
pub const COMPLETION_EXAMPLE_PROTOCOL_VERSION: &str = "mcp.completion-example.protocol-version";

/// A Tool Example Object holds an object `input`, a `result` and no other
/// member but `x-` extensions.
pub const TOOL_EXAMPLE_SHAPE: &str = "mcpdesc.tool-example.shape";

/// A Tool example's result is a completed `CallToolResult`: content blocks,
/// a boolean `isError`, and `structuredContent` as its revision defines it.
pub const TOOL_EXAMPLE_RESULT: &str = "mcp.tool-example.result";

/// A Tool example's `input` is accepted by the Tool's input schema.
pub const TOOL_EXAMPLE_INPUT: &str = "mcpdesc.tool-example.input";

/// A successful Tool example of a Tool with an `outputSchema` has
/// `structuredContent` that the schema accepts; an execution error has none.
pub const TOOL_EXAMPLE_STRUCTURED_CONTENT: &str = "mcpdesc.tool-example.structured-content";

/// A Tool example could not be completely validated against a Tool schema
/// (a warning).
pub const TOOL_EXAMPLE_INCOMPLETE_VALIDATION: &str = "mcpdesc.tool-example.incomplete-validation";

/// A Resource example holds a `result`, a template's example also a URI
/// `uri`, and no other member but `x-` extensions.
pub const RESOURCE_EXAMPLE_SHAPE: &str = "mcpdesc.resource-example.shape";

/// A Resource example's result is a completed `ReadResourceResult`: a
/// non-empty `contents` array of Resource Contents.
pub const RESOURCE_EXAMPLE_RESULT: &str = "mcp.resource-example.result";

/// A Resource example's result has `ttlMs` and `cacheScope` under MCP
/// 2026-07-28 and neither before it.
pub const RESOURCE_EXAMPLE_CACHE_FIELDS: &str = "mcp.resource-example.cache-fields";

/// A Resource Template example's `uri` is an expansion of the template.
pub const RESOURCE_TEMPLATE_EXAMPLE_EXPANSION: &str = "mcpdesc.resource-template-example.expansion";

/// A warning: an example's entry for the requested URI has another MIME
/// type than its declaration.
pub const RESOURCE_EXAMPLE_MIME_TYPE: &str = "mcpdesc.resource-example.mime-type";

/// A warning: an example's entry for a static Resource's URI does not have
/// the Resource's `size`.
pub const RESOURCE_EXAMPLE_SIZE: &str = "mcpdesc.resource-example.size";

/// A warning: a scenario step uses a client capability its Tool's explicit
/// `clientRequirements` leave out.
pub const INTERACTION_CLIENT_REQUIREMENTS: &str = "mcpdesc.interaction.client-requirements";

/// A sampling step's request and response are the native
/// `sampling/createMessage` parameters and result of its revisions.
pub const INTERACTION_SAMPLING_STEP: &str = "mcp.interaction.sampling-step";

/// Every rule this validator implements, sorted by ID.
pub const ALL: &[&str] = &[
    CAPABILITIES_EXTENSIONS_PRE_STANDARD,
    CAPABILITIES_LOGGING_DEPRECATED,
    CAPABILITIES_PROTOCOL_VERSION,
    CLIENT_REQUIREMENTS_DEPRECATED,
    CLIENT_REQUIREMENTS_PROTOCOL_VERSION,
    COMPLETION_EXAMPLE_PROTOCOL_VERSION,
    COMPLETION_EXAMPLE_RESULT,
    CONTENT_BLOCK,
    ELICITATION_FORM_SCHEMA_PROTOCOL_SHAPE,
    ELICITATION_FORM_SCHEMA_VOCABULARY,
    ELICITATION_PROTOCOL_VERSION,
    EXAMPLE_RESULT_TYPE,
    EXTENSIONS_IDENTIFIER,
    INTERACTION_SAMPLING_STEP,
    META_KEY,
    META_PROTOCOL_VERSION,
    META_RESERVED_KEY,
    META_RESERVED_KEY_USE,
    PRIMITIVE_PROTOCOL_VERSION,
    PROMPT_EXAMPLE_RESULT,
    RESOURCE_EXAMPLE_CACHE_FIELDS,
    RESOURCE_EXAMPLE_RESULT,
    RESOURCE_ANNOTATIONS,
    RESOURCE_ANNOTATIONS_PROTOCOL_VERSION,
    TOOL_EXAMPLE_RESULT,
    TOOL_ANNOTATIONS,
    TOOL_EXECUTION,
    TOOL_INPUT_SCHEMA_ROOT,
    TOOL_MCP_HEADER,
    TOOL_MCP_HEADER_PROTOCOL_VERSION,
    TOOL_MCP_HEADER_UNIQUE,
    TOOL_OUTPUT_SCHEMA_ROOT,
    TOOL_SCHEMA_DIALECT,
    TOOL_SCHEMA_LEGACY_SHAPE,
    TOOL_SCHEMA_VALID,
    TRANSPORT_LEGACY_SSE,
    TRANSPORT_PROTOCOL_VERSION,
    CAPABILITIES_PROTOCOL_SCOPE,
    CAPABILITIES_SCOPE_OVERLAP,
    CAPABILITIES_SHAPE,
    CLIENT_REQUIREMENTS_SHAPE,
    COMPLETION_EXAMPLE_SHAPE,
    COMPLETION_EXAMPLE_TARGET,
    COMPONENT_NAME,
    COMPONENT_STRUCTURE,
    DOCUMENT_SHAPE,
    DOCUMENT_SPECIFICATION_VERSION,
    ELICITATION_DECLARATIONS,
    ELICITATION_FORM_SCHEMA_CONSISTENCY,
    ELICITATION_MODE,
    ELICITATION_MODE_MEMBERS,
    ELICITATION_NAME,
    ELICITATION_NAME_UNIQUE,
    ELICITATION_PROTOCOL_SCOPE,
    ELICITATION_SHAPE,
    ELICITATION_TEXT,
    ELICITATION_URL,
    EXAMPLE_COMPLETED_RESULT,
    EXAMPLE_MAP,
    EXAMPLE_NAME,
    EXTENSIONS_RESERVED_IDENTIFIER,
    ICON_SHAPE,
    INTERACTION_CLIENT_REQUIREMENTS,
    INTERACTION_DECLARATION,
    INTERACTION_NAME,
    INTERACTION_RESPONSE,
    INTERACTION_SHAPE,
    PRIMITIVE_MEMBERS,
    PRIMITIVE_PROTOCOL_SCOPE,
    PRIMITIVE_SHAPE,
    PRIMITIVE_VARIANT_OVERLAP,
    PROMPT_EXAMPLE_ARGUMENTS,
    PROMPT_EXAMPLE_SHAPE,
    PROMPT_ARGUMENTS,
    PROTOCOL_VERSIONS_KNOWN,
    PROTOCOL_LEGACY_VALIDATION_INCOMPLETE,
    REFERENCE_CYCLE,
    REFERENCE_NAMESPACE,
    REFERENCE_SYNTAX,
    REFERENCE_TARGET,
    RESOURCE_EXAMPLE_MIME_TYPE,
    RESOURCE_EXAMPLE_SHAPE,
    RESOURCE_EXAMPLE_SIZE,
    RESOURCE_TEMPLATE_EXAMPLE_EXPANSION,
    RESOURCE_TEMPLATE_URI_TEMPLATE,
    SECURITY_NON_OAUTH_SCOPES,
    SECURITY_OAUTH_FLOWS,
    SECURITY_REQUIREMENT_SHAPE,
    SECURITY_SCHEME_NAME,
    SECURITY_SCHEME_REFERENCE,
    SECURITY_SCHEME_SHAPE,
    SECURITY_SCOPE_UNIQUE,
    SECURITY_UNCATALOGUED_SCOPE,
    SERIALIZATION_ALIAS,
    SERIALIZATION_DOCUMENT_COUNT,
    SERIALIZATION_DUPLICATE_KEY,
    SERIALIZATION_KEY_TYPE,
    SERIALIZATION_LONE_SURROGATE,
    SERIALIZATION_NON_FINITE_NUMBER,
    SERIALIZATION_SYNTAX,
    SERIALIZATION_TAG,
    TAG_CATALOGUE,
    TAG_DECLARED,
    TAG_NAME_UNIQUE,
    TAG_REFERENCE_LIST,
    TOOL_EXAMPLE_INCOMPLETE_VALIDATION,
    TOOL_EXAMPLE_INPUT,
    TOOL_EXAMPLE_SHAPE,
    TOOL_EXAMPLE_STRUCTURED_CONTENT,
    TOOL_SCHEMA_EXTERNAL_REF,
    TRANSPORT_COVERAGE,
    TRANSPORT_PROTOCOL_SCOPE,
    TRANSPORT_SHAPE,
    VALUE_URI,
];

#[cfg(test)]
mod tests {
    use super::ALL;

    #[test]
    fn ids_are_sorted_and_unique() {
        assert!(ALL.windows(2).all(|pair| pair[0] < pair[1]), "{ALL:?}");
    }

    #[test]
    fn ids_carry_an_owner_prefix() {
        for id in ALL {
            assert!(id.starts_with("mcp.") || id.starts_with("mcpdesc."), "{id}");
        }
    }
}
