package apitest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/energyapi/energyapi/internal/api"
	"github.com/energyapi/energyapi/internal/catalog"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// Validator checks HTTP exchanges against the OpenAPI document the server
// embeds, so that the document cannot drift from the code. It is safe for
// concurrent use.
type Validator struct {
	doc    *openapi3.T
	router routers.Router
	// matched holds the answers whose content has matched the document,
	// by bodyKey: the tests ask for the same answers many times (in each
	// content coding, again after a revision, from several clients), and
	// the schema walk of a large answer was a tenth of the api tests' CPU.
	// An answer's headers are checked every time.
	matched sync.Map
}

// bodyKey is what the check of an answer's content depends on: the
// document's response for the operation and status, the answer's
// Content-Type and its content.
type bodyKey struct {
	op          *openapi3.Operation
	status      int
	contentType string
	sum         [sha256.Size]byte
}

// LoadDocument loads and validates the embedded OpenAPI document, examples
// and patterns included. The document is the one the Validators check
// against, loaded once for the test binary: read it, never change it.
func LoadDocument() (*openapi3.T, error) {
	v, err := validators.embedded()
	if err != nil {
		return nil, err
	}
	return v.doc, nil
}

// LoadDocumentFor is LoadDocument for a server that serves the datasets of c.
func LoadDocumentFor(c *dataset.Catalog) (*openapi3.T, error) {
	v, err := validators.forCatalog(c)
	if err != nil {
		return nil, err
	}
	return v.doc, nil
}

func loadDocument(y []byte) (*openapi3.T, error) {
	doc, err := openapi3.NewLoader().LoadFromData(y)
	if err != nil {
		return nil, fmt.Errorf("load openapi.yaml: %w", err)
	}
	if err := doc.Validate(context.Background(), openapi3.EnableExamplesValidation(), openapi3.EnableSchemaPatternValidation()); err != nil {
		return nil, fmt.Errorf("openapi.yaml is not a valid document: %w", err)
	}
	return doc, nil
}

// NewValidator returns a Validator for the embedded document.
func NewValidator(tb testing.TB) *Validator {
	tb.Helper()
	v, err := validators.embedded()
	if err != nil {
		tb.Fatal(err)
	}
	return v
}

// NewValidatorFor returns a Validator for the document of a server that
// serves the datasets of c.
//
// Validators are kept per document, for the life of the test binary: loading
// and validating the document is most of the cost of a test server, and most
// tests serve the same catalogue.
func NewValidatorFor(tb testing.TB, c *dataset.Catalog) *Validator {
	tb.Helper()
	v, err := validators.forCatalog(c)
	if err != nil {
		tb.Fatal(err)
	}
	return v
}

// validators are the Validators made so far, by the document they check.
var validators = validatorCache{byDoc: map[string]*validatorOnce{}, byCatalog: map[*dataset.Catalog]*validatorOnce{}}

type validatorCache struct {
	mu    sync.Mutex
	byDoc map[string]*validatorOnce
	// byCatalog saves writing the document of a catalogue out again: a
	// catalogue does not change once made.
	byCatalog map[*dataset.Catalog]*validatorOnce
	// def is the Validator of the embedded document, which most tests ask
	// for: it saves them writing the document out to find it in byDoc.
	def validatorOnce
}

func (c *validatorCache) embedded() (*Validator, error) {
	c.def.once.Do(func() {
		cat, err := catalog.New()
		if err != nil {
			c.def.err = err
			return
		}
		y, err := api.OpenAPIDocument(cat)
		if err != nil {
			c.def.err = err
			return
		}
		c.def.v, c.def.err = c.get(string(y))
	})
	return c.def.v, c.def.err
}

type validatorOnce struct {
	once sync.Once
	v    *Validator
	err  error
}

func (c *validatorCache) forCatalog(cat *dataset.Catalog) (*Validator, error) {
	e := entry(&c.mu, c.byCatalog, cat)
	e.once.Do(func() {
		y, err := api.OpenAPIDocument(cat)
		if err != nil {
			e.err = err
			return
		}
		e.v, e.err = c.get(string(y))
	})
	return e.v, e.err
}

func (c *validatorCache) get(y string) (*Validator, error) {
	e := entry(&c.mu, c.byDoc, y)
	e.once.Do(func() { e.v, e.err = newValidator([]byte(y)) })
	return e.v, e.err
}

// entry returns m's entry for k, made on the first call, under mu.
func entry[K comparable](mu *sync.Mutex, m map[K]*validatorOnce, k K) *validatorOnce {
	mu.Lock()
	defer mu.Unlock()
	e := m[k]
	if e == nil {
		e = &validatorOnce{}
		m[k] = e
	}
	return e
}

func newValidator(y []byte) (*Validator, error) {
	doc, err := loadDocument(y)
	if err != nil {
		return nil, err
	}
	// The legacy router matches on the path alone: the document names no
	// servers, so its paths are relative to wherever it is served.
	r, err := legacy.NewRouter(doc)
	if err != nil {
		return nil, err
	}
	return &Validator{doc: doc, router: r}, nil
}

// Check validates one exchange: the request (whose body is reqBody) and the
// answer. The rules, which hold in both directions where they can:
//
//   - A path the document does not list must be answered 404, and a method it
//     does not list for a path 405.
//   - A request the document rejects (a missing required parameter, a
//     malformed date, no credentials where they are required) must be
//     answered with a 4xx status. The converse does not hold: the server also
//     refuses requests that no schema can describe, such as a date range
//     longer than its limit.
//   - Every answer must match the document's response for its status, body
//     (an empty one included) and declared headers.
func (v *Validator) Check(req *http.Request, reqBody []byte, status int, header http.Header, body []byte) error {
	route, pathParams, err := v.router.FindRoute(req)
	if err != nil {
		switch {
		case isRouteErr(err, routers.ErrMethodNotAllowed):
			if status != http.StatusMethodNotAllowed {
				return fmt.Errorf("%s %s: the document has no such operation, but the server answered %d, not 405", req.Method, req.URL.Path, status)
			}
			return nil
		case isRouteErr(err, routers.ErrPathNotFound):
			if status != http.StatusNotFound {
				return fmt.Errorf("%s %s: the document does not list the path, but the server answered %d, not 404", req.Method, req.URL.Path, status)
			}
			return nil
		}
		return fmt.Errorf("%s %s: %w", req.Method, req.URL.Path, err)
	}
	opts := &openapi3filter.Options{
		AuthenticationFunc:    authenticate,
		IncludeResponseStatus: true, // a status the document does not list is drift
		SkipSettingDefaults:   true,
	}
	in := &openapi3filter.RequestValidationInput{Request: cloneRequest(req, reqBody), PathParams: pathParams, Route: route, Options: opts}
	if err := openapi3filter.ValidateRequest(context.Background(), in); err != nil && (status < 400 || status > 499) {
		return fmt.Errorf("%s %s: the document rejects the request (%v), but the server answered %d", req.Method, req.URL, err, status)
	}
	key := bodyKey{op: route.Operation, status: status, contentType: header.Get("Content-Type"), sum: sha256.Sum256(body)}
	if _, seen := v.matched.Load(key); seen {
		headersOnly := *opts
		headersOnly.ExcludeResponseBody = true
		opts = &headersOnly
	}
	out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: status, Header: header, Options: opts}
	out.SetBodyBytes(body)
	if err := openapi3filter.ValidateResponse(context.Background(), out); err != nil {
		return fmt.Errorf("%s %s: answer %d does not match the document: %v\nbody: %.500s", req.Method, req.URL, status, err, body)
	}
	v.matched.Store(key, struct{}{})
	return nil
}

func isRouteErr(err, want error) bool {
	var re *routers.RouteError
	return errors.Is(err, want) || (errors.As(err, &re) && re.Reason == want.Error())
}

// authenticate stands in for the server's credential check: the document
// only requires credentials to be present. A bearer token may come with or
// without the Bearer scheme, as the server accepts both.
func authenticate(_ context.Context, in *openapi3filter.AuthenticationInput) error {
	h := in.RequestValidationInput.Request.Header.Get("Authorization")
	switch s := in.SecurityScheme; {
	case s.Type == "oauth2" && strings.TrimSpace(h) == "":
		return errors.New("no Authorization header")
	case s.Type == "http" && s.Scheme == "basic" && !strings.HasPrefix(strings.ToLower(h), "basic "):
		return errors.New("no HTTP Basic credentials")
	}
	return nil
}

func cloneRequest(req *http.Request, body []byte) *http.Request {
	c := req.Clone(context.Background())
	c.Body = io.NopCloser(bytes.NewReader(body))
	c.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	return c
}

// Transport returns a RoundTripper that sends requests through base
// (http.DefaultTransport if nil) and reports, with tb.Errorf, every exchange
// that Check rejects. Use it as the Transport of the http.Client a test or a
// client under test talks to the server with.
func (v *Validator) Transport(tb testing.TB, base http.RoundTripper) http.RoundTripper {
	if base == nil {
		base = http.DefaultTransport
	}
	return &validatingTransport{v: v, tb: tb, base: base}
}

type validatingTransport struct {
	v    *Validator
	tb   testing.TB
	base http.RoundTripper
}

func (t *validatingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	var reqBody []byte
	if req.Body != nil && req.Body != http.NoBody {
		b, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		reqBody = b
		// A RoundTripper must not modify the request: send a copy with the body restored.
		req = req.Clone(req.Context())
		req.Body = io.NopCloser(bytes.NewReader(b))
	}
	resp, body, err := RoundTripRead(t.base, req)
	if err != nil {
		return resp, err
	}
	// The document describes the answer's content; a compressed answer is
	// checked as it decodes.
	content, err := DecodeContent(resp.Header.Get("Content-Encoding"), body)
	if err != nil {
		t.tb.Errorf("%s %s: Content-Encoding %s: %v", req.Method, req.URL, resp.Header.Get("Content-Encoding"), err)
		return resp, nil
	}
	if err := t.v.Check(req, reqBody, resp.StatusCode, resp.Header, content); err != nil {
		t.tb.Errorf("OpenAPI: %v", err)
	}
	return resp, nil
}

// DecodeContent returns body decoded from the content coding ce (gzip,
// zstd, or none): into one buffer of the size the coding states (a gzip
// trailer's, a zstd frame's) rather than grown to it, for the tests
// decode megabytes of answers.
func DecodeContent(ce string, body []byte) ([]byte, error) {
	if ce == "" || len(body) == 0 {
		return body, nil
	}
	switch ce {
	case "gzip":
		gr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		size := 0
		if len(body) >= 4 {
			size = int(binary.LittleEndian.Uint32(body[len(body)-4:])) // a hint only
		}
		buf := bytes.NewBuffer(make([]byte, 0, min(size, 1<<30)+bytes.MinRead))
		_, err = buf.ReadFrom(gr)
		return buf.Bytes(), err
	case "zstd":
		zr, err := zstd.NewReader(nil)
		if err != nil {
			return nil, err
		}
		defer zr.Close()
		var h zstd.Header
		size := uint64(0)
		if h.Decode(body) == nil && h.HasFCS {
			size = min(h.FrameContentSize, 1<<30)
		}
		return zr.DecodeAll(body, make([]byte, 0, size))
	}
	return nil, fmt.Errorf("unknown content coding")
}

// RoundTripRead sends req through rt and reads the answer's body whole,
// for a RoundTripper that looks at answers: the answer returned reads the
// same bytes again. A failed round trip returns rt's answer and error as
// they are, with no body; a failed read returns neither answer nor body.
func RoundTripRead(rt http.RoundTripper, req *http.Request) (*http.Response, []byte, error) {
	resp, err := rt.RoundTrip(req)
	if err != nil {
		return resp, nil, err
	}
	body, err := readBody(resp)
	resp.Body.Close()
	if err != nil {
		return nil, nil, err
	}
	resp.Body = &readAnswer{Reader: bytes.NewReader(body), body: body}
	return resp, body, nil
}

// readAnswer is an answer's body that RoundTripRead has read already: Do
// takes its bytes rather than copying them.
type readAnswer struct {
	*bytes.Reader
	body []byte
}

func (*readAnswer) Close() error { return nil }

// readBody reads resp's body whole: into one buffer of the announced
// length rather than grown to it (the tests read megabytes of answers),
// or, when RoundTripRead has read it already, as the bytes it read.
func readBody(resp *http.Response) ([]byte, error) {
	if ra, ok := resp.Body.(*readAnswer); ok && ra.Len() == len(ra.body) {
		return ra.body, nil
	}
	if resp.ContentLength <= 0 { // a streamed answer
		return io.ReadAll(resp.Body)
	}
	buf := bytes.NewBuffer(make([]byte, 0, resp.ContentLength+bytes.MinRead))
	_, err := buf.ReadFrom(resp.Body)
	return buf.Bytes(), err
}
