//! Packages an environment pins (or floors) at a release that needs a newer Python than
//! the environment's: pip then finds no matching distribution (or conda no solution),
//! and the image build fails long after the deploy started.
//!
//! The table holds, for common inference packages, the first release at which the
//! lowest supported Python went up (from each project's release notes and packaging
//! files; only transitions stated there for that exact release are listed). It knows
//! nothing of a package it does not list, and says nothing about it.

use std::str::FromStr;

use pep440_rs::{Operator, Version, VersionSpecifiers};

use super::environment::{Package, PythonEnvironment};
use crate::finding::{Change, Computed, Edit, Evidence};

/// The rule of [`check`].
pub(crate) const RULE_ID: &str = "env-package-needs-newer-python";

/// `(package, first release, the lowest Python it supports)`, ascending per package.
const TRANSITIONS: &[(&str, &str, &str)] = &[
    ("numpy", "1.19.0", "3.6"),
    ("numpy", "1.22.0", "3.8"),
    ("numpy", "1.25.0", "3.9"),
    ("numpy", "2.1.0", "3.10"),
    ("numpy", "2.3.0", "3.11"),
    ("pandas", "1.4.0", "3.8"),
    ("pandas", "2.1.0", "3.9"),
    ("pandas", "3.0.0", "3.11"),
    ("scipy", "1.5.0", "3.6"),
    ("scipy", "1.6.0", "3.7"),
    ("scipy", "1.8.0", "3.8"),
    ("scipy", "1.11.0", "3.9"),
    ("scipy", "1.14.0", "3.10"),
    ("scipy", "1.16.0", "3.11"),
    ("scikit-learn", "0.21.0", "3.5"),
    ("scikit-learn", "0.23.0", "3.6"),
    ("scikit-learn", "1.0.0", "3.7"),
    ("scikit-learn", "1.1.0", "3.8"),
    ("scikit-learn", "1.4.0", "3.9"),
    ("scikit-learn", "1.7.0", "3.10"),
    ("scikit-learn", "1.8.0", "3.11"),
    ("matplotlib", "3.0.0", "3.5"),
    ("matplotlib", "3.1.0", "3.6"),
    ("matplotlib", "3.4.0", "3.7"),
    ("matplotlib", "3.6.0", "3.8"),
    ("matplotlib", "3.8.0", "3.9"),
    ("matplotlib", "3.10.0", "3.10"),
    ("torch", "2.0.0", "3.8"),
    ("tensorflow", "2.12.0", "3.8"),
    ("tensorflow", "2.14.0", "3.9"),
    ("tensorflow", "2.21.0", "3.10"),
    ("xgboost", "3.0.0", "3.10"),
    ("lightgbm", "4.4.0", "3.7"),
    ("azureml-inference-server-http", "0.8.0", "3.7"),
    ("azureml-inference-server-http", "1.4.0", "3.9"),
    ("azure-ai-ml", "1.0.0", "3.7"),
    ("pydantic", "2.6.0", "3.8"),
    ("fastapi", "0.84.0", "3.7"),
    ("fastapi", "0.104.0", "3.8"),
    ("fastapi", "0.125.0", "3.9"),
    ("pillow", "7.0.0", "3.5"),
    ("pillow", "8.0.0", "3.6"),
    ("pillow", "9.0.0", "3.7"),
    ("pillow", "10.0.0", "3.8"),
    ("pillow", "11.0.0", "3.9"),
    ("pillow", "12.0.0", "3.10"),
];

/// The lowest Python that release `version` of `package` supports, if the table knows.
pub(crate) fn minimum_python(package: &str, version: &Version) -> Option<&'static str> {
    TRANSITIONS
        .iter()
        .rev()
        .find(|(p, first, _)| {
            *p == package && Version::from_str(first).is_ok_and(|f| *version >= f)
        })
        .map(|(_, _, python)| *python)
}

/// The lowest release a requirement lets the installer pick: its pin, else the
/// greatest lower bound of its specifiers (`>=2.1`, `~=1.4`, `==1.26.*`).
fn lowest_allowed(p: &Package) -> Option<Version> {
    if let Some(v) = &p.version {
        return Version::from_str(v).ok();
    }
    let specs = VersionSpecifiers::from_str(p.specifier.trim()).ok()?;
    specs
        .iter()
        .filter(|s| {
            matches!(
                s.operator(),
                Operator::GreaterThanEqual
                    | Operator::TildeEqual
                    | Operator::EqualStar
                    | Operator::Equal
                    | Operator::ExactEqual
            )
        })
        .map(|s| s.version().clone())
        .max()
}

/// The finding for the packages of `env` (read from `path`) whose lowest allowed
/// release needs a newer Python than the one the environment pins.
pub(crate) fn check(path: &str, env: &PythonEnvironment) -> Option<Computed> {
    let python = env.packages.iter().find(|p| p.name == "python")?;
    let python_version = Version::from_str(python.version.as_deref()?).ok()?;
    // `python=3` is any 3.x: no minor version to judge.
    if python_version.release().len() < 2 {
        return None;
    }
    let mut evidence = Vec::new();
    let mut needed: Option<(Version, &'static str, &Package, Version)> = None;
    // A requirement behind a marker may be for other Pythons only.
    for p in env
        .packages
        .iter()
        .filter(|p| p.name != "python" && !p.conditional)
    {
        let Some(lowest) = lowest_allowed(p) else {
            continue;
        };
        let Some(minimum) = minimum_python(&p.name, &lowest) else {
            continue;
        };
        let Ok(min) = Version::from_str(minimum) else {
            continue;
        };
        if python_version >= min {
            continue;
        }
        evidence.push(Evidence::at_line(
            path.to_owned(),
            p.line,
            format!("{} {lowest} needs Python {minimum} or newer", p.name),
        ));
        if needed.as_ref().is_none_or(|(m, ..)| min > *m) {
            needed = Some((min, minimum, p, lowest));
        }
    }
    let (_, minimum, package, lowest) = needed?;
    evidence.push(Evidence::at_line(
        path.to_owned(),
        python.line,
        format!("the environment installs Python {python_version}"),
    ));
    let value = if python.source == "conda" {
        format!("={minimum}")
    } else {
        format!("=={minimum}")
    };
    Some(Computed {
        rule_id: RULE_ID,
        count: (evidence.len() - 1) as u64,
        evidence,
        facts: [
            ("package", package.name.clone()),
            ("package_version", lowest.to_string()),
            ("requires_python", minimum.to_owned()),
            ("python", python_version.to_string()),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v))
        .collect(),
        names: Default::default(),
        commands: Vec::new(),
        edits: vec![Edit {
            path: path.to_owned(),
            line: python.line,
            change: Change::SetValue {
                key: "python".to_owned(),
                value,
            },
        }],
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::yaml_doc;
    use crate::lint::environment::{from_conda, from_requirements};

    #[test]
    fn releases_map_to_the_python_they_need() {
        let v = |s: &str| Version::from_str(s).unwrap();
        assert_eq!(minimum_python("numpy", &v("1.26.4")), Some("3.9"));
        assert_eq!(minimum_python("numpy", &v("2.1.0")), Some("3.10"));
        assert_eq!(minimum_python("numpy", &v("1.24.0")), Some("3.8"));
        assert_eq!(minimum_python("scikit-learn", &v("1.5.2")), Some("3.9"));
        assert_eq!(minimum_python("numpy", &v("1.18.0")), None);
        assert_eq!(minimum_python("left-pad", &v("9.0")), None);
        for w in TRANSITIONS.windows(2) {
            if w[0].0 == w[1].0 {
                assert!(v(w[0].1) < v(w[1].1) && v(w[0].2) < v(w[1].2), "{w:?}");
            }
        }
    }

    #[test]
    fn a_pin_or_floor_beyond_the_environments_python() {
        let doc = yaml_doc::parse(
            "name: churn\ndependencies:\n  - python=3.8\n  - pip\n  - pip:\n    - numpy==1.26.4\n    - scikit-learn>=1.4,<2\n    - pandas==2.0.3\n    - joblib==1.4.2\n",
        )
        .unwrap();
        let c = check("env/conda.yml", &from_conda(&doc)).unwrap();
        let lines: Vec<(u64, &str)> = c
            .evidence
            .iter()
            .map(|e| (e.location.line(), e.text.as_str()))
            .collect();
        assert_eq!(
            lines,
            vec![
                (6, "numpy 1.26.4 needs Python 3.9 or newer"),
                (7, "scikit-learn 1.4 needs Python 3.9 or newer"),
                (3, "the environment installs Python 3.8"),
            ]
        );
        assert_eq!(c.facts["requires_python"], "3.9");
        assert_eq!(
            c.edits[0].change,
            Change::SetValue {
                key: "python".to_owned(),
                value: "=3.9".to_owned()
            }
        );
        // A Python new enough, or none named (requirements.txt): nothing.
        let ok = yaml_doc::parse("dependencies:\n  - python=3.10\n  - pip:\n    - numpy==1.26.4\n")
            .unwrap();
        assert!(check("c.yml", &from_conda(&ok)).is_none());
        assert!(check("r.txt", &from_requirements("numpy==2.3.1\n")).is_none());
    }
}
