package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/energyapi/energyapi/internal/catalog"
)

// The Markdown the checks below read: the README and every page of docs/.
var (
	// commandUse is a quoted command: "energyapi", its subcommand and
	// what follows on the line or in the code span.
	commandUse = regexp.MustCompile(`(?:^|[\s/(])energyapi ([a-z][a-z-]*)(.*)`)
	// flagUse is a long flag; all-capital names (--PARAM) are placeholders.
	flagUse     = regexp.MustCompile(`--([a-zA-Z][a-zA-Z0-9-]*)`)
	codeSpan    = regexp.MustCompile("`([^`\n]+)`")
	mdLink      = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	repoPath    = regexp.MustCompile(`^(?:\.ci|client|cmd|docs|internal|scripts)/[^\s]*`)
	slugStrip   = regexp.MustCompile(`[^\p{L}\p{N} _-]`)
	placeholder = regexp.MustCompile(`^[A-Z]+$`)
	// printedLine is a line energyapi prints ("energyapi sandbox admin
	// token: ..."), quoted as output rather than as a command.
	printedLine = regexp.MustCompile(`^energyapi [a-z ]+: `)
	// pathPart is a placeholder in a path (internal/catalog/<resource>.go),
	// which stands for any name.
	pathPart = regexp.MustCompile(`<[^>/]+>`)
)

// TestDocsQuoteWhatExists reads the README and docs/*.md and checks what
// they quote against the code: every "energyapi SUBCOMMAND" is a command
// run knows, every --flag quoted with a command appears in that command's
// -h output (a flag quoted on its own, as in the flag tables, in some
// command's), and every relative link, and every repository path in a code
// span, names a file or directory that exists (a link's #anchor a heading
// of its page). So a renamed flag, a moved file or a moved section fails
// here rather than in a reader's hands.
func TestDocsQuoteWhatExists(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "..")
	pages, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	pages = append([]string{filepath.Join(root, "README.md")}, pages...)
	h := newHelpTexts(t)
	for _, page := range pages {
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, page)
		for _, q := range quotesOf(string(b)) {
			where := rel + ":" + q.line
			if printedLine.MatchString(q.text) {
				continue
			}
			if m := commandUse.FindStringSubmatch(q.text); m != nil {
				h.checkCommand(t, where, m[1], m[2])
			} else if !q.block && strings.HasPrefix(q.text, "--") {
				h.checkAnyFlag(t, where, q.text)
			}
			if p := repoPath.FindString(q.text); p != "" && !q.block {
				p = pathPart.ReplaceAllString(strings.TrimRight(p, ".,;:)"), "*")
				checkPath(t, where, root, p)
			}
		}
		for _, m := range mdLink.FindAllStringSubmatch(string(b), -1) {
			checkLink(t, rel, page, m[1])
		}
	}
}

// quote is a code span, or a line of a fenced block, with where it stands.
type quote struct {
	text, line string
	block      bool
}

func quotesOf(md string) []quote {
	var qs []quote
	fence := false
	for i, l := range strings.Split(md, "\n") {
		n := strconv.Itoa(i + 1)
		if strings.HasPrefix(l, "```") {
			fence = !fence
			continue
		}
		if fence {
			qs = append(qs, quote{text: l, line: n, block: true})
			continue
		}
		for _, m := range codeSpan.FindAllStringSubmatch(l, -1) {
			qs = append(qs, quote{text: m[1], line: n})
		}
	}
	return qs
}

// helpTexts runs "-h" for each command once, in process.
type helpTexts struct {
	t        *testing.T
	texts    map[string]string
	datasets []string
}

func newHelpTexts(t *testing.T) *helpTexts {
	cat, err := catalog.New()
	if err != nil {
		t.Fatal(err)
	}
	return &helpTexts{t: t, texts: map[string]string{}, datasets: cat.Names()}
}

// of returns the -h output of the command args name.
func (h *helpTexts) of(args ...string) string {
	key := strings.Join(args, " ")
	if s, ok := h.texts[key]; ok {
		return s
	}
	stdout, stderr, code := runFull(h.t, context.Background(), map[string]string{"ENERGYAPI_DB": filepath.Join(h.t.TempDir(), "help.db")}, append(args, "-h")...)
	if code != 0 {
		h.t.Fatalf("energyapi %s -h: exit %d, %s", key, code, stderr)
	}
	h.texts[key] = stdout
	return stdout
}

// commandOf is the command whose -h lists the flags of "energyapi cmd rest".
func (h *helpTexts) commandOf(cmd, rest string) []string {
	next, _, _ := strings.Cut(strings.TrimSpace(rest), " ")
	switch {
	case cmd == "clients" && slices.Contains([]string{"create", "list", "revoke", "rotate-secret"}, next):
		return []string{cmd, next}
	case cmd == "get" && slices.Contains(h.datasets, next):
		return []string{cmd, next}
	}
	return []string{cmd}
}

func (h *helpTexts) checkCommand(t *testing.T, where, cmd, rest string) {
	t.Helper()
	if !slices.Contains(commands(), cmd) {
		t.Errorf("%s: energyapi %s: no such command (energyapi help lists %v)", where, cmd, commands())
		return
	}
	args := h.commandOf(cmd, rest)
	help := h.of(args...)
	for _, f := range flagsOf(rest) {
		if !hasFlag(help, f) {
			t.Errorf("%s: energyapi %s: %s is not among its flags (energyapi %s -h)", where, cmd, f, strings.Join(args, " "))
		}
	}
}

// checkAnyFlag checks flags quoted without a command against every command.
func (h *helpTexts) checkAnyFlag(t *testing.T, where, text string) {
	t.Helper()
	for _, f := range flagsOf(text) {
		found := false
		for _, c := range commands() {
			if c != "help" && hasFlag(h.of(c), f) {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("%s: %s is a flag of no command", where, f)
		}
	}
}

func flagsOf(s string) []string {
	var fs []string
	for _, m := range flagUse.FindAllStringSubmatch(s, -1) {
		if !placeholder.MatchString(m[1]) {
			fs = append(fs, "--"+m[1])
		}
	}
	return fs
}

// hasFlag reports whether help lists flag, or it is one that every command
// (--help) or run itself (--version) takes.
func hasFlag(help, flag string) bool {
	if flag == "--help" || flag == "--version" {
		return true
	}
	return regexp.MustCompile(regexp.QuoteMeta(flag) + `(?:[^a-zA-Z0-9-]|$)`).MatchString(help)
}

func checkPath(t *testing.T, where, root, p string) {
	t.Helper()
	path := filepath.Join(root, p)
	if strings.Contains(path, "*") {
		if m, _ := filepath.Glob(path); len(m) == 0 {
			t.Errorf("%s: %s matches no file", where, p)
		}
		return
	}
	if _, err := os.Stat(path); err != nil {
		t.Errorf("%s: %s does not exist", where, p)
	}
}

// checkLink checks a relative link of page: its file, and its anchor among
// the headings of the page it names.
func checkLink(t *testing.T, rel, page, target string) {
	t.Helper()
	if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
		return
	}
	file, anchor, _ := strings.Cut(target, "#")
	path := page
	if file != "" {
		path = filepath.Join(filepath.Dir(page), file)
		if _, err := os.Stat(path); err != nil {
			t.Errorf("%s: link %s: %s does not exist", rel, target, file)
			return
		}
	}
	if anchor == "" || !strings.HasSuffix(path, ".md") {
		return
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(anchorsOf(string(b)), anchor) {
		t.Errorf("%s: link %s: no heading of %s has the anchor #%s", rel, target, file, anchor)
	}
}

// anchorsOf returns the anchors GitHub gives the headings of md.
func anchorsOf(md string) []string {
	var as []string
	fence := false
	for _, l := range strings.Split(md, "\n") {
		if strings.HasPrefix(l, "```") {
			fence = !fence
		}
		if fence || !strings.HasPrefix(l, "#") {
			continue
		}
		h := strings.TrimSpace(strings.TrimLeft(l, "#"))
		as = append(as, strings.ReplaceAll(slugStrip.ReplaceAllString(strings.ToLower(h), ""), " ", "-"))
	}
	return as
}

// TestReadmeIsShort keeps the README a five-minute read for a newcomer;
// operations, clients, data and design belong in docs/.
func TestReadmeIsShort(t *testing.T) {
	t.Parallel()
	const maxLines = 250
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "\n"); n >= maxLines {
		t.Errorf("README.md has %d lines, want under %d: move the detail into docs/", n, maxLines)
	}
}
