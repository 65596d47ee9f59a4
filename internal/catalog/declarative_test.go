package catalog

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestCatalogOnlyDeclares reads the package's own source and fails where
// it simulates, which internal/demo does: no randomness or hashing
// imported, no call of demo's noise, no function of math beyond telling
// empty numbers (NaN) apart, no hexadecimal constant (the seeds of noise),
// and no function of its own named after noise or a seed.
func TestCatalogOnlyDeclares(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	read := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		read++
		for _, problem := range simulates(f) {
			t.Errorf("%s: %s", fset.Position(problem.pos), problem.what)
		}
	}
	if read < 40 {
		t.Fatalf("read %d files, want the catalogue's (at least 40)", read)
	}
}

type problem struct {
	pos  token.Pos
	what string
}

// simulates lists what in f belongs to internal/demo rather than to a
// declaration.
func simulates(f *ast.File) []problem {
	var out []problem
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		if path == "math/rand" || path == "math/rand/v2" || strings.HasPrefix(path, "hash/") || path == "hash" || strings.HasPrefix(path, "crypto/") {
			out = append(out, problem{imp.Pos(), "imports " + path + ": randomness and hashing are the demo's"})
		}
	}
	allowedMath := map[string]bool{"NaN": true, "IsNaN": true, "Inf": true, "IsInf": true}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			pkg, ok := n.X.(*ast.Ident)
			if !ok {
				break
			}
			switch {
			case pkg.Name == "math" && !allowedMath[n.Sel.Name]:
				out = append(out, problem{n.Pos(), "calls math." + n.Sel.Name + ": formulas are the demo's"})
			case pkg.Name == "demo" && strings.Contains(strings.ToLower(n.Sel.Name), "noise"):
				out = append(out, problem{n.Pos(), "calls demo." + n.Sel.Name + ": noise belongs in a demo model"})
			}
		case *ast.BasicLit:
			if n.Kind == token.INT && strings.HasPrefix(strings.ToLower(n.Value), "0x") {
				out = append(out, problem{n.Pos(), "hexadecimal constant " + n.Value + ": a noise seed?"})
			}
		case *ast.FuncDecl:
			name := strings.ToLower(n.Name.Name)
			for _, w := range []string{"noise", "seed", "jitter", "splitmix", "hash"} {
				if strings.Contains(name, w) {
					out = append(out, problem{n.Pos(), "defines " + n.Name.Name + ": noise and seeds are the demo's"})
				}
			}
		}
		return true
	})
	return out
}

// TestSimulatesFindsSimulation checks the checker on a generator written
// the way the catalogue once held them.
func TestSimulatesFindsSimulation(t *testing.T) {
	src := `package catalog

import (
	"math"
	"math/rand/v2"
	"hash/fnv"
)

func jitterSeed(u int64) float64 { return demo.Noise(0x9e1, u) + rand.Float64() + math.Sin(float64(u)) + math.NaN() }
`
	f, err := parser.ParseFile(token.NewFileSet(), "x.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range simulates(f) {
		got = append(got, p.what)
	}
	want := []string{
		"imports math/rand/v2", "imports hash/fnv", "defines jitterSeed", "calls demo.Noise", "hexadecimal constant 0x9e1", "calls math.Sin",
	}
	all := strings.Join(got, "\n")
	for _, w := range want {
		if !strings.Contains(all, w) {
			t.Errorf("simulates missed %q; found:\n%s", w, all)
		}
	}
	if strings.Contains(all, "math.NaN") {
		t.Errorf("simulates flags math.NaN, which declarations use for empty numbers")
	}
}
