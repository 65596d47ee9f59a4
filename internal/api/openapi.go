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

// openapiDoc is the document in both encodings, each with its compressed
// forms as made, and their entity tags.
type openapiDoc struct {
	yaml, json         *coding.Forms
	yamlETag, jsonETag string
	err                error // the conversion failed; tests rule that out
}

// newOpenAPIDoc builds the document and converts it to JSON once, when the
// server is built, rather than per request.
func newOpenAPIDoc(c *dataset.Catalog) *openapiDoc {
	y, err := OpenAPIDocument(c)
	if err != nil {
		return &openapiDoc{err: err}
	}
	j, err := yamlToJSON(y)
	if err != nil {
		return &openapiDoc{err: fmt.Errorf("openapi.yaml: %w", err)}
	}
	return &openapiDoc{yaml: coding.NewForms(y), json: coding.NewForms(j), yamlETag: etag(y), jsonETag: etag(j)}
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
func handleOpenAPI(log *slog.Logger, z *coding.Compressor, docOf func() *openapiDoc, asJSON bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		doc := docOf()
		if doc.err != nil {
			writeError(w, r, log, doc.err)
			return
		}
		forms, tag, ctype := doc.yaml, doc.yamlETag, "application/yaml"
		if asJSON {
			forms, tag, ctype = doc.json, doc.jsonETag, "application/json"
		}
		body, k := z.Pick(r, forms)
		h := w.Header()
		h.Set("Content-Type", ctype)
		h.Set("ETag", k.Tag(tag))
		z.SetHeaders(h, k)
		h.Set("Cache-Control", "public, max-age=300")
		h.Set("Access-Control-Allow-Origin", "*")
		// ServeContent answers If-None-Match with 304 and serves HEAD and ranges.
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(body))
	})
}

// yamlToJSON converts a YAML document to indented JSON, keeping the order of
// mapping keys so that the JSON reads like the YAML it came from.
func yamlToJSON(y []byte) ([]byte, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(y, &root); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := writeJSONNode(&buf, &root); err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := json.Indent(&out, buf.Bytes(), "", "  "); err != nil {
		return nil, err
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
