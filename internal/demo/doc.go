// Package demo builds the deterministic demo dataset that `serve --demo` and tests use.
package demo
