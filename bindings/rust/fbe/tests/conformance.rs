//! The testee through the shared runner (tests/conformance/runner) over every
//! conformance file, the regression directories, the behaviour records and the
//! conversation scripts, with the text, native and view checks: fails unless every
//! record ran and none failed.
use std::path::PathBuf;
use std::process::Command;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../..").canonicalize().unwrap()
}

#[test]
fn runner_passes_every_record() {
    let repo = repo();
    let conformance = repo.join("tests/conformance");
    let mut args: Vec<String> = vec![
        conformance.join("runner").display().to_string(),
        "--testee".into(),
        format!("rust={}", env!("CARGO_BIN_EXE_fbe-testee")),
        "-I".into(),
        repo.join("schemas").display().to_string(),
        "--text".into(),
        "--native".into(),
        "--view".into(),
        "--behaviour".into(),
        conformance.join("behaviour.jsonl").display().to_string(),
        "--conversations".into(),
        conformance.join("conversations.jsonl").display().to_string(),
    ];
    for file in ["vectors.jsonl", "malformed.jsonl", "malformed-extra.jsonl", "versioning.jsonl"] {
        args.push(conformance.join(file).display().to_string());
    }
    let regressions = repo.join("tests/regressions/differential");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&regressions)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    assert!(!dirs.is_empty(), "no regression directories under {}", regressions.display());
    args.extend(dirs.iter().map(|d| d.display().to_string()));
    let out = Command::new("python3").args(&args).current_dir(&repo).output().expect("python3 runs the runner");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let last = stdout.lines().last().unwrap_or("").to_owned();
    assert!(out.status.success(), "runner failed: {last}\n{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    let passed: u64 = last.split(' ').next().and_then(|n| n.parse().ok()).unwrap_or(0);
    assert!(last.ends_with(" 0 failed") && passed > 3000, "unexpected summary: {last}");
    // nothing skipped but the files' _meta lines ("skipped: N (_meta N)")
    let skipped = stdout.lines().find(|l| l.starts_with("skipped: ")).unwrap_or("skipped: 0");
    let count = skipped["skipped: ".len()..].split(' ').next().unwrap_or("");
    assert!(
        skipped == "skipped: 0" || skipped == format!("skipped: {count} (_meta {count})"),
        "records skipped: {skipped}\n{stdout}"
    );
}
