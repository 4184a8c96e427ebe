//! Records the git commit the engine is built from (`_core.__commit__`), for the provenance of
//! results: the full hash, with `-dirty` when the tree had uncommitted changes. A source
//! distribution has no git history: `tools/release.sh` writes the commit it was cut from into
//! its `COMMIT` file, read first. Empty when neither is there (or git is not installed).

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn main() {
    if let Ok(commit) = std::fs::read_to_string("COMMIT") {
        println!("cargo:rerun-if-changed=COMMIT");
        println!("cargo:rustc-env=AIMDLAB_GIT_COMMIT={}", commit.trim());
        return;
    }
    let commit = git(&["rev-parse", "HEAD"]).unwrap_or_default();
    let dirty = !commit.is_empty() && git(&["status", "--porcelain", "--untracked-files=no"]).is_some_and(|s| !s.is_empty());
    println!("cargo:rustc-env=AIMDLAB_GIT_COMMIT={commit}{}", if dirty { "-dirty" } else { "" });
    // Rebuilt when the checked-out commit or the index changes.
    if let Some(dir) = git(&["rev-parse", "--git-dir"]) {
        println!("cargo:rerun-if-changed={dir}/HEAD");
        println!("cargo:rerun-if-changed={dir}/index");
        if let Some(head) = git(&["symbolic-ref", "-q", "HEAD"]) {
            println!("cargo:rerun-if-changed={dir}/{head}");
        }
    }
}
