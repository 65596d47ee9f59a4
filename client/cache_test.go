package client_test

import (
	"net/url"
	"testing"
	"time"

	"github.com/energyapi/energyapi/client"
)

func TestDirCache(t *testing.T) {
	t.Parallel()
	c := client.DirCache(t.TempDir() + "/answers")
	if _, _, ok := c.Load("http://x/a"); ok {
		t.Fatal("empty cache: got an entry")
	}
	if err := c.Store("http://x/a", `"tag1"`, []byte("line one\nline two")); err != nil {
		t.Fatal(err)
	}
	tag, body, ok := c.Load("http://x/a")
	if !ok || tag != `"tag1"` || string(body) != "line one\nline two" {
		t.Errorf("Load: got %q %q %v, want \"tag1\" and the two lines", tag, body, ok)
	}
	if _, _, ok := c.Load("http://x/b"); ok {
		t.Error("another URL: got an entry")
	}
	if err := c.Store("http://x/a", "bad\ntag", nil); err == nil {
		t.Error("a tag with a line break: got no error")
	}
}

func TestRevisionParams(t *testing.T) {
	t.Parallel()
	at := time.Date(2024, 5, 3, 12, 0, 0, 500_000_000, time.FixedZone("", 2*3600))
	p := client.IncludeMeta(client.ChangedSince(client.AsOf(nil, at), at.Add(-time.Hour)))
	if want := (url.Values{"asOf": {"2024-05-03T10:00:00.5Z"}, "changedSince": {"2024-05-03T09:00:00.5Z"}, "include": {"meta"}}); p.Encode() != want.Encode() {
		t.Errorf("got %v, want %v", p, want)
	}
	r := client.Record{"published_at": "2024-05-01T10:00:00Z", "revised_at": "yesterday"}
	if got, ok, err := r.Published(); err != nil || !ok || !got.Equal(time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)) {
		t.Errorf("Published: got %v %v %v", got, ok, err)
	}
	if _, _, err := r.Revised(); err == nil {
		t.Error("Revised of a malformed time: got no error")
	}
	if _, ok, err := (client.Record{}).Published(); ok || err != nil {
		t.Errorf("Published without meta: got %v %v, want not ok", ok, err)
	}
}
