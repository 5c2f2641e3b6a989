//! The kind of a tool output named by the call that produced it.
//!
//! A session log holds, next to each tool result, the call that made it
//! (`tool/call`: the tool's name and its raw JSON arguments). Where a
//! shell command's program and arguments make the kind unambiguous
//! (`git diff`, `cat src/x.py`, `rg -n`, `find`, `npm view --json`, a test
//! runner or compiler), [`kind_of_call`] names it, with the words that
//! decided; anything else (pipelines into other programs, redirections,
//! substitutions, unknown programs, numbered output) is `None`, and the
//! content sample decides as before.

use crate::strategy::lines::Kind;

/// A kind the call names, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallKind {
    /// The kind of the output.
    pub kind: Kind,
    /// The words that decided, such as ``bash `git log -p` ``.
    pub reason: String,
}

/// The kind a call's output is, when its command says so unambiguously.
/// `args` is the call's raw JSON arguments (see [`call_command`]).
pub fn kind_of_call(tool: &str, args: &str) -> Option<CallKind> {
    kind_of_tool_command(tool, &call_command(args)?)
}

/// The shell command of a call's raw JSON arguments: the string field
/// `command` (or `cmd`) of a top-level object.
pub fn call_command(args: &str) -> Option<String> {
    json_string_field(args, "command").or_else(|| json_string_field(args, "cmd"))
}

/// The kind the shell `command` a call of `tool` ran names for its output,
/// the reason naming the tool too (``bash `git diff` ``).
pub fn kind_of_tool_command(tool: &str, command: &str) -> Option<CallKind> {
    let named = kind_of_command(command)?;
    Some(CallKind { reason: format!("{tool} {}", named.reason), ..named })
}

/// The kind of a shell command's output, the reason being the words that
/// decided, such as `` `git log -p` ``.
pub fn kind_of_command(command: &str) -> Option<CallKind> {
    let (kind, decided) = command_words_kind(command)?;
    Some(CallKind { kind, reason: format!("`{decided}`") })
}

/// [`kind_of_command`]'s kind and deciding words.
fn command_words_kind(command: &str) -> Option<(Kind, String)> {
    let segments = split_shell(command)?;
    let mut main: Option<&[String]> = None;
    for (i, (words, joiner)) in segments.iter().enumerate() {
        let after_pipe = i > 0 && segments[i - 1].1 == Joiner::Pipe;
        if after_pipe {
            // Only a head or tail of lines keeps the kind of what it cuts.
            if !is_line_cut(words) {
                return None;
            }
            continue;
        }
        if main.is_none() && *joiner == Joiner::And && words.first().is_some_and(|w| w == "cd") {
            continue; // `cd dir && …` prints nothing.
        }
        if main.is_some() || !matches!(joiner, Joiner::End | Joiner::Pipe) {
            return None;
        }
        main = Some(words);
    }
    let words = peel(main?);
    let program = words.first()?.rsplit('/').next()?.to_owned();
    let args = &words[1..];
    let flag = |f: &str| args.iter().any(|a| a == f);
    let short =
        |c: char| args.iter().any(|a| a.len() > 1 && a.starts_with('-') && !a.starts_with("--") && a.contains(c));
    let operands: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
    let said = |kind: Kind, words: &str| Some((kind, words.to_owned()));
    match program.as_str() {
        "git" => git(args),
        "diff" if short('u') || flag("--unified") => said(Kind::Diff, "diff -u"),
        "cat" | "head" | "sed" => {
            if program == "cat" && (short('n') || short('b')) || program == "sed" && !short('n') {
                return None;
            }
            // The files: every operand but `head`'s counts and `sed`'s script.
            let skip = usize::from(program == "sed" && !short('e'));
            let files: Vec<&&String> = operands
                .iter()
                .skip(skip)
                .filter(|o| !(program == "head" && o.bytes().all(|b| b.is_ascii_digit())))
                .collect();
            let kinds: Option<Vec<Kind>> = files.iter().map(|f| file_kind(f, program == "cat")).collect();
            let kinds = kinds?;
            let kind = *kinds.first()?;
            if kinds.iter().any(|&k| k != kind) || kind == Kind::Json && files.len() > 1 {
                return None;
            }
            let verb = if program == "sed" { "sed -n" } else { program.as_str() };
            Some((kind, format!("{verb} {}", files[0])))
        }
        "rg" | "grep" | "egrep" | "fgrep" => search(&program, args, &operands, &short, &flag),
        "find" if !flag("-exec") && !flag("-execdir") && !flag("-printf") && !flag("-ls") => {
            said(Kind::Listing, "find")
        }
        "ls" => said(Kind::Listing, if short('R') { "ls -R" } else { "ls" }),
        // `tree -J` and `-X` print JSON and XML, not a drawing.
        "tree" if !short('J') && !short('X') => said(Kind::Listing, "tree"),
        "npm" | "pnpm" | "yarn"
            if flag("--json")
                && matches!(operands.first().map(|s| s.as_str()), Some("view" | "info" | "show" | "ls" | "list")) =>
        {
            Some((Kind::Json, format!("{program} {} --json", operands[0])))
        }
        "pip" | "pip3" if operands.first().is_some_and(|o| *o == "inspect") => said(Kind::Json, "pip inspect"),
        _ => runner(&program, &operands).map(|w| (Kind::Log, w)),
    }
}

/// `git diff|show|log -p|grep -n`, with the stat and name-only forms left out.
fn git(args: &[String]) -> Option<(Kind, String)> {
    let mut i = 0;
    while i < args.len() && args[i].starts_with('-') {
        i += if matches!(args[i].as_str(), "-C" | "-c") { 2 } else { 1 };
    }
    let sub = args.get(i)?.as_str();
    let rest = &args[i + 1..];
    let has = |f: &str| rest.iter().any(|a| a == f || a.starts_with(&format!("{f}=")));
    let summary_only = ["--stat", "--shortstat", "--numstat", "--name-only", "--name-status", "--summary", "--raw"];
    // A commit log (not a graph of one): its commits are the outline, with or without their diffstats.
    let commit_log = sub == "log" && !has("--graph");
    if !commit_log && summary_only.iter().any(|f| has(f))
        || has("--oneline") && sub != "diff"
        || has("--format")
        || has("--pretty")
    {
        return None;
    }
    match sub {
        "diff" => Some((Kind::Diff, "git diff".into())),
        // `git show REV:path` prints a file, not a commit.
        "show" if !rest.iter().any(|a| !a.starts_with('-') && a.contains(':')) => Some((Kind::Diff, "git show".into())),
        "log" if has("-p") || has("--patch") || has("-u") => Some((Kind::Diff, "git log -p".into())),
        "log" if commit_log => Some((Kind::Diff, "git log".into())),
        "grep" if has("-n") || has("--line-number") => Some((Kind::Search, "git grep -n".into())),
        _ => None,
    }
}

/// `rg`/`grep` printing `path:line:` hits: line numbers on, and more than
/// one file searched (a directory, a recursive grep, several files).
fn search(
    program: &str,
    args: &[String],
    operands: &[&String],
    short: &dyn Fn(char) -> bool,
    flag: &dyn Fn(&str) -> bool,
) -> Option<(Kind, String)> {
    if short('l') || short('c') || short('o') || flag("--count") || flag("--json") || flag("--files-with-matches") {
        return None;
    }
    if program == "rg" && flag("--files") {
        return Some((Kind::Listing, "rg --files".into()));
    }
    let numbered = short('n') || flag("--line-number");
    // Operands past the pattern (an `-e PATTERN` means every operand is a path).
    let explicit_pattern = short('e') || args.iter().any(|a| a.starts_with("--regexp"));
    let paths = if explicit_pattern { operands } else { operands.get(1..).unwrap_or(&[]) };
    let many = match program {
        "rg" => paths.is_empty() || paths.len() > 1 || paths.iter().any(|p| extension(p).is_none()),
        _ => short('r') || short('R') || flag("--recursive") || short('H') || paths.len() > 1,
    };
    (numbered && many && !short('h')).then(|| (Kind::Search, format!("{program} -n")))
}

/// A test runner, build tool or compiler whose output is a log.
fn runner(program: &str, operands: &[&String]) -> Option<String> {
    const RUNNERS: &[&str] = &[
        "pytest",
        "py.test",
        "jest",
        "vitest",
        "mocha",
        "tsc",
        "eslint",
        "make",
        "gcc",
        "g++",
        "clang",
        "clang++",
        "cc",
        "c++",
        "javac",
        "mvn",
        "gradle",
        "rustc",
        "mypy",
        "flake8",
        "pylint",
        "ruff",
        "rspec",
        "tox",
        "ctest",
        "shellcheck",
        "nox",
        "phpunit",
    ];
    const SUBCOMMANDS: &[(&str, &[&str])] = &[
        ("cargo", &["test", "build", "check", "clippy", "nextest", "run"]),
        ("go", &["test", "build", "vet"]),
        ("npm", &["test", "t"]),
        ("pnpm", &["test"]),
        ("yarn", &["test"]),
        ("dotnet", &["build", "test"]),
    ];
    if RUNNERS.contains(&program) {
        return Some(program.to_owned());
    }
    let sub = operands.first()?.as_str();
    if let Some((_, subs)) = SUBCOMMANDS.iter().find(|(p, _)| *p == program)
        && subs.contains(&sub)
    {
        return Some(format!("{program} {sub}"));
    }
    // `npm run test`, `python -m pytest`.
    if matches!(program, "npm" | "pnpm" | "yarn")
        && sub == "run"
        && operands.get(1).is_some_and(|s| s.starts_with("test"))
    {
        return Some(format!("{program} run {}", operands[1]));
    }
    None
}

/// The words after environment assignments and wrappers that run the
/// program unchanged (`env`, `time`, `sudo`, `npx`, `python -m`, `uv run`…).
fn peel(words: &[String]) -> Vec<String> {
    let mut w: Vec<String> = words.to_vec();
    loop {
        let Some(first) = w.first() else { return w };
        let name = first.rsplit('/').next().unwrap_or(first);
        let is_assignment = first.contains('=') && !first.starts_with('-') && !first.starts_with('=');
        let drop = if is_assignment || matches!(name, "env" | "time" | "sudo" | "command" | "nice" | "npx" | "bunx") {
            1
        } else if matches!(name, "python" | "python3" | "py") && w.get(1).is_some_and(|a| a == "-m")
            || matches!(name, "uv" | "poetry" | "pipx" | "pdm" | "hatch") && w.get(1).is_some_and(|a| a == "run")
        {
            2
        } else {
            return w;
        };
        w.drain(..drop.min(w.len()));
    }
}

/// `head`/`tail` by lines (`-n N`, `-N`, `--lines=N`, or no option).
fn is_line_cut(words: &[String]) -> bool {
    let Some((program, args)) = words.split_first() else { return false };
    matches!(program.as_str(), "head" | "tail")
        && args.iter().enumerate().all(|(i, a)| {
            a == "-n"
                || a.starts_with("--lines")
                || (a.starts_with('-') && a[1..].chars().all(|c| c.is_ascii_digit() || c == 'n'))
                || (i > 0 && args[i - 1] == "-n" && a.chars().all(|c| c.is_ascii_digit()))
        })
}

/// The lowercase extension of a path's last component.
fn extension(path: &str) -> Option<&str> {
    let name = path.rsplit('/').next()?;
    let (stem, ext) = name.rsplit_once('.')?;
    (!stem.is_empty() && !ext.is_empty() && ext.bytes().all(|b| b.is_ascii_alphanumeric())).then_some(ext)
}

/// The kind of a whole file by its extension: source code, or JSON when
/// `whole` (a part of a JSON file is not a JSON value).
fn file_kind(path: &str, whole: bool) -> Option<Kind> {
    let ext = extension(path)?;
    if whole && ext.eq_ignore_ascii_case("json") {
        return Some(Kind::Json);
    }
    source_kind(ext)
}

/// The kind of a file by its extension: source code, or none.
fn source_kind(ext: &str) -> Option<Kind> {
    const SOURCE: &[&str] = &[
        "rs", "py", "pyi", "js", "mjs", "cjs", "jsx", "ts", "mts", "cts", "tsx", "go", "c", "h", "cc", "cpp", "cxx",
        "hpp", "hh", "java", "kt", "kts", "scala", "swift", "rb", "php", "cs", "fs", "lua", "pl", "pm", "sh", "bash",
        "zsh", "ex", "exs", "erl", "hs", "ml", "mli", "clj", "dart", "zig", "nim", "vue", "svelte", "m", "mm", "r",
        "jl", "sol",
    ];
    SOURCE.contains(&ext.to_ascii_lowercase().as_str()).then_some(Kind::Code)
}

/// How a shell segment is joined to the next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Joiner {
    Pipe,
    And,
    Other,
    End,
}

/// The command's simple commands as words, each with the operator after
/// it; `None` for what this reader does not follow (substitutions,
/// redirections other than `2>&1`, unbalanced quotes, backgrounding).
fn split_shell(command: &str) -> Option<Vec<(Vec<String>, Joiner)>> {
    let mut segments = Vec::new();
    let mut words: Vec<String> = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = command.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next()? {
                        '\'' => break,
                        c => w.push(c),
                    }
                }
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next()? {
                        '"' => break,
                        '$' | '`' => return None,
                        '\\' => w.push(chars.next()?),
                        c => w.push(c),
                    }
                }
            }
            '\\' => word.get_or_insert_with(String::new).push(chars.next()?),
            '$' | '`' | '<' | '(' | ')' | '{' | '}' => {
                if c == '$' && chars.peek().is_some_and(|n| n.is_ascii_alphabetic() || *n == '_' || *n == '{') {
                    // A variable: its value is unknown but it is one word.
                    word.get_or_insert_with(String::new).push(c);
                } else {
                    return None;
                }
            }
            '>' => {
                // Only `2>&1`, which keeps what the program prints.
                if word.as_deref() == Some("2") && chars.next() == Some('&') && chars.next() == Some('1') {
                    word = None;
                } else {
                    return None;
                }
            }
            '|' | '&' | ';' | '\n' => {
                words.extend(word.take());
                let joiner = match (c, chars.peek()) {
                    ('|', Some('|')) | ('&', Some('&')) => {
                        chars.next();
                        if c == '&' { Joiner::And } else { Joiner::Other }
                    }
                    ('|', _) => Joiner::Pipe,
                    ('&', _) => return None,
                    _ => Joiner::Other,
                };
                if words.is_empty() {
                    return None;
                }
                segments.push((std::mem::take(&mut words), joiner));
            }
            c if c.is_whitespace() => words.extend(word.take()),
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word.take());
    if !words.is_empty() {
        segments.push((words, Joiner::End));
    } else if let Some(last) = segments.last_mut()
        && last.1 == Joiner::Other
    {
        // A trailing `;` or newline ends the command.
        last.1 = Joiner::End;
    } else {
        return None;
    }
    Some(segments)
}

/// The string value of `key` in a top-level JSON object, decoded; `None`
/// when the text is not such an object or the value is not a string.
pub fn json_string_field(json: &str, key: &str) -> Option<String> {
    let mut p = JsonReader { s: json.as_bytes(), at: 0 };
    p.space();
    p.eat(b'{')?;
    loop {
        p.space();
        if p.eat(b'}').is_some() {
            return None;
        }
        let name = p.string()?;
        p.space();
        p.eat(b':')?;
        p.space();
        if name == key {
            return if p.peek() == Some(b'"') { p.string() } else { None };
        }
        p.skip_value()?;
        p.space();
        p.eat(b',')?;
    }
}

/// A cursor over JSON text, enough to find one string field.
struct JsonReader<'a> {
    s: &'a [u8],
    at: usize,
}

impl JsonReader<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.at).copied()
    }

    fn eat(&mut self, b: u8) -> Option<()> {
        (self.peek() == Some(b)).then(|| self.at += 1)
    }

    fn space(&mut self) {
        while self.peek().is_some_and(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    /// A string, decoded; `None` for a bad escape or a lone surrogate.
    fn string(&mut self) -> Option<String> {
        self.eat(b'"')?;
        let mut units: Vec<u16> = Vec::new();
        loop {
            let b = self.peek()?;
            self.at += 1;
            match b {
                b'"' => return String::from_utf16(&units).ok(),
                b'\\' => {
                    let e = self.peek()?;
                    self.at += 1;
                    let unit = match e {
                        b'"' | b'\\' | b'/' => u16::from(e),
                        b'b' => 8,
                        b'f' => 12,
                        b'n' => 10,
                        b'r' => 13,
                        b't' => 9,
                        b'u' => {
                            let hex = std::str::from_utf8(self.s.get(self.at..self.at + 4)?).ok()?;
                            self.at += 4;
                            u16::from_str_radix(hex, 16).ok()?
                        }
                        _ => return None,
                    };
                    units.push(unit);
                }
                _ => {
                    // Copy the UTF-8 run up to the next quote or escape.
                    let start = self.at - 1;
                    while self.peek().is_some_and(|c| c != b'"' && c != b'\\') {
                        self.at += 1;
                    }
                    units.extend(std::str::from_utf8(&self.s[start..self.at]).ok()?.encode_utf16());
                }
            }
        }
    }

    /// Past one value of any type.
    fn skip_value(&mut self) -> Option<()> {
        let mut depth = 0usize;
        loop {
            match self.peek()? {
                b'"' => {
                    self.string()?;
                }
                b'{' | b'[' => {
                    depth += 1;
                    self.at += 1;
                }
                b'}' | b']' => {
                    depth = depth.checked_sub(1)?;
                    self.at += 1;
                }
                b',' if depth == 0 => return Some(()),
                _ => self.at += 1,
            }
            if depth == 0 && matches!(self.peek(), Some(b',' | b'}')) {
                return Some(());
            }
        }
    }
}

#[cfg(test)]
mod tests;
