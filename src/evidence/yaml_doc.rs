//! A YAML file a user wrote (an online deployment or job spec, a conda environment) as
//! JSON plus the line of every key, so a finding about a setting points at the line to
//! change. Parsed with serde-saphyr's spans; no I/O.

use std::collections::BTreeMap;
use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};
use serde_saphyr::Spanned;

use super::json_lines::escape_token;
use crate::yaml_error::YamlError;

/// A parsed YAML document: its value and the 1-based line of each key (by RFC 6901
/// pointer; for a list element, the line it starts on).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct YamlDoc {
    pub value: Value,
    pub lines: BTreeMap<String, u64>,
}

/// Parses `text` (one YAML document). An empty document is `null`.
pub(crate) fn parse(text: &str) -> Result<YamlDoc, YamlError> {
    if text.trim().is_empty() {
        return Ok(YamlDoc {
            value: Value::Null,
            lines: BTreeMap::new(),
        });
    }
    let tree: Spanned<Tree> =
        serde_saphyr::from_str(text).map_err(|e| YamlError::from_saphyr(&e))?;
    let mut lines = BTreeMap::new();
    lines.insert(String::new(), line(&tree));
    let value = to_json(tree.value, "", &mut lines);
    Ok(YamlDoc { value, lines })
}

fn line(node: &Spanned<Tree>) -> u64 {
    node.referenced.line().max(1)
}

fn to_json(tree: Tree, pointer: &str, lines: &mut BTreeMap<String, u64>) -> Value {
    match tree {
        Tree::Null => Value::Null,
        Tree::Bool(b) => Value::Bool(b),
        Tree::Int(i) => Value::Number(i.into()),
        Tree::UInt(u) => Value::Number(u.into()),
        Tree::Float(f) => Number::from_f64(f).map_or(Value::Null, Value::Number),
        Tree::Str(s) => Value::String(s),
        Tree::Seq(items) => Value::Array(
            items
                .into_iter()
                .enumerate()
                .map(|(i, item)| {
                    let p = format!("{pointer}/{i}");
                    lines.insert(p.clone(), line(&item));
                    to_json(item.value, &p, lines)
                })
                .collect(),
        ),
        Tree::Map(entries) => {
            let mut map = Map::new();
            for (key, value) in entries {
                let name = key_text(&key.value);
                let p = format!("{pointer}/{}", escape_token(&name));
                lines.insert(p.clone(), line(&key));
                let v = to_json(value.value, &p, lines);
                map.insert(name, v);
            }
            Value::Object(map)
        }
    }
}

/// A mapping key as text (`1: x` has the key `1`).
fn key_text(key: &Tree) -> String {
    match key {
        Tree::Null => "null".to_owned(),
        Tree::Bool(b) => b.to_string(),
        Tree::Int(i) => i.to_string(),
        Tree::UInt(u) => u.to_string(),
        Tree::Float(f) => f.to_string(),
        Tree::Str(s) => s.clone(),
        Tree::Seq(_) | Tree::Map(_) => "?".to_owned(),
    }
}

/// Any YAML node, with the spans of its children.
#[derive(Debug)]
enum Tree {
    Null,
    Bool(bool),
    Int(i64),
    UInt(u64),
    Float(f64),
    Str(String),
    Seq(Vec<Spanned<Tree>>),
    Map(Vec<(Spanned<Tree>, Spanned<Tree>)>),
}

struct TreeVisitor;

impl<'de> Visitor<'de> for TreeVisitor {
    type Value = Tree;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a YAML value")
    }

    fn visit_unit<E: de::Error>(self) -> Result<Tree, E> {
        Ok(Tree::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<Tree, E> {
        Ok(Tree::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Tree, D::Error> {
        Tree::deserialize(d)
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Tree, E> {
        Ok(Tree::Bool(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Tree, E> {
        Ok(Tree::Int(v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Tree, E> {
        Ok(Tree::UInt(v))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Tree, E> {
        Ok(Tree::Float(v))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Tree, E> {
        Ok(Tree::Str(v.to_owned()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Tree, E> {
        Ok(Tree::Str(v))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Tree, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Tree::Seq(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Tree, A::Error> {
        let mut entries = Vec::new();
        while let Some(key) = map.next_key()? {
            entries.push((key, map.next_value()?));
        }
        Ok(Tree::Map(entries))
    }
}

impl<'de> Deserialize<'de> for Tree {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Tree, D::Error> {
        d.deserialize_any(TreeVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn values_and_the_lines_of_their_keys() {
        let doc = parse(
            "# a comment\nname: blue\nmodel:\n  path: ./model\nrequest_settings:\n  request_timeout_ms: 90000\nenv: [a, 'b']\nprobe:\n  period: 10.5\nempty:\n",
        )
        .unwrap();
        assert_eq!(
            doc.value,
            json!({"name": "blue", "model": {"path": "./model"},
                   "request_settings": {"request_timeout_ms": 90000},
                   "env": ["a", "b"], "probe": {"period": 10.5}, "empty": null})
        );
        assert_eq!(doc.lines["/name"], 2);
        assert_eq!(doc.lines["/model"], 3);
        assert_eq!(doc.lines["/model/path"], 4);
        assert_eq!(doc.lines["/request_settings/request_timeout_ms"], 6);
        assert_eq!(doc.lines["/env/1"], 7);
        assert_eq!(doc.lines["/empty"], 10);
    }

    #[test]
    fn malformed_yaml_names_its_line() {
        let e = parse("a: 1\nb: [1, 2\nc: 3\n").unwrap_err();
        assert_eq!(e.line, Some(3), "{e}");
        assert!(!e.to_string().contains('\n'), "{e}");
        assert_eq!(parse("").unwrap().value, Value::Null);
        assert_eq!(parse("  \n").unwrap().value, Value::Null);
    }
}
