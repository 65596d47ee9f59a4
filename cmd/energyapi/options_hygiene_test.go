package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// optionGroups are api.Options and its groups: what serve builds once and
// api.NewServer reads.
var optionGroups = map[string]bool{"Options": true, "Data": true, "Auth": true, "Limits": true, "Cache": true, "Sandbox": true, "Observability": true}

// TestOptionsNotChangedAfterConstruction checks that api.Options and its
// groups are built in one literal each and never changed afterwards. In
// cmd/energyapi a literal may only be passed, returned or nested, never
// kept in a variable or behind a pointer, and no function takes one as an
// argument (to return it changed); so no code here can change one. In
// internal/api no function assigns to a field of an Options argument,
// but withDefaults, which returns the defaults resolved in a copy.
func TestOptionsNotChangedAfterConstruction(t *testing.T) {
	t.Parallel()
	for _, f := range parseDir(t, ".") {
		ast.Inspect(f.file, func(n ast.Node) bool {
			if msg := changeableOptions(n); msg != "" {
				t.Errorf("%s: %s: options must be built in one literal and not changed", f.fset.Position(n.Pos()), msg)
			}
			return true
		})
	}
	for _, f := range parseDir(t, filepath.Join("..", "..", "internal", "api")) {
		for _, d := range f.file.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Body == nil || fn.Name.Name == "withDefaults" {
				continue
			}
			for _, name := range optionParams(fn) {
				ast.Inspect(fn.Body, func(n ast.Node) bool {
					if a, ok := n.(*ast.AssignStmt); ok {
						for _, lhs := range a.Lhs {
							if _, isSel := lhs.(*ast.SelectorExpr); isSel && root(lhs) == name {
								t.Errorf("%s: %s changes its Options argument %s", f.fset.Position(a.Pos()), fn.Name.Name, name)
							}
						}
					}
					return true
				})
			}
		}
	}
}

type parsedFile struct {
	fset *token.FileSet
	file *ast.File
}

// parseDir parses the non-test Go files of dir.
func parseDir(t *testing.T, dir string) []parsedFile {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no Go files in %s: %v", dir, err)
	}
	var out []parsedFile
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, parsedFile{fset, f})
	}
	return out
}

// isOptionType reports whether e is api.Options, one of its groups, or a
// pointer to one.
func isOptionType(e ast.Expr) bool {
	if s, ok := e.(*ast.StarExpr); ok {
		e = s.X
	}
	sel, ok := e.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && pkg.Name == "api" && optionGroups[sel.Sel.Name]
}

// isOptionLiteral reports whether e is a literal of an option type, or its address.
func isOptionLiteral(e ast.Expr) bool {
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = u.X
	}
	c, ok := e.(*ast.CompositeLit)
	return ok && c.Type != nil && isOptionType(c.Type)
}

// changeableOptions returns why n lets options be changed in cmd/energyapi, or "".
func changeableOptions(n ast.Node) string {
	switch n := n.(type) {
	case *ast.FuncType:
		if n.Params != nil {
			for _, p := range n.Params.List {
				if isOptionType(p.Type) {
					return "a function takes options as an argument"
				}
			}
		}
	case *ast.ValueSpec:
		if n.Type != nil && isOptionType(n.Type) {
			return "a variable holds options"
		}
		for _, v := range n.Values {
			if isOptionLiteral(v) {
				return "a variable holds options"
			}
		}
	case *ast.AssignStmt:
		for _, v := range n.Rhs {
			if isOptionLiteral(v) {
				return "a variable holds options"
			}
		}
	case *ast.UnaryExpr:
		if n.Op == token.AND && isOptionLiteral(n.X) {
			return "a pointer to options"
		}
	}
	return ""
}

// optionParams returns the names of fn's receiver and parameters of type
// Options or *Options, inside package api.
func optionParams(fn *ast.FuncDecl) []string {
	var names []string
	for _, list := range []*ast.FieldList{fn.Recv, fn.Type.Params} {
		if list == nil {
			continue
		}
		for _, p := range list.List {
			typ := p.Type
			if s, ok := typ.(*ast.StarExpr); ok {
				typ = s.X
			}
			if id, ok := typ.(*ast.Ident); ok && id.Name == "Options" {
				for _, n := range p.Names {
					names = append(names, n.Name)
				}
			}
		}
	}
	return names
}

// root returns the name at the root of a selector chain such as o.Limits.MaxQueue.
func root(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.SelectorExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}
