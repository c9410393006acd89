//! The JSON Schemas of `docs/schemas/` describe what really goes over the
//! wire, and the harness's strict decoder agrees with them.

use std::collections::BTreeMap;

use jsonschema::{Registry, Validator};
use mcpdesc_conformance::backend::wire;
use mcpdesc_conformance::outcome::failure::WireError;
use mcpdesc_protocol::{
    Command as Message, Diagnostic, HarnessInfo, Implementation, PROTOCOL_VERSION, Reply,
    ReplyMessage, Severity, Skip, Source, SourceFormat, SourceTextSupport, StartReply,
    ValidateRequest, ValidatorError,
};
use serde_json::{Value, json};

use super::*;

const NAMES: [&str; 10] = [
    "start",
    "start-reply",
    "validate",
    "reply",
    "oneshot-reply",
    "stop",
    "diagnostic",
    "implementation",
    "report",
    "statement",
];

/// Every schema, compiled offline: the `$ref`s between them resolve
/// through a registry of the files themselves, never the network.
pub(super) fn schemas() -> BTreeMap<&'static str, Validator> {
    let dir = workspace().join("docs/schemas");
    let mut documents = Vec::new();
    for name in NAMES {
        let path = dir.join(format!("{name}.json"));
        let text = fs::read_to_string(&path).unwrap();
        let schema: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            schema["$schema"], "https://json-schema.org/draft/2020-12/schema",
            "{name}"
        );
        if let Err(error) = jsonschema::meta::validate(&schema) {
            panic!("{name}.json is not a valid draft 2020-12 schema: {error}");
        }
        let id = schema["$id"].as_str().unwrap().to_owned();
        assert!(id.ends_with(&format!("/{name}.json")), "{name}: $id {id}");
        documents.push((name, id, schema));
    }
    let mut registry = Registry::new();
    for (_, id, schema) in &documents {
        registry = registry.add(id, schema.clone()).unwrap();
    }
    let registry = registry.prepare().unwrap();
    documents
        .iter()
        .map(|(name, _, schema)| {
            let validator = jsonschema::options()
                .offline()
                .with_registry(&registry)
                .build(schema)
                .unwrap_or_else(|error| panic!("{name}.json: {error}"));
            (*name, validator)
        })
        .collect()
}

#[track_caller]
pub(super) fn assert_valid(schemas: &BTreeMap<&str, Validator>, name: &str, message: &Value) {
    let errors: Vec<String> = schemas[name]
        .iter_errors(message)
        .map(|error| format!("{} at {}", error, error.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "{message}\ndoes not match {name}.json:\n{}",
        errors.join("\n")
    );
}

fn lines(path: &Path) -> Vec<Value> {
    fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// A real session, recorded on both sides of the reference validator
/// with `tee`: everything the harness sends and everything the
/// validator answers matches its schema.
#[test]
fn a_recorded_session_matches_the_schemas() {
    let schemas = schemas();
    let dir = tempfile::tempdir().unwrap();
    let sent = dir.path().join("sent.jsonl");
    let answered = dir.path().join("answered.jsonl");
    let validator = format!(
        "sh -c 'tee \"$0\" | \"$1\" --stdio | tee \"$2\"' '{}' '{}' '{}'",
        sent.display(),
        super::modes::reference_binary().display(),
        answered.display()
    );
    let output = harness()
        .args(["run", "--jobs", "1", "--validator", &validator])
        .args(["--filter", "document/expected-valid/minimal.json"])
        .args(["--filter", "document/expected-valid/legacy-revisions.json"])
        .args([
            "--filter",
            "document/expected-invalid/unknown-protocol-version.json",
        ])
        .args(["--filter", "*.yaml"])
        .args([
            "--filter",
            "elicitation/expected-invalid/elicitation-version-mismatch.json",
        ])
        .timeout(std::time::Duration::from_secs(120))
        .output()
        .unwrap();
    let stdout = stdout_of(&output);
    // Whether the suite passes does not matter here (it may be mid-edit).
    assert!(
        matches!(output.status.code(), Some(0..=2)),
        "{stdout}\n{}",
        stderr_of(&output)
    );
    let sent = lines(&sent);
    let answered = lines(&answered);
    let (first, rest) = sent.split_first().unwrap();
    let (last, requests) = rest.split_last().unwrap();
    assert_valid(&schemas, "start", first);
    assert_valid(&schemas, "stop", last);
    assert!(requests.len() > 5, "{requests:?}");
    for request in requests {
        assert_valid(&schemas, "validate", request);
    }
    let (start_reply, replies) = answered.split_first().unwrap();
    assert_valid(&schemas, "start-reply", start_reply);
    assert_valid(&schemas, "implementation", &start_reply["implementation"]);
    assert_eq!(replies.len(), requests.len());
    let mut diagnostics = 0;
    for (request, reply) in requests.iter().zip(replies) {
        assert_valid(&schemas, "reply", reply);
        assert_eq!(reply["seq"], request["seq"]);
        for diagnostic in reply["diagnostics"].as_array().unwrap() {
            assert_valid(&schemas, "diagnostic", diagnostic);
            diagnostics += 1;
        }
    }
    assert!(diagnostics > 0, "{replies:?}");
    assert_contains(&stdout, &[&format!("; {} cases", requests.len())]);
}

/// The reply forms a plain run does not produce: an `error` reply from
/// the reference validator's session mode, one-shot replies, and
/// `skipped`, serialized from the contract types.
#[test]
fn every_reply_form_matches_the_schemas() {
    let schemas = schemas();
    let binary = super::modes::reference_binary();
    let session = Command::new(binary)
        .arg("--stdio")
        .stdin(
            "{\"cmd\":\"start\",\"protocol\":1,\"harness\":{\"name\":\"t\",\"version\":\"0\"}}\n\
             {\"cmd\":\"validate\",\"seq\":5,\"revision\":\"1999-01-01\"}\n\
             {\"cmd\":\"stop\"}\n",
        )
        .timeout(std::time::Duration::from_secs(30))
        .output()
        .unwrap();
    let replies: Vec<Value> = stdout_of(&session)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(replies.len(), 2, "{replies:?}");
    assert_valid(&schemas, "start-reply", &replies[0]);
    assert_valid(&schemas, "reply", &replies[1]);
    assert_eq!(replies[1]["seq"], 5);
    assert!(replies[1]["error"]["message"].is_string(), "{}", replies[1]);

    for (document, revision) in [
        (
            "{\"mcpdesc\":\"0.9.0\",\"info\":{\"name\":\"x\",\"version\":\"1\"},\"protocolVersions\":[\"2025-06-18\"]}",
            "2025-06-18",
        ),
        ("{\"protocolVersions\":[\"2025-03-26\", 7]}", "2025-03-26"),
        ("not json", "2025-06-18"),
    ] {
        let output = Command::new(binary)
            .arg("--oneshot")
            .env("MCPDESC_REVISION", revision)
            .env("MCPDESC_SPECIFICATION", "0.9.0")
            .env("MCPDESC_CASE", "by-hand")
            .stdin(document)
            .timeout(std::time::Duration::from_secs(30))
            .output()
            .unwrap();
        let reply: Value = serde_json::from_str(stdout_of(&output).trim()).unwrap();
        assert_valid(&schemas, "oneshot-reply", &reply);
    }

    let skipped = ReplyMessage {
        seq: 3,
        reply: Reply::Skipped(Skip {
            reason: "not yet".into(),
            issue: Some("https://example.invalid/1".into()),
        }),
    };
    assert_valid(&schemas, "reply", &serde_json::to_value(&skipped).unwrap());
    for reply in [
        Reply::Diagnostics(vec![
            Diagnostic::new("r", "/a~1b", Severity::Warning).with_message("m"),
        ]),
        Reply::Skipped(Skip {
            reason: "no".into(),
            issue: None,
        }),
        Reply::Error(ValidatorError {
            message: "boom".into(),
        }),
    ] {
        assert_valid(
            &schemas,
            "oneshot-reply",
            &serde_json::to_value(&reply).unwrap(),
        );
        let message = ReplyMessage { seq: 9, reply };
        assert_valid(&schemas, "reply", &serde_json::to_value(&message).unwrap());
    }
}

/// The contract types, as the harness serializes them, match the
/// schemas of the messages it sends.
#[test]
fn the_contract_types_match_the_schemas() {
    let schemas = schemas();
    let start = Message::Start {
        protocol: PROTOCOL_VERSION,
        harness: HarnessInfo {
            name: "mcpdesc-conformance".into(),
            version: "0.1.0".into(),
        },
        revisions: Some(mcpdesc_conformance::suite::builtin_revisions()),
    };
    assert_valid(&schemas, "start", &serde_json::to_value(&start).unwrap());
    for revision in mcpdesc_conformance::suite::builtin_revisions().iter() {
        let validate = Message::Validate {
            seq: u64::MAX,
            request: ValidateRequest {
                case: "document/expected-valid/x.json".into(),
                specification: "0.9.0".into(),
                revision,
                document: json!(["any", "JSON"]).into(),
                source: None,
            },
        };
        assert_valid(
            &schemas,
            "validate",
            &serde_json::to_value(&validate).unwrap(),
        );
    }
    assert_valid(
        &schemas,
        "stop",
        &serde_json::to_value(Message::Stop).unwrap(),
    );
    // A serialization case: the text in `source`, and a null document.
    for format in [SourceFormat::Json, SourceFormat::Yaml] {
        let validate = Message::Validate {
            seq: 4,
            request: ValidateRequest {
                case: "serialization/expected-invalid/x.yaml".into(),
                specification: "0.9.0".into(),
                revision: "2025-06-18".parse().unwrap(),
                document: Value::Null.into(),
                source: Some(Source {
                    format,
                    text: "a: 1\na: 2\n".into(),
                }),
            },
        };
        let message = serde_json::to_value(&validate).unwrap();
        assert_eq!(message["document"], Value::Null, "{message}");
        assert_valid(&schemas, "validate", &message);
    }
    for wrong in [
        json!({"format": "toml", "text": "a = 1"}),
        json!({"format": "yaml"}),
        json!({"format": "yaml", "text": 7}),
    ] {
        let message = json!({"cmd": "validate", "seq": 1, "case": "c", "specification": "0.9.0",
                             "revision": "2025-06-18", "document": null, "source": wrong});
        assert!(!schemas["validate"].is_valid(&message), "{message}");
    }
    let with_a_document = json!({"cmd": "validate", "seq": 1, "case": "c",
        "specification": "0.9.0", "revision": "2025-06-18", "document": {},
        "source": {"format": "yaml", "text": "{}"}});
    assert!(
        !schemas["validate"].is_valid(&with_a_document),
        "a source case's document is null"
    );
    let reply = StartReply {
        protocol: PROTOCOL_VERSION,
        implementation: Implementation {
            name: "v".into(),
            version: "1".into(),
            revisions: vec!["2025-06-18".into()],
            ..Implementation::default()
        },
    };
    assert_valid(
        &schemas,
        "start-reply",
        &serde_json::to_value(&reply).unwrap(),
    );
    // Announcing source text: this version, and any other (which the
    // harness takes for no support), are within the contract.
    for support in [
        SourceTextSupport::of(&[SourceFormat::Json, SourceFormat::Yaml]),
        SourceTextSupport::of(&[]),
        SourceTextSupport {
            version: 2,
            formats: vec!["yaml".into(), "toml".into()],
        },
    ] {
        let reply = StartReply {
            protocol: PROTOCOL_VERSION,
            implementation: Implementation {
                source_text: Some(support),
                ..reply.implementation.clone()
            },
        };
        let message = serde_json::to_value(&reply).unwrap();
        assert!(
            message["implementation"]["sourceText"]["version"].is_u64(),
            "{message}"
        );
        assert_valid(&schemas, "start-reply", &message);
        assert_valid(&schemas, "implementation", &message["implementation"]);
    }
    let wrong = json!({"name": "v", "version": "1", "revisions": ["2025-06-18"],
                       "sourceText": {"version": "1", "formats": ["yaml"]}});
    assert!(!schemas["implementation"].is_valid(&wrong), "{wrong}");
}

/// Replies to a request with `"seq": 7`: whether the contract allows
/// each. The session-mode schema and `wire::decode_reply` must both say
/// so; with the `seq` taken away where there is one, so must the
/// one-shot schema and the one-shot decoder.
const REPLIES: &[(&str, bool)] = &[
    (r#"{"seq":7,"diagnostics":[]}"#, true),
    (
        r#"{"seq":7,"diagnostics":[{"rule":"r","path":"","severity":"error"}]}"#,
        true,
    ),
    (
        r#"{"seq":7,"diagnostics":[{"rule":"r","path":"/a~0b/~1/0","severity":"warning","message":"m"}]}"#,
        true,
    ),
    (
        r#"{"seq":7,"diagnostics":[{"rule":"r","path":"/","severity":"error","message":null}]}"#,
        true,
    ),
    (
        r#"{"seq":7,"diagnostics":[{"rule":"r","path":"/ü/😀/ x","severity":"error","extra":[1]}]}"#,
        true,
    ),
    (
        r#"{"seq":7,"diagnostics":[{"rule":"","path":"//","severity":"error"}]}"#,
        true,
    ),
    (
        r#"{"seq":7,"diagnostics":[],"note":{"anything":[1,2]}}"#,
        true,
    ),
    (r#"{"seq":7,"skipped":{"reason":"no"}}"#, true),
    (
        r#"{"seq":7,"skipped":{"reason":"no","issue":"https://x"}}"#,
        true,
    ),
    (
        r#"{"seq":7,"skipped":{"reason":"no","issue":null,"more":1}}"#,
        true,
    ),
    (r#"{"seq":7,"error":{"message":"boom"}}"#, true),
    (r#"{"error":{"message":"boom","code":3},"seq":7}"#, true),
    ("not json", false),
    ("", false),
    ("[]", false),
    ("\"reply\"", false),
    ("7", false),
    ("null", false),
    (r#"{"seq":7,"diagnostics":[]} trailing"#, false),
    (r#"{"seq":7}"#, false),
    (
        r#"{"seq":7,"diagnostics":[],"error":{"message":"x"}}"#,
        false,
    ),
    (
        r#"{"seq":7,"skipped":{"reason":"x"},"error":{"message":"x"}}"#,
        false,
    ),
    (
        r#"{"seq":7,"diagnostics":[],"skipped":{"reason":"x"}}"#,
        false,
    ),
    (r#"{"seq":7,"diagnostics":{}}"#, false),
    (r#"{"seq":7,"diagnostics":null}"#, false),
    (r#"{"seq":7,"diagnostics":"none"}"#, false),
    (r#"{"seq":7,"diagnostics":[null]}"#, false),
    (r#"{"seq":7,"diagnostics":[[]]}"#, false),
    (
        r#"{"seq":7,"diagnostics":[{"path":"","severity":"error"}]}"#,
        false,
    ),
    (
        r#"{"seq":7,"diagnostics":[{"rule":1,"path":"","severity":"error"}]}"#,
        false,
    ),
    (
        r#"{"seq":7,"diagnostics":[{"rule":"r","severity":"error"}]}"#,
        false,
    ),
    (
        r#"{"seq":7,"diagnostics":[{"rule":"r","path":3,"severity":"error"}]}"#,
        false,
    ),
    (
        r#"{"seq":7,"diagnostics":[{"rule":"r","path":"a/b","severity":"error"}]}"#,
        false,
    ),
    (
        r#"{"seq":7,"diagnostics":[{"rule":"r","path":"~1","severity":"error"}]}"#,
        false,
    ),
    (
        r#"{"seq":7,"diagnostics":[{"rule":"r","path":"/a~2","severity":"error"}]}"#,
        false,
    ),
    (
        r#"{"seq":7,"diagnostics":[{"rule":"r","path":"/a~","severity":"error"}]}"#,
        false,
    ),
    (r#"{"seq":7,"diagnostics":[{"rule":"r","path":""}]}"#, false),
    (
        r#"{"seq":7,"diagnostics":[{"rule":"r","path":"","severity":"fatal"}]}"#,
        false,
    ),
    (
        r#"{"seq":7,"diagnostics":[{"rule":"r","path":"","severity":"Error"}]}"#,
        false,
    ),
    (
        r#"{"seq":7,"diagnostics":[{"rule":"r","path":"","severity":null}]}"#,
        false,
    ),
    (
        r#"{"seq":7,"diagnostics":[{"rule":"r","path":"","severity":"error","message":3}]}"#,
        false,
    ),
    (
        r#"{"seq":7,"diagnostics":[{"rule":"r","path":"","severity":"error","message":["m"]}]}"#,
        false,
    ),
    (r#"{"seq":7,"skipped":{}}"#, false),
    (r#"{"seq":7,"skipped":"because"}"#, false),
    (r#"{"seq":7,"skipped":null}"#, false),
    (r#"{"seq":7,"skipped":{"reason":3}}"#, false),
    (r#"{"seq":7,"skipped":{"reason":"x","issue":3}}"#, false),
    (r#"{"seq":7,"error":"boom"}"#, false),
    (r#"{"seq":7,"error":{}}"#, false),
    (r#"{"seq":7,"error":{"message":null}}"#, false),
    (r#"{"seq":7,"error":null}"#, false),
];

/// Session-mode replies whose only fault is their `seq`.
const SEQS: &[(&str, bool)] = &[
    (r#"{"diagnostics":[]}"#, false),
    (r#"{"seq":"7","diagnostics":[]}"#, false),
    (r#"{"seq":null,"diagnostics":[]}"#, false),
    (r#"{"seq":-7,"diagnostics":[]}"#, false),
    (r#"{"seq":7.5,"diagnostics":[]}"#, false),
    (r#"{"seq":true,"diagnostics":[]}"#, false),
    (r#"{"seq":[7],"diagnostics":[]}"#, false),
];

/// Where the schema cannot say what the decoder checks: a `seq` written
/// with a fraction or an exponent is the integer 7 to JSON Schema, but
/// the harness wants it written as a plain integer (the schema says so
/// in words).
const SEQ_SPELLINGS: &[&str] = &[
    r#"{"seq":7.0,"diagnostics":[]}"#,
    r#"{"seq":7e0,"diagnostics":[]}"#,
];

fn schema_accepts(validator: &Validator, line: &str) -> bool {
    serde_json::from_str::<Value>(line).is_ok_and(|value| validator.is_valid(&value))
}

/// The same line without its `seq` member, when it is an object.
fn without_seq(line: &str) -> Option<String> {
    let mut value: Value = serde_json::from_str(line).ok()?;
    value.as_object_mut()?.remove("seq")?;
    Some(value.to_string())
}

#[test]
fn the_decoder_and_the_schemas_agree_on_replies() {
    let schemas = schemas();
    let mut disagreements = Vec::new();
    let mut check =
        |what: &str, line: &str, wanted: bool, schema: bool, decoder: Result<Reply, WireError>| {
            if schema != wanted || decoder.is_ok() != wanted {
                disagreements.push(format!(
                "{what} {line}\n    wanted {wanted}; schema says {schema}; decoder says {decoder:?}"
            ));
            }
        };
    for &(line, wanted) in REPLIES.iter().chain(SEQS) {
        check(
            "session",
            line,
            wanted,
            schema_accepts(&schemas["reply"], line),
            wire::decode_reply(line, Some(7)),
        );
    }
    for &(line, wanted) in REPLIES {
        let line = without_seq(line).unwrap_or_else(|| line.to_owned());
        check(
            "one-shot",
            &line,
            wanted,
            schema_accepts(&schemas["oneshot-reply"], &line),
            wire::decode_reply(&line, None),
        );
    }
    // In one-shot mode `seq` means nothing, whatever it holds.
    for &(line, _) in SEQS {
        check(
            "one-shot",
            line,
            true,
            schema_accepts(&schemas["oneshot-reply"], line),
            wire::decode_reply(line, None),
        );
    }
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
    for line in SEQ_SPELLINGS {
        assert!(schema_accepts(&schemas["reply"], line), "{line}");
        assert!(wire::decode_reply(line, Some(7)).is_err(), "{line}");
    }
}

/// Replies to `start`: whether the contract allows each.
const START_REPLIES: &[(&str, bool)] = &[
    (
        r#"{"protocol":1,"implementation":{"name":"v","version":"1","revisions":["2025-06-18"]}}"#,
        true,
    ),
    (
        r#"{"protocol":1,"implementation":{"name":"v","version":"1","language":"go","homepage":"https://h","issues":"https://i","specifications":["0.9.0"],"revisions":["2025-06-18","2025-11-25"],"rules":["mcpdesc.document.shape"]}}"#,
        true,
    ),
    (
        r#"{"protocol":1,"implementation":{"name":"v","version":"1","homepage":null,"issues":null,"rules":null,"revisions":["2099-01-01"]}}"#,
        true,
    ),
    (
        r#"{"protocol":1,"implementation":{"name":"","version":"","revisions":["x"],"extra":{}},"extra":true}"#,
        true,
    ),
    ("ready", false),
    ("[]", false),
    (
        r#"{"implementation":{"name":"v","version":"1","revisions":["2025-06-18"]}}"#,
        false,
    ),
    (
        r#"{"protocol":2,"implementation":{"name":"v","version":"1","revisions":["2025-06-18"]}}"#,
        false,
    ),
    (
        r#"{"protocol":"1","implementation":{"name":"v","version":"1","revisions":["2025-06-18"]}}"#,
        false,
    ),
    (r#"{"protocol":1}"#, false),
    (r#"{"protocol":1,"implementation":"v"}"#, false),
    (
        r#"{"protocol":1,"implementation":{"version":"1","revisions":["2025-06-18"]}}"#,
        false,
    ),
    (
        r#"{"protocol":1,"implementation":{"name":"v","revisions":["2025-06-18"]}}"#,
        false,
    ),
    (
        r#"{"protocol":1,"implementation":{"name":3,"version":"1","revisions":["2025-06-18"]}}"#,
        false,
    ),
    (
        r#"{"protocol":1,"implementation":{"name":"v","version":"1"}}"#,
        false,
    ),
    (
        r#"{"protocol":1,"implementation":{"name":"v","version":"1","revisions":[]}}"#,
        false,
    ),
    (
        r#"{"protocol":1,"implementation":{"name":"v","version":"1","revisions":"2025-06-18"}}"#,
        false,
    ),
    (
        r#"{"protocol":1,"implementation":{"name":"v","version":"1","revisions":[20250618]}}"#,
        false,
    ),
    (
        r#"{"protocol":1,"implementation":{"name":"v","version":"1","revisions":["2025-06-18"],"language":null}}"#,
        false,
    ),
    (
        r#"{"protocol":1,"implementation":{"name":"v","version":"1","revisions":["2025-06-18"],"specifications":null}}"#,
        false,
    ),
    (
        r#"{"protocol":1,"implementation":{"name":"v","version":"1","revisions":["2025-06-18"],"rules":"all"}}"#,
        false,
    ),
    (
        r#"{"protocol":1,"implementation":{"name":"v","version":"1","revisions":["2025-06-18"],"rules":[1]}}"#,
        false,
    ),
    (
        r#"{"protocol":1,"implementation":{"name":"v","version":"1","revisions":["2025-06-18"],"homepage":3}}"#,
        false,
    ),
];

#[test]
fn the_decoder_and_the_schema_agree_on_start_replies() {
    let schemas = schemas();
    let mut disagreements = Vec::new();
    for &(line, wanted) in START_REPLIES {
        let schema = schema_accepts(&schemas["start-reply"], line);
        let decoder = wire::decode_start(line);
        if schema != wanted || decoder.is_ok() != wanted {
            disagreements.push(format!(
                "{line}\n    wanted {wanted}; schema says {schema}; decoder says {decoder:?}"
            ));
        }
    }
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
}
