package api_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/api"
	"github.com/energyapi/energyapi/internal/api/apitest"
	"github.com/energyapi/energyapi/internal/sandbox"
)

// recipeBlock finds a recipe of docs/clients.md: the fenced block after its marker.
var recipeBlock = regexp.MustCompile("(?s)<!-- recipe: (\\w+) -->\n```\\w+\n(.*?)\n```")

// TestReadmeRecipes runs the Python and curl recipes of docs/clients.md's
// "Testing your client against energyapi" against a sandboxed server with
// the demo data of 2024's clock-change days, so that they cannot rot.
// The Python recipe is a client that retries on 429, 503 and 403 "Over
// Qps" and asserts through the journal how many requests it made. Without
// python3 (with requests), curl or jq it skips, unless
// ENERGYAPI_REQUIRE_PYTHON is set (as in CI).
func TestReadmeRecipes(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("generates the demo data")
	}
	readme, err := os.ReadFile(filepath.Join("..", "..", "docs", "clients.md"))
	if err != nil {
		t.Fatal(err)
	}
	recipes := map[string]string{}
	for _, m := range recipeBlock.FindAllSubmatch(readme, -1) {
		recipes[string(m[1])] = string(m[2])
	}
	for _, name := range []string{"python", "curl"} {
		if recipes[name] == "" {
			t.Fatalf("docs/clients.md has no <!-- recipe: %s --> block", name)
		}
	}
	cat, src := demoSource(t)
	sb := sandbox.New(sandbox.NewClock(time.Now), 1, 1000)
	srv := apitest.NewServer(t, apitest.Options{Catalog: cat, Source: src, Adjust: func(o *api.Options) {
		o.Sandbox.Box, o.Sandbox.AdminToken, o.Clock = sb, sbAdmin, sb.Clock.Now
		o.Auth.Tokens.RefuseWhen(sb.TokenRefused)
	}})
	env := append(os.Environ(),
		"ENERGYAPI_URL="+srv.URL, "ENERGYAPI_CLIENT_ID="+apitest.ClientID,
		"ENERGYAPI_CLIENT_SECRET="+apitest.ClientSecret, "ENERGYAPI_SANDBOX_ADMIN_TOKEN="+sbAdmin)
	for _, tc := range []struct {
		name, tool string
		args       []string
		needs      []string
		// want is the statuses of the total-load requests in the journal
		// after the recipe: the sandbox, not the script, says how many
		// requests the client made.
		want []int
	}{
		{"python", "python3", []string{"-c", recipes["python"]}, []string{"python3"}, []int{429, 503, 403, 200}},
		{"curl", "bash", []string{"-euo", "pipefail", "-c", recipes["curl"]}, []string{"curl", "jq"}, []int{200, 403}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, tool := range tc.needs {
				err := exec.Command("sh", "-c", "command -v "+tool).Run()
				if err == nil && tool == "python3" {
					err = exec.Command("python3", "-c", "import requests").Run()
				}
				if err != nil {
					if os.Getenv("ENERGYAPI_REQUIRE_PYTHON") != "" {
						t.Fatalf("%s is required (ENERGYAPI_REQUIRE_PYTHON is set): %v", tool, err)
					}
					t.Skipf("SKIP: no %s (%v); CI sets ENERGYAPI_REQUIRE_PYTHON=1", tool, err)
				}
			}
			cmd := exec.Command(tc.tool, tc.args...)
			cmd.Env = env
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("the %s recipe of docs/clients.md failed: %v\n%s", tc.name, err, out)
			}
			t.Logf("%s", out)
			var statuses []int
			for _, e := range sb.Journal.Entries(apitest.ClientID, time.Second) {
				if e.Dataset == "total-load" {
					statuses = append(statuses, e.Status)
				}
			}
			if !sameInts(statuses, tc.want) {
				t.Errorf("the journal has total-load statuses %v, want %v", statuses, tc.want)
			}
		})
	}
}
