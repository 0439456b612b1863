package fbe

import "testing"

// status.go (generated from FBE_STATUS_LIST by tools/gen_status.py) says what the C
// library itself reports of every status, and every status has its sentinel.
func TestStatusTableIsTheCores(t *testing.T) {
	if len(statusTable) < 2 || len(sentinels) != len(statusTable) {
		t.Fatalf("%d statuses, %d sentinels", len(statusTable), len(sentinels))
	}
	for i, row := range statusTable {
		if core := coreStatus(Status(i)); core != row {
			t.Errorf("status %d: %+v here, %+v in the core", i, row, core)
		}
		if i > 0 && (sentinels[i].Status != Status(i) || sentinels[i].Message != row.text) {
			t.Errorf("sentinel %d: %+v", i, sentinels[i])
		}
	}
}
