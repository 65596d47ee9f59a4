// Package browsertest starts the headless Chromium that the browser tests
// drive (internal/web's pages, cmd/energyapi's registration flow), in one
// way: the same search for the browser, the same rule when there is none,
// the same flags.
package browsertest

import (
	"context"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/energyapi/energyapi/internal/testwait"
)

// Path finds a Chromium to drive. Without one the test skips, unless
// ENERGYAPI_REQUIRE_BROWSER=1 (as in CI) makes that a failure.
func Path(t testing.TB) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("ENERGYAPI_REQUIRE_BROWSER") == "1" {
		t.Fatal("no Chromium found and ENERGYAPI_REQUIRE_BROWSER=1: install it (apt-get install -y chromium)")
	}
	t.Skip("no Chromium found; set ENERGYAPI_REQUIRE_BROWSER=1 to make this a failure")
	return ""
}

// Start starts headless Chromium at exe (Path) with opts added to the
// defaults, and returns a tab's context, which ends with the test or after
// three minutes (scaled by testwait).
func Start(t testing.TB, exe string, opts ...chromedp.ExecAllocatorOption) context.Context {
	t.Helper()
	all := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe), chromedp.Flag("disable-gpu", true))
	if os.Geteuid() == 0 {
		all = append(all, chromedp.NoSandbox) // Chromium refuses its sandbox as root
	}
	all = append(all, opts...)
	ctx, cancel := context.WithTimeout(context.Background(), testwait.Scale(3*time.Minute))
	t.Cleanup(cancel)
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, all...)
	t.Cleanup(cancelAlloc)
	bctx, cancelBrowser := chromedp.NewContext(actx)
	t.Cleanup(cancelBrowser)
	return bctx
}
