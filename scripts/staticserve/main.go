// Command staticserve is the yardstick of scripts/bench-ratio: the least a
// net/http server can do to answer the same requests with the same bytes.
// It serves each file of a directory, as written by bench-ratio, at the
// request path and query it was fetched from, and a fixed token at the
// token path, so that cmd/loadtest drives it exactly as it drives energyapi.
// A file's answer carries the ETag in the file of the same name with .etag
// added, if there is one, and a request whose If-None-Match is that tag gets
// 304 with no body: the yardstick of the revalidation path.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
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
	if err := fs.Parse(args); err != nil {
		return err
	}
	index, err := os.ReadFile(filepath.Join(*dir, "index.json"))
	if err != nil {
		return err
	}
	var files map[string]string
	if err := json.Unmarshal(index, &files); err != nil {
		return err
	}
	answers, tags := map[string][]byte{}, map[string]string{}
	for target, name := range files {
		if answers[target], err = os.ReadFile(filepath.Join(*dir, name)); err != nil {
			return err
		}
		if tag, err := os.ReadFile(filepath.Join(*dir, name+".etag")); err == nil {
			tags[target] = strings.TrimSpace(string(tag))
		}
	}
	token := []byte(`{"access_token":"static","token_type":"bearer","expires_in":300}`)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := answers[r.URL.RequestURI()]
		if r.URL.Path == "/public-api/access-token" {
			body, ok = token, true
		}
		if !ok {
			http.NotFound(w, r)
			return
		}
		if tag := tags[r.URL.RequestURI()]; tag != "" {
			w.Header().Set("ETag", tag)
			if r.Header.Get("If-None-Match") == tag {
				w.WriteHeader(http.StatusNotModified)
				return
			}
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		_, _ = w.Write(body)
	})
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	fmt.Printf("listening on http://%s\n", ln.Addr())
	return http.Serve(ln, h)
}
