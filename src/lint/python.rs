//! Python scripts read with a real parser (tree-sitter), no interpreter: a `def run`
//! inside a class, a string or a comment is not a module-level function. What `lint`
//! needs of a scoring script: its module-level functions and their parameters, the
//! packages it imports, and how it builds its model path.

use tree_sitter::{Node, Parser};

/// A module-level function.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Function {
    pub name: String,
    /// Parameters a positional argument can go to (`*args` counts; `**kwargs` does not).
    pub positional: usize,
    /// Parameters of any kind (`*`, `**kwargs` and keyword-only ones too).
    pub parameters: usize,
    pub line: u64,
}

/// What a script holds.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Script {
    pub functions: Vec<Function>,
    /// The top-level package of each absolute import, with its line (first occurrence).
    pub imports: Vec<(String, u64)>,
    /// The names module-level `import` statements bind (`import os.path` binds `os`,
    /// `import numpy as np` binds `np`; `from os import path` binds no `os`).
    pub module_names: Vec<String>,
    /// The last line of the first module-level import statement.
    pub first_import_end: Option<u64>,
    /// The script reads `AZUREML_MODEL_DIR`.
    pub reads_model_dir: bool,
    /// String literals that look like model files (`model.pkl`), with their lines.
    pub model_files: Vec<ModelFile>,
    /// Folder creations inside the module-level `init()`.
    pub init_makedirs: Vec<MakeDirs>,
    /// `ParallelRunConfig(...)` and `ParallelRunStep(...)` calls (SDK v1).
    pub parallel_run_calls: Vec<Call>,
    /// `AmlCompute.provisioning_configuration(vm_size=...)` calls (SDK v1): the VM size
    /// literal, with its line.
    pub vm_sizes: Vec<(String, u64)>,
    /// The parser found syntax errors (the facts above are what it could read).
    pub has_errors: bool,
}

/// A call with its keyword arguments whose values are literals.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Call {
    /// The callee's last name (`ParallelRunConfig`).
    pub name: String,
    pub line: u64,
    /// `(keyword, value, line)`: strings unquoted, numbers and booleans as JSON.
    pub arguments: Vec<(String, serde_json::Value, u64)>,
}

/// Callees whose calls [`Script::parallel_run_calls`] keeps.
const PARALLEL_RUN_CALLEES: &[&str] = &["ParallelRunConfig", "ParallelRunStep"];

/// A literal argument as JSON: `'10MB'` → "10MB", `-1` → -1, `True` → true;
/// anything else (a variable, an expression) → `None`.
fn literal(node: Node<'_>, bytes: &[u8]) -> Option<serde_json::Value> {
    let t = text(node, bytes).trim();
    match node.kind() {
        "string" => {
            let mut cursor = node.walk();
            let content: String = node
                .named_children(&mut cursor)
                .filter(|c| c.kind() == "string_content")
                .map(|c| text(c, bytes))
                .collect();
            // An f-string is not a literal.
            let f_string = node
                .named_children(&mut node.walk())
                .any(|c| c.kind() == "interpolation");
            (!f_string).then_some(serde_json::Value::String(content))
        }
        "integer" | "unary_operator" => t
            .replace('_', "")
            .parse::<i64>()
            .ok()
            .map(serde_json::Value::from),
        "float" => t
            .parse::<f64>()
            .ok()
            .and_then(serde_json::Number::from_f64)
            .map(serde_json::Value::Number),
        "true" => Some(serde_json::Value::Bool(true)),
        "false" => Some(serde_json::Value::Bool(false)),
        _ => None,
    }
}

/// The calls below `node` to a function whose last name is one of `callees`, with their
/// literal keyword arguments.
fn keyword_calls(node: Node<'_>, bytes: &[u8], callees: &[&str], out: &mut Vec<Call>) {
    if node.kind() == "call"
        && let Some(function) = node.child_by_field_name("function")
    {
        let name = text(function, bytes);
        let last = name.rsplit('.').next().unwrap_or(name);
        if callees.contains(&last) {
            let mut arguments = Vec::new();
            if let Some(args) = node.child_by_field_name("arguments") {
                let mut cursor = args.walk();
                for a in args.named_children(&mut cursor) {
                    if a.kind() != "keyword_argument" {
                        continue;
                    }
                    let (Some(key), Some(value)) = (
                        a.child_by_field_name("name"),
                        a.child_by_field_name("value"),
                    ) else {
                        continue;
                    };
                    if let Some(v) = literal(value, bytes) {
                        arguments.push((text(key, bytes).to_owned(), v, line(a)));
                    }
                }
            }
            out.push(Call {
                name: last.to_owned(),
                line: line(node),
                arguments,
            });
        }
    }
    let mut cursor = node.walk();
    for child in node.named_children(&mut cursor) {
        keyword_calls(child, bytes, callees, out);
    }
}

/// The call nodes of `callees`, with their lines.
fn calls_to<'t>(node: Node<'t>, bytes: &[u8], callees: &[&str], out: &mut Vec<(u64, Node<'t>)>) {
    if node.kind() == "call"
        && let Some(function) = node.child_by_field_name("function")
    {
        let name = text(function, bytes);
        if callees.contains(&name.rsplit('.').next().unwrap_or(name)) {
            out.push((line(node), node));
        }
    }
    let mut cursor = node.walk();
    for child in node.named_children(&mut cursor) {
        calls_to(child, bytes, callees, out);
    }
}

/// A string literal naming a model file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ModelFile {
    /// The path it holds.
    pub path: String,
    pub line: u64,
    /// The literal as written, quotes included (`'model/model.pkl'`).
    pub literal: String,
}

/// A call that creates a folder (`os.makedirs(…)`, `Path(…).mkdir(…)`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct MakeDirs {
    pub call: String,
    pub line: u64,
    /// `exist_ok=True` is passed: a second process creating it does not fail.
    pub exist_ok: bool,
    /// `parents=True` is passed (`mkdir` only; `makedirs` always creates parents).
    pub parents: bool,
    /// The argument list as written (`('out/tmp')`), when it is on one line.
    pub arguments: Option<String>,
}

impl Script {
    pub(crate) fn function(&self, name: &str) -> Option<&Function> {
        self.functions.iter().find(|f| f.name == name)
    }
}

/// File extensions of serialised models.
const MODEL_EXTENSIONS: &[&str] = &[
    ".pkl",
    ".pickle",
    ".joblib",
    ".pt",
    ".pth",
    ".h5",
    ".keras",
    ".onnx",
    ".sav",
    ".bin",
    ".safetensors",
    ".cbm",
    ".ubj",
];

/// Parses `source`.
pub(crate) fn read(source: &str) -> Script {
    let mut parser = Parser::new();
    let language: tree_sitter::Language = tree_sitter_python::LANGUAGE.into();
    let mut script = Script::default();
    if parser.set_language(&language).is_err() {
        script.has_errors = true;
        return script;
    }
    let Some(tree) = parser.parse(source, None) else {
        script.has_errors = true;
        return script;
    };
    let root = tree.root_node();
    script.has_errors = root.has_error();
    let bytes = source.as_bytes();
    let mut cursor = root.walk();
    for node in root.named_children(&mut cursor) {
        if matches!(
            node.kind(),
            "import_statement" | "import_from_statement" | "future_import_statement"
        ) {
            script
                .first_import_end
                .get_or_insert(node.end_position().row as u64 + 1);
        }
        if node.kind() == "import_statement" {
            bound_names(node, bytes, &mut script.module_names);
        }
        let def = match node.kind() {
            "function_definition" => Some(node),
            "decorated_definition" => node.child_by_field_name("definition"),
            _ => None,
        };
        if let Some(def) = def.filter(|d| d.kind() == "function_definition") {
            let f = function(def, bytes);
            if f.name == "init" {
                makedirs(def, bytes, &mut script.init_makedirs);
            }
            script.functions.push(f);
        }
    }
    walk(root, bytes, &mut script);
    keyword_calls(
        root,
        bytes,
        PARALLEL_RUN_CALLEES,
        &mut script.parallel_run_calls,
    );
    let mut call_nodes = Vec::new();
    calls_to(root, bytes, PARALLEL_RUN_CALLEES, &mut call_nodes);
    let mut derived = super::dataflow::derive(root, bytes, &call_nodes);
    for call in &mut script.parallel_run_calls {
        if let Some(d) = derived.remove(&call.line) {
            call.arguments.extend(d);
        }
    }
    let mut provisioning = Vec::new();
    keyword_calls(
        root,
        bytes,
        &["provisioning_configuration"],
        &mut provisioning,
    );
    for call in provisioning {
        for (key, value, line) in call.arguments {
            if key == "vm_size"
                && let Some(size) = value.as_str()
            {
                script.vm_sizes.push((size.to_owned(), line));
            }
        }
    }
    script
}

fn line(node: Node<'_>) -> u64 {
    node.start_position().row as u64 + 1
}

fn text<'s>(node: Node<'_>, bytes: &'s [u8]) -> &'s str {
    node.utf8_text(bytes).unwrap_or_default()
}

fn function(def: Node<'_>, bytes: &[u8]) -> Function {
    let name = def
        .child_by_field_name("name")
        .map(|n| text(n, bytes).to_owned())
        .unwrap_or_default();
    let mut positional = 0;
    let parameters = def
        .child_by_field_name("parameters")
        .map_or(0, |p| p.named_child_count());
    if let Some(params) = def.child_by_field_name("parameters") {
        let mut cursor = params.walk();
        for p in params.named_children(&mut cursor) {
            if matches!(
                p.kind(),
                "identifier"
                    | "default_parameter"
                    | "typed_parameter"
                    | "typed_default_parameter"
                    | "list_splat_pattern"
            ) {
                positional += 1;
            }
            if p.kind() == "keyword_separator" {
                break;
            }
        }
    }
    Function {
        name,
        positional,
        parameters,
        line: line(def),
    }
}

/// The names an `import` statement binds.
fn bound_names(node: Node<'_>, bytes: &[u8], out: &mut Vec<String>) {
    let mut cursor = node.walk();
    for name in node.children_by_field_name("name", &mut cursor) {
        let bound = if name.kind() == "aliased_import" {
            name.child_by_field_name("alias").map(|a| text(a, bytes))
        } else {
            text(name, bytes).split('.').next()
        };
        out.extend(bound.map(str::to_owned));
    }
}

/// The folder-creating calls below `node`.
fn makedirs(node: Node<'_>, bytes: &[u8], out: &mut Vec<MakeDirs>) {
    if node.kind() == "call"
        && let Some(function) = node.child_by_field_name("function")
    {
        let name = text(function, bytes);
        let last = name.rsplit('.').next().unwrap_or(name);
        if matches!(last, "makedirs" | "mkdir") && name.contains('.') {
            let flag = |key: &str| {
                node.child_by_field_name("arguments").is_some_and(|args| {
                    let mut cursor = args.walk();
                    args.named_children(&mut cursor).any(|a| {
                        a.kind() == "keyword_argument"
                            && a.child_by_field_name("name")
                                .is_some_and(|n| text(n, bytes) == key)
                            && a.child_by_field_name("value")
                                .is_some_and(|v| text(v, bytes) == "True")
                    })
                })
            };
            let arguments = node
                .child_by_field_name("arguments")
                .filter(|a| a.start_position().row == a.end_position().row)
                .map(|a| text(a, bytes).to_owned());
            out.push(MakeDirs {
                call: name.to_owned(),
                line: line(node),
                exist_ok: flag("exist_ok"),
                parents: last == "makedirs" || flag("parents"),
                arguments,
            });
        }
    }
    let mut cursor = node.walk();
    for child in node.named_children(&mut cursor) {
        makedirs(child, bytes, out);
    }
}

/// Imports, string literals and everything else below `node`.
fn walk(node: Node<'_>, bytes: &[u8], script: &mut Script) {
    match node.kind() {
        "import_statement" => {
            let mut cursor = node.walk();
            for name in node.children_by_field_name("name", &mut cursor) {
                let dotted = if name.kind() == "aliased_import" {
                    name.child_by_field_name("name").unwrap_or(name)
                } else {
                    name
                };
                add_import(script, text(dotted, bytes), line(node));
            }
            return;
        }
        "import_from_statement" => {
            if let Some(module) = node.child_by_field_name("module_name")
                && module.kind() == "dotted_name"
            {
                add_import(script, text(module, bytes), line(node));
            }
            return;
        }
        "string" => {
            let t = text(node, bytes);
            if t.contains("AZUREML_MODEL_DIR") {
                script.reads_model_dir = true;
            }
            let inner = t.trim_matches(|c| matches!(c, '"' | '\'' | 'r' | 'b' | 'f'));
            let lower = inner.to_ascii_lowercase();
            if !inner.contains(char::is_whitespace)
                && MODEL_EXTENSIONS.iter().any(|e| lower.ends_with(e))
            {
                script.model_files.push(ModelFile {
                    path: inner.to_owned(),
                    line: line(node),
                    literal: t.to_owned(),
                });
            }
            return;
        }
        _ => {}
    }
    let mut cursor = node.walk();
    for child in node.named_children(&mut cursor) {
        walk(child, bytes, script);
    }
}

fn add_import(script: &mut Script, dotted: &str, line: u64) {
    let top = dotted
        .split('.')
        .next()
        .unwrap_or_default()
        .trim()
        .to_owned();
    if !top.is_empty() && !script.imports.iter().any(|(m, _)| *m == top) {
        script.imports.push((top, line));
    }
}

/// Whether `module` comes with Python (`sys.stdlib_module_names`, Python 3.12).
pub(crate) fn is_standard_library(module: &str) -> bool {
    module.starts_with('_') || STDLIB.binary_search(&module).is_ok()
}

/// Imports a deployment gets from the platform or from another distribution's name:
/// `azureml` is a namespace of many distributions (azureml-core, azureml-defaults…),
/// `inference_schema` comes with the inference server.
pub(crate) fn provided_by_any_of(module: &str) -> &'static [&'static str] {
    match module {
        "azureml" => &[
            "azureml-core",
            "azureml-defaults",
            "azureml-inference-server-http",
            "azureml-mlflow",
            "azureml-dataprep",
            "azureml-fsspec",
        ],
        "inference_schema" => &[
            "inference-schema",
            "azureml-inference-server-http",
            "azureml-defaults",
        ],
        "mlflow" => &["mlflow", "mlflow-skinny", "azureml-mlflow"],
        "torch" => &["torch", "pytorch"],
        "tensorflow" => &["tensorflow", "tensorflow-cpu", "tensorflow-gpu"],
        "cv2" => &[
            "opencv-python",
            "opencv-python-headless",
            "opencv-contrib-python",
            "opencv",
        ],
        "google" => &["protobuf", "google-cloud-storage", "google-api-core"],
        _ => &[],
    }
}

/// `sys.stdlib_module_names` of Python 3.12 without the private ones, sorted.
const STDLIB: &[&str] = &[
    "abc",
    "aifc",
    "antigravity",
    "argparse",
    "array",
    "ast",
    "asynchat",
    "asyncio",
    "asyncore",
    "atexit",
    "audioop",
    "base64",
    "bdb",
    "binascii",
    "bisect",
    "builtins",
    "bz2",
    "cProfile",
    "calendar",
    "cgi",
    "cgitb",
    "chunk",
    "cmath",
    "cmd",
    "code",
    "codecs",
    "codeop",
    "collections",
    "colorsys",
    "compileall",
    "concurrent",
    "configparser",
    "contextlib",
    "contextvars",
    "copy",
    "copyreg",
    "crypt",
    "csv",
    "ctypes",
    "curses",
    "dataclasses",
    "datetime",
    "dbm",
    "decimal",
    "difflib",
    "dis",
    "distutils",
    "doctest",
    "email",
    "encodings",
    "ensurepip",
    "enum",
    "errno",
    "faulthandler",
    "fcntl",
    "filecmp",
    "fileinput",
    "fnmatch",
    "fractions",
    "ftplib",
    "functools",
    "gc",
    "genericpath",
    "getopt",
    "getpass",
    "gettext",
    "glob",
    "graphlib",
    "grp",
    "gzip",
    "hashlib",
    "heapq",
    "hmac",
    "html",
    "http",
    "idlelib",
    "imaplib",
    "imghdr",
    "imp",
    "importlib",
    "inspect",
    "io",
    "ipaddress",
    "itertools",
    "json",
    "keyword",
    "lib2to3",
    "linecache",
    "locale",
    "logging",
    "lzma",
    "mailbox",
    "mailcap",
    "marshal",
    "math",
    "mimetypes",
    "mmap",
    "modulefinder",
    "msilib",
    "msvcrt",
    "multiprocessing",
    "netrc",
    "nis",
    "nntplib",
    "nt",
    "ntpath",
    "nturl2path",
    "numbers",
    "opcode",
    "operator",
    "optparse",
    "os",
    "ossaudiodev",
    "pathlib",
    "pdb",
    "pickle",
    "pickletools",
    "pipes",
    "pkgutil",
    "platform",
    "plistlib",
    "poplib",
    "posix",
    "posixpath",
    "pprint",
    "profile",
    "pstats",
    "pty",
    "pwd",
    "py_compile",
    "pyclbr",
    "pydoc",
    "pydoc_data",
    "pyexpat",
    "queue",
    "quopri",
    "random",
    "re",
    "readline",
    "reprlib",
    "resource",
    "rlcompleter",
    "runpy",
    "sched",
    "secrets",
    "select",
    "selectors",
    "shelve",
    "shlex",
    "shutil",
    "signal",
    "site",
    "smtpd",
    "smtplib",
    "sndhdr",
    "socket",
    "socketserver",
    "spwd",
    "sqlite3",
    "sre_compile",
    "sre_constants",
    "sre_parse",
    "ssl",
    "stat",
    "statistics",
    "string",
    "stringprep",
    "struct",
    "subprocess",
    "sunau",
    "symtable",
    "sys",
    "sysconfig",
    "syslog",
    "tabnanny",
    "tarfile",
    "telnetlib",
    "tempfile",
    "termios",
    "textwrap",
    "this",
    "threading",
    "time",
    "timeit",
    "tkinter",
    "token",
    "tokenize",
    "tomllib",
    "trace",
    "traceback",
    "tracemalloc",
    "tty",
    "turtle",
    "turtledemo",
    "types",
    "typing",
    "unicodedata",
    "unittest",
    "urllib",
    "uu",
    "uuid",
    "venv",
    "warnings",
    "wave",
    "weakref",
    "webbrowser",
    "winreg",
    "winsound",
    "wsgiref",
    "xdrlib",
    "xml",
    "xmlrpc",
    "zipapp",
    "zipfile",
    "zipimport",
    "zlib",
    "zoneinfo",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn module_level_functions_only() {
        let s = read(
            "import os\nclass Model:\n    def run(self, data):\n        pass\n\nTEXT = \"def init(): pass\"\n# def run(x): pass\n\n@some.decorator\ndef init():\n    pass\n\ndef run(*, data):\n    return data\n",
        );
        let names: Vec<(&str, usize, u64)> = s
            .functions
            .iter()
            .map(|f| (f.name.as_str(), f.positional, f.line))
            .collect();
        assert_eq!(names, vec![("init", 0, 10), ("run", 0, 13)]);
        assert!(!s.has_errors);
        let s =
            read("def run(raw_data, request=None):\n    return 1\ndef init(*args):\n    pass\n");
        assert_eq!(s.function("run").unwrap().positional, 2);
        assert_eq!(s.function("init").unwrap().positional, 1);
    }

    #[test]
    fn imports_and_model_paths() {
        let s = read(
            "import os, json\nimport numpy as np\nfrom sklearn.ensemble import RandomForestClassifier\nfrom . import helpers\nfrom azureml.core.model import Model\n\ndef init():\n    import joblib\n    global model\n    model = joblib.load('outputs/model.pkl')\n",
        );
        let imports: Vec<&str> = s.imports.iter().map(|(m, _)| m.as_str()).collect();
        assert_eq!(
            imports,
            ["os", "json", "numpy", "sklearn", "azureml", "joblib"]
        );
        assert_eq!(s.imports[5].1, 8);
        assert_eq!(
            s.model_files,
            vec![ModelFile {
                path: "outputs/model.pkl".to_owned(),
                line: 10,
                literal: "'outputs/model.pkl'".to_owned(),
            }]
        );
        assert!(!s.reads_model_dir);
        let s =
            read("import os\npath = os.path.join(os.getenv('AZUREML_MODEL_DIR'), 'model.pkl')\n");
        assert!(s.reads_model_dir);
        assert!(is_standard_library("os") && is_standard_library("json"));
        assert!(!is_standard_library("numpy"));
    }

    #[test]
    fn folder_creation_in_init() {
        let s = read(
            "import os\nfrom pathlib import Path\n\ndef init():\n    os.makedirs('out/tmp')\n    Path('out/a/b').mkdir(parents=True, exist_ok=True)\n    os.mkdir('x')\n\ndef run(mini_batch):\n    os.makedirs('later')\n",
        );
        let calls: Vec<(&str, u64, bool, bool)> = s
            .init_makedirs
            .iter()
            .map(|m| (m.call.as_str(), m.line, m.exist_ok, m.parents))
            .collect();
        assert_eq!(
            calls,
            vec![
                ("os.makedirs", 5, false, true),
                ("Path('out/a/b').mkdir", 6, true, true),
                ("os.mkdir", 7, false, false),
            ]
        );
    }

    #[test]
    fn parallel_run_config_arguments() {
        let s = read(
            "from azureml.pipeline.steps import ParallelRunConfig, ParallelRunStep\nconfig = ParallelRunConfig(\n    source_directory=scripts_folder,\n    entry_script='batch_score.py',\n    mini_batch_size=\"5\",\n    error_threshold=-1,\n    output_action=\"append_row\",\n    process_count_per_node=2,\n    run_invocation_timeout=60.5,\n    node_count=2,\n)\nstep = steps.ParallelRunStep(name=f\"score-{x}\", parallel_run_config=config, allow_reuse=True)\n",
        );
        assert_eq!(s.parallel_run_calls.len(), 2);
        let config = &s.parallel_run_calls[0];
        assert_eq!(
            (config.name.as_str(), config.line),
            ("ParallelRunConfig", 2)
        );
        let args: Vec<(&str, String, u64)> = config
            .arguments
            .iter()
            .map(|(k, v, l)| (k.as_str(), v.to_string(), *l))
            .collect();
        assert_eq!(
            args,
            vec![
                ("entry_script", "\"batch_score.py\"".to_owned(), 4),
                ("mini_batch_size", "\"5\"".to_owned(), 5),
                ("error_threshold", "-1".to_owned(), 6),
                ("output_action", "\"append_row\"".to_owned(), 7),
                ("process_count_per_node", "2".to_owned(), 8),
                ("run_invocation_timeout", "60.5".to_owned(), 9),
                ("node_count", "2".to_owned(), 10),
            ]
        );
        // The f-string name is no literal; allow_reuse is.
        let step = &s.parallel_run_calls[1];
        assert_eq!(step.name, "ParallelRunStep");
        assert_eq!(step.arguments.len(), 1);
        assert_eq!(step.arguments[0].0, "allow_reuse");
    }

    #[test]
    fn broken_python_still_gives_what_it_can() {
        let s = read("def init(:\n    pass\n\ndef run(data):\n    return data\n");
        assert!(s.has_errors);
        assert!(s.function("run").is_some());
    }
}
