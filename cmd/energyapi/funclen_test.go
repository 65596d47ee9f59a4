package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestNoLongFunctions keeps the house rule that functions stay well under 80
// lines (issue 26): it parses every non-test Go file of the module and names
// each function longer than that, counted from func to the closing brace.
// Generated files ("Code generated ... DO NOT EDIT.") are left out, and so
// are the packages only tests import: a package other than main whose name
// ends in "test", as net/http/httptest's does (storetest, pgtest, apitest).
// So that this cannot hide code the server runs, no other non-test file may
// import such a package.
func TestNoLongFunctions(t *testing.T) {
	t.Parallel()
	const maxLines = 80
	const module = "github.com/energyapi/energyapi"
	root := filepath.Join("..", "..")
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root: %v", err)
	}
	fset := token.NewFileSet()
	testOnly := map[string]bool{}    // import paths of the test-support packages
	imports := map[string][]string{} // file -> imports of the module, for the non-test files that count
	var long []string                // functions over maxLines
	files := 0
	err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() {
			// Directories the go command ignores hold no package of the module.
			if n := e.Name(); p != root && (strings.HasPrefix(n, ".") || strings.HasPrefix(n, "_") || n == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		if ast.IsGenerated(f) {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		if name := f.Name.Name; name != "main" && strings.HasSuffix(name, "test") {
			testOnly[path.Join(module, filepath.ToSlash(filepath.Dir(rel)))] = true
			return nil
		}
		files++
		for _, im := range f.Imports {
			if ip, err := strconv.Unquote(im.Path.Value); err == nil && strings.HasPrefix(ip, module+"/") {
				imports[rel] = append(imports[rel], ip)
			}
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			start, end := fset.Position(fd.Pos()), fset.Position(fd.End())
			if n := end.Line - start.Line + 1; n > maxLines {
				long = append(long, rel+":"+strconv.Itoa(start.Line)+": "+funcName(fd)+" is "+strconv.Itoa(n)+" lines")
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("checked %d files; the walk from %s missed the module", files, root)
	}
	for _, l := range long {
		t.Errorf("%s; split it under %d", l, maxLines)
	}
	for file, ips := range imports {
		for _, ip := range ips {
			if testOnly[ip] {
				t.Errorf("%s imports %s, a package for tests that this test does not check", file, ip)
			}
		}
	}
}

// funcName names a function as a reader looks for it: "(*T).M" or "F".
func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	typ := fd.Recv.List[0].Type
	star := ""
	if s, ok := typ.(*ast.StarExpr); ok {
		typ, star = s.X, "*"
	}
	if g, ok := typ.(*ast.IndexExpr); ok {
		typ = g.X
	}
	if g, ok := typ.(*ast.IndexListExpr); ok {
		typ = g.X
	}
	if id, ok := typ.(*ast.Ident); ok {
		return "(" + star + id.Name + ")." + fd.Name.Name
	}
	return fd.Name.Name
}
