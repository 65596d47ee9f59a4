package client

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"
)

// BulkIndex is GET /bulk: every dataset the server offers as files, with
// its periods (a month yyyy-mm of a series, a year yyyy of yearly
// statistics).
type BulkIndex struct {
	Formats  []string      `json:"formats"`
	Datasets []BulkDataset `json:"datasets"`
}

// BulkDataset is one dataset of the index.
type BulkDataset struct {
	Dataset     string   `json:"dataset"`
	Path        string   `json:"path"`
	Period      string   `json:"period"` // month or year
	DataVersion int64    `json:"data_version"`
	Manifest    string   `json:"manifest"`
	Periods     []string `json:"periods"`
}

// BulkManifest is GET /bulk/{dataset}?from=&to=: the files of a range of
// periods.
type BulkManifest struct {
	Dataset string     `json:"dataset"`
	Period  string     `json:"period"`
	From    string     `json:"from"`
	To      string     `json:"to"`
	Files   []BulkFile `json:"files"`
}

// BulkFile is one file of a manifest.
type BulkFile struct {
	Period       string    `json:"period"`
	Format       string    `json:"format"` // parquet or csv.gz
	URL          string    `json:"url"`    // a path on the server
	Size         int64     `json:"size"`
	Records      int       `json:"records"`
	SHA256       string    `json:"sha256"`
	DataVersion  int64     `json:"data_version"`
	ETag         string    `json:"etag"`
	LastModified time.Time `json:"last_modified"`
}

// manifestPeriods is how many periods Mirror asks for in one manifest (the
// server takes up to 36): a manifest produces the files it lists that are
// not produced yet, so a short one answers within the server's request
// timeout even on a store whose demo data are generated on first read.
const manifestPeriods = 3

// BulkIndex returns the server's list of bulk files by dataset and period.
func (c *Client) BulkIndex(ctx context.Context) (*BulkIndex, error) {
	body, err := c.get(ctx, "/bulk", nil)
	if err != nil {
		return nil, err
	}
	var idx BulkIndex
	if err := json.Unmarshal(body, &idx); err != nil {
		return nil, fmt.Errorf("client: GET /bulk: %w", err)
	}
	return &idx, nil
}

// BulkManifest returns the manifest of dataset's files from period from to
// period to (yyyy-mm or yyyy, both included; at most 36 periods).
func (c *Client) BulkManifest(ctx context.Context, dataset, from, to string) (*BulkManifest, error) {
	m, _, _, err := c.bulkManifest(ctx, dataset, from, to, "")
	return m, err
}

// bulkManifest is BulkManifest with If-None-Match: tag; unchanged is true
// (and the manifest nil) when the server answers 304.
func (c *Client) bulkManifest(ctx context.Context, dataset, from, to, tag string) (m *BulkManifest, etag string, unchanged bool, err error) {
	u := c.base + "/bulk/" + url.PathEscape(dataset) + "?" + url.Values{"from": {from}, "to": {to}}.Encode()
	h := http.Header{"Accept": {"application/json"}}
	if tag != "" {
		h.Set("If-None-Match", tag)
	}
	resp, err := c.send(ctx, u, h)
	if err != nil {
		return nil, "", false, err
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusNotModified {
		return nil, tag, true, nil
	}
	body, err := readBody(resp)
	if err == nil {
		m = &BulkManifest{}
		err = json.Unmarshal(body, m)
	}
	if err != nil {
		return nil, "", false, fmt.Errorf("client: the manifest of %s %s..%s: %w", dataset, from, to, err)
	}
	return m, resp.Header.Get("ETag"), false, nil
}

// send makes a GET with header and the bearer token, and returns the
// response to a 200, 206 or 304 for the caller to read and close; other
// answers are *APIError. It retries as get does: once with a new token
// after a 401, and under the retry policy after 429 or 503.
func (c *Client) send(ctx context.Context, u string, header http.Header) (*http.Response, error) {
	return withRetries(ctx, c, func() (*http.Response, error) { return c.sendOnce(ctx, u, header) })
}

func (c *Client) sendOnce(ctx context.Context, u string, header http.Header) (*http.Response, error) {
	req, token, err := c.newGet(ctx, u, header)
	if err != nil {
		return nil, err
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, err
	}
	switch resp.StatusCode {
	case http.StatusOK, http.StatusPartialContent, http.StatusNotModified:
		return resp, nil
	}
	defer resp.Body.Close()
	body, _ := readBody(resp)
	return nil, c.refused(resp, body, token)
}

// MirrorOptions choose what Mirror mirrors.
type MirrorOptions struct {
	// Datasets are the datasets' names; required.
	Datasets []string
	// From and To bound the periods, both included: a month yyyy-mm or a
	// year yyyy (its months); empty for no bound.
	From, To string
	// Formats are the formats mirrored, "parquet" and "csv.gz"; empty for
	// every format the server offers.
	Formats []string
	// Progress, when set, is told of each file as it is settled.
	Progress func(MirrorEvent)
}

// MirrorEvent is what Mirror did with one file.
type MirrorEvent struct {
	Path   string // relative to the mirror's directory: dataset/period.format
	Action string // "fetched", "resumed" (fetched from where an earlier run stopped) or "unchanged"
	Bytes  int64  // bytes transferred
}

// MirrorReport counts what a Mirror run did.
type MirrorReport struct {
	Fetched, Resumed, Unchanged int
	Bytes                       int64 // transferred
}

// mirrorState is what a mirror's directory remembers between runs, in
// stateFile: the ETag of each manifest whose files are all in place.
type mirrorState struct {
	Manifests map[string]string `json:"manifests"` // "dataset from to" -> ETag
}

const stateFile = ".energyapi-bulk.json"

// Mirror makes dir hold the server's bulk files of the chosen datasets
// and periods, as dir/DATASET/PERIOD.FORMAT, and returns what it did. A
// file already there whose SHA-256 is the manifest's is not fetched
// again; a manifest the server answers 304 to (nothing changed since the
// last run) costs one request. A file is downloaded to PATH.part, resumed
// from there with Range and If-Range after an interruption, checked
// against the manifest's SHA-256, and only then renamed into place. It
// stops at the first error.
func (c *Client) Mirror(ctx context.Context, dir string, o MirrorOptions) (MirrorReport, error) {
	var rep MirrorReport
	if len(o.Datasets) == 0 {
		return rep, errors.New("client: mirror: no dataset chosen")
	}
	idx, err := c.BulkIndex(ctx)
	if err != nil {
		return rep, err
	}
	st := readMirrorState(dir)
	for _, name := range o.Datasets {
		i := slices.IndexFunc(idx.Datasets, func(d BulkDataset) bool { return d.Dataset == name })
		if i < 0 {
			return rep, fmt.Errorf("client: mirror: the server offers no bulk files of %q", name)
		}
		for _, chunk := range periodChunks(idx.Datasets[i].Periods, o.From, o.To) {
			if err := c.mirrorChunk(ctx, dir, name, chunk, o, st, &rep); err != nil {
				return rep, err
			}
		}
	}
	return rep, nil
}

// periodChunks returns the periods of ps from from to to, in runs of at
// most manifestPeriods: one manifest each.
func periodChunks(ps []string, from, to string) [][]string {
	var in []string
	for _, p := range ps {
		if (from == "" || p >= from) && (to == "" || p[:min(len(to), len(p))] <= to) {
			in = append(in, p)
		}
	}
	return slices.Collect(slices.Chunk(in, manifestPeriods))
}

// mirrorChunk mirrors the files of dataset's periods chunk.
func (c *Client) mirrorChunk(ctx context.Context, dir, dataset string, chunk []string, o MirrorOptions, st *mirrorState, rep *MirrorReport) error {
	from, to := chunk[0], chunk[len(chunk)-1]
	key := dataset + " " + from + " " + to + " " + fmt.Sprint(o.Formats)
	m, tag, unchanged, err := c.bulkManifest(ctx, dataset, from, to, st.Manifests[key])
	if err != nil {
		return err
	}
	if unchanged {
		// Nothing changed on the server since every file was in place;
		// the files' presence is what is left to check.
		if n, ok := filesInPlace(dir, dataset, chunk, o.Formats); ok {
			rep.Unchanged += n
			return nil
		}
		if m, tag, _, err = c.bulkManifest(ctx, dataset, from, to, ""); err != nil {
			return err
		}
	}
	for _, f := range m.Files {
		if len(o.Formats) > 0 && !slices.Contains(o.Formats, f.Format) {
			continue
		}
		ev, err := c.mirrorFile(ctx, dir, dataset, f)
		if err != nil {
			return err
		}
		rep.add(ev)
		if o.Progress != nil {
			o.Progress(ev)
		}
	}
	st.Manifests[key] = tag
	return writeMirrorState(dir, st)
}

func (r *MirrorReport) add(ev MirrorEvent) {
	switch ev.Action {
	case "fetched":
		r.Fetched++
	case "resumed":
		r.Resumed++
	default:
		r.Unchanged++
	}
	r.Bytes += ev.Bytes
}

// filesInPlace reports whether every file of dataset's periods in formats
// (every format when none) is in dir, and counts them.
func filesInPlace(dir, dataset string, periods, formats []string) (int, bool) {
	if len(formats) == 0 {
		formats = []string{"parquet", "csv.gz"}
	}
	n := 0
	for _, p := range periods {
		for _, f := range formats {
			if _, err := os.Stat(filepath.Join(dir, dataset, p+"."+f)); err != nil {
				return n, false
			}
			n++
		}
	}
	return n, true
}

// mirrorFile makes dir hold f, a file of dataset.
func (c *Client) mirrorFile(ctx context.Context, dir, dataset string, f BulkFile) (MirrorEvent, error) {
	rel := filepath.Join(dataset, f.Period+"."+f.Format)
	path := filepath.Join(dir, rel)
	ev := MirrorEvent{Path: filepath.ToSlash(rel), Action: "unchanged"}
	if sum, err := fileSHA256(path); err == nil && sum == f.SHA256 {
		return ev, nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return ev, fmt.Errorf("client: mirror: %w", err)
	}
	part := path + ".part"
	n, resumed, err := c.download(ctx, part, f)
	ev.Bytes = n
	if err != nil {
		return ev, err
	}
	sum, err := fileSHA256(part)
	if err != nil {
		return ev, fmt.Errorf("client: mirror: %w", err)
	}
	if sum != f.SHA256 {
		os.Remove(part) // the next run starts it afresh
		return ev, fmt.Errorf("client: mirror: %s has SHA-256 %s, the manifest says %s", rel, sum, f.SHA256)
	}
	if err := os.Rename(part, path); err != nil {
		return ev, fmt.Errorf("client: mirror: %w", err)
	}
	ev.Action = "fetched"
	if resumed {
		ev.Action = "resumed"
	}
	return ev, nil
}

// download writes f to part, continuing what part holds from an earlier
// run when the server still serves the same file (If-Range: its ETag),
// and returns the bytes transferred and whether it continued.
func (c *Client) download(ctx context.Context, part string, f BulkFile) (int64, bool, error) {
	have := int64(0)
	if fi, err := os.Stat(part); err == nil && fi.Size() < f.Size {
		have = fi.Size()
	}
	h := http.Header{}
	if have > 0 {
		h.Set("Range", "bytes="+strconv.FormatInt(have, 10)+"-")
		h.Set("If-Range", f.ETag)
	}
	resp, err := c.send(ctx, c.base+f.URL, h)
	if err != nil {
		return 0, false, err
	}
	defer resp.Body.Close()
	flags := os.O_CREATE | os.O_WRONLY | os.O_TRUNC
	resumed := resp.StatusCode == http.StatusPartialContent
	if resumed {
		flags = os.O_WRONLY | os.O_APPEND
	}
	out, err := os.OpenFile(part, flags, 0o644)
	if err != nil {
		return 0, false, fmt.Errorf("client: mirror: %w", err)
	}
	n, err := io.Copy(out, resp.Body)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return n, resumed, fmt.Errorf("client: mirror: %s: %w", f.URL, err)
	}
	return n, resumed, nil
}

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// readMirrorState reads dir's state; a missing or unreadable one is
// empty: the run then checks every file against its manifest.
func readMirrorState(dir string) *mirrorState {
	st := &mirrorState{}
	if b, err := os.ReadFile(filepath.Join(dir, stateFile)); err == nil {
		_ = json.Unmarshal(b, st)
	}
	if st.Manifests == nil {
		st.Manifests = map[string]string{}
	}
	return st
}

func writeMirrorState(dir string, st *mirrorState) error {
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	tmp := filepath.Join(dir, stateFile+".tmp")
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return fmt.Errorf("client: mirror: %w", err)
	}
	return os.Rename(tmp, filepath.Join(dir, stateFile))
}
