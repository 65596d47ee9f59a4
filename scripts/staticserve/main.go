// Command staticserve is the yardstick of scripts/bench-ratio: the least a
// net/http server can do to answer the same requests with the same bytes.
// It serves each file of a directory, as written by bench-ratio, at the
// request path and query it was fetched from, and a fixed token at the
// token path, so that cmd/loadtest drives it exactly as it drives energyapi.
// A file's answer carries the ETag in the file of the same name with .etag
// added, if there is one, and a request whose If-None-Match is that tag gets
// 304 with no body: the yardstick of the revalidation path. A file with .gz
// added is the answer's gzip form: a request whose Accept-Encoding names
// gzip gets it, with Content-Encoding, Vary and the ETag in its own .etag
// file, as energyapi sends a compressed answer. The token it hands out is
// -token's, so that the load generator sends both servers the same bytes.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/energyapi/energyapi/internal/yardstick"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "staticserve:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("staticserve", flag.ContinueOnError)
	dir := fs.String("dir", "", "directory of answers: index.json maps \"path?query\" to a file name")
	addr := fs.String("addr", "127.0.0.1:0", "listen address (loopback)")
	token := fs.String("token", "static", "the access token handed out at the token path (energyapi's, for requests of the same size)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	answers, err := load(*dir)
	if err != nil {
		return err
	}
	tokenBody, err := json.Marshal(map[string]any{"access_token": *token, "token_type": "bearer", "expires_in": 300})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	fmt.Printf("listening on http://%s\n", ln.Addr())
	return http.Serve(ln, handler(answers, tokenBody))
}

// load reads the answers that dir's index.json names.
func load(dir string) (map[string]yardstick.Answer, error) {
	index, err := os.ReadFile(filepath.Join(dir, "index.json"))
	if err != nil {
		return nil, err
	}
	var files map[string]string
	if err := json.Unmarshal(index, &files); err != nil {
		return nil, err
	}
	answers := map[string]yardstick.Answer{}
	for target, name := range files {
		var a yardstick.Answer
		if a.Body, err = os.ReadFile(filepath.Join(dir, name)); err != nil {
			return nil, err
		}
		a.Tag = readTag(filepath.Join(dir, name))
		if gz, err := os.ReadFile(filepath.Join(dir, name+".gz")); err == nil {
			a.Gzip, a.GzTag = gz, readTag(filepath.Join(dir, name+".gz"))
		}
		answers[target] = a
	}
	return answers, nil
}

// readTag returns the ETag stored beside file, "" if none is.
func readTag(file string) string {
	tag, err := os.ReadFile(file + ".etag")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(tag))
}

// handler answers each target with its stored answer, and the token path
// with tokenBody.
func handler(answers map[string]yardstick.Answer, tokenBody []byte) http.Handler {
	return yardstick.Static(answers, tokenBody)
}
