package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The testee, built from this tree, through the shared runner (tests/conformance/runner)
// as ci/conformance.sh runs it: every conformance file and regression directory, the
// text, view and behaviour checks and the conversations. Fails unless every record ran
// and none failed.
func TestTesteeThroughTheRunner(t *testing.T) {
	repo, err := filepath.Abs(filepath.Join("..", "..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	testee := filepath.Join(t.TempDir(), "fbe-testee")
	if out, err := exec.Command("go", "build", "-o", testee, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	conf := filepath.Join(repo, "tests", "conformance")
	args := []string{filepath.Join(conf, "runner"), "--describe-testee", "none", "--testee", "go=" + testee,
		"--known-failures", filepath.Join(conf, "known-failures", "differential.txt"),
		"--text", "--view", "--behaviour", filepath.Join(conf, "behaviour.jsonl"),
		"--conversations", filepath.Join(conf, "conversations.jsonl"), "-I", filepath.Join(repo, "schemas")}
	files := []string{}
	for _, name := range []string{"vectors.jsonl", "malformed.jsonl", "malformed-extra.jsonl", "versioning.jsonl"} {
		files = append(files, filepath.Join(conf, name))
	}
	dirs, _ := filepath.Glob(filepath.Join(repo, "tests", "regressions", "differential", "*", "record.jsonl"))
	for _, d := range dirs {
		files = append(files, filepath.Dir(d))
	}
	if len(dirs) == 0 {
		t.Fatal("no regression directories")
	}
	records := 0
	// the runner counts the behaviour records and the conversation scripts as records too
	counted := append([]string{filepath.Join(conf, "behaviour.jsonl"), filepath.Join(conf, "conversations.jsonl")}, files...)
	for _, f := range counted {
		paths := []string{f}
		if st, err := os.Stat(f); err == nil && st.IsDir() {
			paths, _ = filepath.Glob(filepath.Join(f, "*.jsonl"))
		}
		for _, p := range paths {
			text, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			for _, line := range strings.Split(string(text), "\n") {
				if strings.TrimSpace(line) != "" && !strings.Contains(line, `"_meta"`) {
					records++
				}
			}
		}
	}
	out, err := exec.Command("python3", append(args, files...)...).CombinedOutput()
	report := string(out)
	if err != nil {
		t.Fatalf("runner: %v\n%s", err, report)
	}
	if !strings.Contains("\n"+report, "\n"+strconv.Itoa(records)+" records, 1 testees: go\n") {
		t.Fatalf("not every record ran (%d expected)\n%s", records, report)
	}
	for _, check := range []string{`(?m)^go +[1-9]\d*/0 +[1-9]\d*/0 +[1-9]\d*/0 *$`, // behaviour
		`(?m)^text checks .*\ngo +[1-9]\d*/0$`, `(?m)^view checks .*\ngo +[1-9]\d*/0$`,
		`(?m)^conversations .*\n.*\ngo +[1-9]\d*/0 *$`} {
		if !regexp.MustCompile(check).MatchString(report) {
			t.Fatalf("no %s in\n%s", check, report)
		}
	}
	closing := regexp.MustCompile(`(?m)^(\d+) passed, 0 failed$`).FindStringSubmatch(report)
	if closing == nil {
		t.Fatalf("failures\n%s", report)
	}
	if n, _ := strconv.Atoi(closing[1]); n <= records {
		t.Fatalf("%d checks passed for %d records\n%s", n, records, report)
	}
}
