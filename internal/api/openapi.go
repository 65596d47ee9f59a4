package api

import (
	"bytes"
	"crypto/sha256"
	_ "embed" // the OpenAPI document ships inside the binary
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/energyapi/energyapi/internal/coding"
	"github.com/energyapi/energyapi/internal/dataset"
)

// openapiYAML is the OpenAPI 3.1 description of the public surface. A string,
// not a []byte, so that nothing can modify it.
//
//go:embed openapi.yaml
var openapiYAML string

// OpenAPIDocument returns the OpenAPI 3.1 description of the API serving
// the datasets of c, in YAML, as served at /openapi.yaml. Tests validate
// traffic against it.
func OpenAPIDocument(c *dataset.Catalog) ([]byte, error) { return buildOpenAPI(openapiYAML, c) }

// openapiDoc is the document in one encoding, with its compressed forms
// as made, and its entity tag.
type openapiDoc struct {
	forms *coding.Forms
	etag  string
	err   error // the conversion failed; tests rule that out
}

// newOpenAPIDoc builds the document in YAML, or in JSON, once, when it is
// first asked for, rather than per request. The JSON is written from the
// document's nodes, not from its YAML parsed again: each encoding costs
// its own writing alone.
func newOpenAPIDoc(c *dataset.Catalog, asJSON bool) *openapiDoc {
	root, err := openAPINode(openapiYAML, c)
	if err != nil {
		return &openapiDoc{err: err}
	}
	write := marshalOpenAPI
	if asJSON {
		write = nodeToJSON
	}
	b, err := write(root)
	if err != nil {
		return &openapiDoc{err: err}
	}
	return &openapiDoc{forms: coding.NewForms(b), etag: etag(b)}
}

func etag(b []byte) string {
	sum := sha256.Sum256(b)
	return `"` + base64.RawURLEncoding.EncodeToString(sum[:16]) + `"`
}

// handleOpenAPI serves one encoding of the document, compressed by z as the
// caller asks, each coding under its own tag. Without authentication:
// the description is public, and CORS is open so that browser-based editors
// and viewers can load it by URL. A document that failed to convert is
// answered 500 rather than stopping a server whose data endpoints work.
func handleOpenAPI(log *slog.Logger, z *coding.Compressor, docOf func() *openapiDoc, ctype string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		doc := docOf()
		if doc.err != nil {
			writeError(w, r, log, doc.err)
			return
		}
		body, k := z.Pick(r, doc.forms)
		h := w.Header()
		h.Set("Content-Type", ctype)
		h.Set("ETag", k.Tag(doc.etag))
		z.SetHeaders(h, k)
		h.Set("Cache-Control", "public, max-age=300")
		h.Set("Access-Control-Allow-Origin", "*")
		// ServeContent answers If-None-Match with 304 and serves HEAD and ranges.
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(body))
	})
}

// nodeToJSON writes a YAML document's nodes as indented JSON, keeping the
// order of mapping keys so that the JSON reads like the YAML.
func nodeToJSON(root *yaml.Node) ([]byte, error) {
	var buf bytes.Buffer
	if err := writeJSONNode(&buf, root); err != nil {
		return nil, fmt.Errorf("openapi: %w", err)
	}
	var out bytes.Buffer
	if err := json.Indent(&out, buf.Bytes(), "", "  "); err != nil {
		return nil, fmt.Errorf("openapi: %w", err)
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

// writeJSONList writes n items between begin and end, separated by
// commas, each with item: a JSON object's members or an array's elements.
func writeJSONList(buf *bytes.Buffer, begin, end byte, n int, item func(i int) error) error {
	buf.WriteByte(begin)
	for i := range n {
		if i > 0 {
			buf.WriteByte(',')
		}
		if err := item(i); err != nil {
			return err
		}
	}
	buf.WriteByte(end)
	return nil
}

func writeJSONNode(buf *bytes.Buffer, n *yaml.Node) error {
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) != 1 {
			return errors.New("want exactly one YAML document")
		}
		return writeJSONNode(buf, n.Content[0])
	case yaml.AliasNode:
		return writeJSONNode(buf, n.Alias)
	case yaml.MappingNode:
		return writeJSONList(buf, '{', '}', len(n.Content)/2, func(i int) error {
			k, v := n.Content[2*i], n.Content[2*i+1]
			if k.Kind != yaml.ScalarNode || k.Tag == "!!merge" {
				return fmt.Errorf("line %d: only plain scalar mapping keys convert to JSON", k.Line)
			}
			kb, _ := json.Marshal(k.Value) // a string always marshals
			buf.Write(kb)
			buf.WriteByte(':')
			return writeJSONNode(buf, v)
		})
	case yaml.SequenceNode:
		return writeJSONList(buf, '[', ']', len(n.Content), func(i int) error { return writeJSONNode(buf, n.Content[i]) })
	case yaml.ScalarNode:
		// Decode resolves the scalar's tag (string, int, float, bool, null).
		var v any
		if err := n.Decode(&v); err != nil {
			return fmt.Errorf("line %d: %w", n.Line, err)
		}
		b, err := json.Marshal(v)
		if err != nil { // NaN and infinities have no JSON form
			return fmt.Errorf("line %d: %w", n.Line, err)
		}
		buf.Write(b)
		return nil
	}
	return fmt.Errorf("line %d: unsupported YAML node kind %d", n.Line, n.Kind)
}
