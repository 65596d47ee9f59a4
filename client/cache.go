package client

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Cache keeps answers with their entity tags, so that a client asks again
// with If-None-Match and the server answers 304, with no body, when the
// data have not changed. Keys are request URLs (without the token).
type Cache interface {
	// Load returns the tag and body stored for key; ok is false if none is.
	Load(key string) (etag string, body []byte, ok bool)
	// Store keeps body under key with its tag. Errors are the cache's own:
	// the client reports none, since the answer is still good.
	Store(key, etag string, body []byte) error
}

// WithCache makes the client revalidate answers it holds in cache rather
// than fetch them again: a repeated request that the server answers 304
// costs no body.
func WithCache(cache Cache) Option { return func(c *Client) { c.cache = cache } }

// DirCache is a Cache in a directory: one file per request URL, named by
// its SHA-256, holding the tag on the first line and the body after it.
type DirCache string

// Load implements Cache.
func (d DirCache) Load(key string) (string, []byte, bool) {
	b, err := os.ReadFile(d.path(key))
	if err != nil {
		return "", nil, false
	}
	tag, body, ok := strings.Cut(string(b), "\n")
	if !ok || tag == "" {
		return "", nil, false
	}
	return tag, []byte(body), true
}

// Store implements Cache. It writes a temporary file and renames it, so
// that a concurrent Load never reads half an answer.
func (d DirCache) Store(key, etag string, body []byte) error {
	if strings.ContainsAny(etag, "\r\n") {
		return fmt.Errorf("client: cache: tag %q has a line break", etag)
	}
	if err := os.MkdirAll(string(d), 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("client: cache: %w", err)
	}
	f, err := os.CreateTemp(string(d), ".answer-*")
	if err != nil {
		return fmt.Errorf("client: cache: %w", err)
	}
	_, err = f.WriteString(etag + "\n")
	if err == nil {
		_, err = f.Write(body)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), d.path(key))
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("client: cache: %w", err)
	}
	return nil
}

func (d DirCache) path(key string) string {
	sum := sha256.Sum256([]byte(key))
	return filepath.Join(string(d), hex.EncodeToString(sum[:]))
}

// AsOf sets params' asOf: the server answers the data as they stood at t
// (a record published later is absent, a record revised since shows its
// value then). It returns params, allocated if nil.
func AsOf(params url.Values, t time.Time) url.Values { return setInstant(params, "asOf", t) }

// ChangedSince sets params' changedSince: the server answers only the
// records first published or last revised after t. It returns params,
// allocated if nil.
func ChangedSince(params url.Values, t time.Time) url.Values {
	return setInstant(params, "changedSince", t)
}

// IncludeMeta sets params' include=meta: each record also holds
// published_at and revised_at, RFC 3339 instants in UTC (Record.Published,
// Record.Revised). It returns params, allocated if nil.
func IncludeMeta(params url.Values) url.Values {
	if params == nil {
		params = url.Values{}
	}
	params.Set("include", "meta")
	return params
}

func setInstant(params url.Values, name string, t time.Time) url.Values {
	if params == nil {
		params = url.Values{}
	}
	params.Set(name, t.UTC().Format(time.RFC3339Nano))
	return params
}

// Published returns when the record was first published; ok is false
// unless it was fetched with include=meta.
func (r Record) Published() (t time.Time, ok bool, err error) { return r.stamp("published_at") }

// Revised returns when the record's values last changed; ok is false
// unless it was fetched with include=meta.
func (r Record) Revised() (t time.Time, ok bool, err error) { return r.stamp("revised_at") }

func (r Record) stamp(field string) (time.Time, bool, error) {
	s, ok := r[field]
	if !ok {
		return time.Time{}, false, nil
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, false, fmt.Errorf("client: field %s: %q: %w", field, s, err)
	}
	return t, true, nil
}
