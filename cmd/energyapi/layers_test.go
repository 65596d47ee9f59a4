package main

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestStoreImportsNothingAbove checks that the stores, their contract
// suite included, depend on no package above them: the catalogue, the demo
// generators and the importers sit on top of the stores, and the server
// hands the stores what they need of them (storetest takes the catalogue as
// an argument).
func TestStoreImportsNothingAbove(t *testing.T) {
	t.Parallel()
	const module = "github.com/energyapi/energyapi/"
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to list imports: %v", err)
	}
	out, err := exec.CommandContext(t.Context(), goTool, "list", "-deps", module+"internal/store/...").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	if !slices.Contains(deps, module+"internal/store/sqlite") || !slices.Contains(deps, module+"internal/store/storetest") {
		t.Fatalf("go list -deps ./internal/store/... lacks the stores themselves: %q", deps)
	}
	for _, above := range []string{"internal/catalog", "internal/demo", "internal/ingest"} {
		if slices.Contains(deps, module+above) {
			t.Errorf("internal/store/... depends on %s, which sits above the stores", above)
		}
	}
}
