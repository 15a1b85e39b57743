//! Running commands with a readable echo, finding the workspace root, and reading a command's options.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The workspace root (the parent of `crates/`).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).ancestors().nth(2).expect("crates/xtask is two levels deep").to_path_buf()
}

/// Print and run `command`; `Err` names the command if it fails.
pub fn run(command: &mut Command) -> Result<(), String> {
    eprintln!("xtask: $ {}", describe(command));
    let status = command.status().map_err(|e| format!("could not start `{}`: {e}", describe(command)))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("`{}` failed ({status})", describe(command)))
    }
}

/// Run `command` quietly and return its stdout, or `None` if it cannot run or fails.
pub fn output(command: &mut Command) -> Option<String> {
    let out = command.stderr(Stdio::null()).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

pub fn describe(command: &Command) -> String {
    let mut text = command.get_program().to_string_lossy().into_owned();
    for arg in command.get_args() {
        text.push(' ');
        text.push_str(&arg.to_string_lossy());
    }
    text
}

/// `cargo` as a command, from the workspace root.
pub fn cargo() -> Command {
    let mut command = Command::new("cargo");
    command.current_dir(root());
    command
}

/// PATH with the project's local tool folders first (npm's wasm-opt, cargo's bin).
pub fn tool_path() -> String {
    let home = std::env::var("CARGO_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|_| PathBuf::from(std::env::var("HOME").unwrap_or_default()).join(".cargo"));
    let extra = [root().join("e2e/node_modules/.bin"), home.join("bin")];
    let mut parts: Vec<String> = extra.iter().map(|p| p.display().to_string()).collect();
    parts.push(std::env::var("PATH").unwrap_or_default());
    parts.join(":")
}

/// A command's `--name value` and `--name=value` options, in order; `Err` (with `help`) for an
/// argument that is not an option or an option without its value.
pub fn options(args: &[String], help: &str) -> Result<Vec<(String, String)>, String> {
    let mut found = Vec::new();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        if !arg.starts_with("--") {
            return Err(format!("unknown argument `{arg}`\n{help}"));
        }
        let (name, value) = match arg.split_once('=') {
            Some((name, value)) => (name.to_string(), value.to_string()),
            None => (arg.clone(), args.next().cloned().ok_or(format!("{arg} needs a value\n{help}"))?),
        };
        found.push((name, value));
    }
    Ok(found)
}
