package fbe_test

import (
	"testing"

	"libfbe.org/fbe"
)

func TestVersionIsTheCores(t *testing.T) {
	if fbe.Version != fbe.CoreVersion() {
		t.Fatalf("module version %s, core %s", fbe.Version, fbe.CoreVersion())
	}
}
