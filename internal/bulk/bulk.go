// Package bulk produces the bulk files of the API: one file per dataset,
// period (a part: a month of a series, a year of yearly statistics) and
// format, Parquet or gzipped CSV, for data teams that mirror whole
// datasets rather than query them. A file is a function of its part's data
// version: produced on first ask, kept in the server's memory budget, and
// produced again, byte for byte the same, once the budget has let it go.
// The package knows nothing of HTTP.
package bulk

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash/fnv"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/energyapi/energyapi/internal/budget"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// Format is a bulk file's format, named by its file extension.
type Format string

// The formats of bulk files.
const (
	Parquet Format = "parquet"
	CSVGzip Format = "csv.gz"
)

// Formats are the formats every period is offered in, in manifest order.
var Formats = []Format{Parquet, CSVGzip}

// ContentType returns the media type a file of format f is served as.
func (f Format) ContentType() string {
	if f == Parquet {
		return "application/vnd.apache.parquet"
	}
	return "application/gzip"
}

// ParseName splits a file name "2024-03.parquet" into its period and
// format; ok is false for a name with no known extension.
func ParseName(name string) (period string, f Format, ok bool) {
	for _, f := range Formats {
		if p, found := strings.CutSuffix(name, "."+string(f)); found && p != "" {
			return p, f, true
		}
	}
	return "", "", false
}

// fileVersion is part of every file's tag: raising it when the layout of
// the files changes (a column, a writer setting) tells every mirror to
// fetch them again, though their data did not change.
const fileVersion = 1

// Info is what a manifest says of a file.
type Info struct {
	Dataset, Period string
	Format          Format
	Version         int64     // the data version of the part it holds
	Modified        time.Time // when that version was written
	Records         int
	Size            int64
	SHA256          string // lowercase hex
	Tag             string // the strong entity tag, quoted
}

// File is a produced file: its Info and its bytes.
type File struct {
	Info
	Body []byte
}

// Tag returns the strong entity tag of the file of part m of dataset
// name in format f: it changes exactly when the part's data version does,
// is the same on every replica, and is known without producing the file.
func Tag(name string, m dataset.PartMeta, f Format) string {
	h := fnv.New64a()
	var buf [8]byte
	binary.LittleEndian.PutUint64(buf[:], uint64(m.Version))
	for _, s := range []string{strconv.Itoa(fileVersion), name, m.ID, string(f)} {
		io.WriteString(h, s)
		h.Write([]byte{0})
	}
	h.Write(buf[:])
	return `"b` + strconv.FormatUint(h.Sum64(), 36) + `"`
}

// Producer produces bulk files and keeps them in a memory budget.
type Producer struct {
	cat   *dataset.Catalog
	files *budget.Cache[fileKey, *File]
	// infos keep what the manifest says of each file produced, its latest
	// version only, after the budget let its bytes go: a manifest then
	// needs no file produced again. At most one entry per dataset, period
	// and format.
	mu    sync.Mutex
	infos map[infoKey]Info
}

type infoKey struct {
	dataset, period string
	format          Format
}

type fileKey struct {
	infoKey
	version int64
}

// New returns a producer of c's datasets' files that keeps them in b.
func New(c *dataset.Catalog, b *budget.Budget) *Producer {
	return &Producer{cat: c, files: budget.NewCache[fileKey, *File](b), infos: map[infoKey]Info{}}
}

// Info returns what the manifest says of d's file of period in format f,
// as snap holds it: from what is known of it, else by producing it. It
// returns an error with code NotFound if d has no such period, and the
// error of a store read the production needed.
func (p *Producer) Info(ctx context.Context, snap *dataset.Snapshot, d *dataset.Dataset, period string, f Format) (Info, error) {
	for _, m := range snap.Periods(d) {
		if m.ID != period {
			continue
		}
		p.mu.Lock()
		in, known := p.infos[infoKey{d.Name, period, f}]
		p.mu.Unlock()
		if known && in.Version == m.Version {
			return in, nil
		}
		file, err := p.File(ctx, snap, d, period, f)
		if err != nil {
			return Info{}, err
		}
		return file.Info, nil
	}
	return Info{}, notFound(d, period)
}

// File returns d's file of period in format f as snap holds it, kept or
// produced. It returns an error with code NotFound if d has no such
// period, and the error of a store read the production needed.
func (p *Producer) File(ctx context.Context, snap *dataset.Snapshot, d *dataset.Dataset, period string, f Format) (*File, error) {
	m, ok, err := snap.Period(ctx, d, period)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, notFound(d, period)
	}
	ik := infoKey{d.Name, period, f}
	// The production runs to its end even if the request that started it
	// gives up (its deadline, a client gone): the file is kept, so that the
	// request asked again finds it rather than starting over.
	return p.files.Load(context.WithoutCancel(ctx), fileKey{ik, m.Version}, func(ctx context.Context) (*File, int64, error) {
		body, err := p.produce(ctx, snap, d, period, f)
		if err != nil {
			return nil, 0, err
		}
		sum := sha256.Sum256(body)
		file := &File{Body: body, Info: Info{
			Dataset: d.Name, Period: period, Format: f, Version: m.Version,
			Modified: time.UnixMicro(m.Written).UTC(), Records: m.Records,
			Size: int64(len(body)), SHA256: hex.EncodeToString(sum[:]), Tag: Tag(d.Name, m, f),
		}}
		p.mu.Lock()
		if old, ok := p.infos[ik]; !ok || old.Version <= m.Version {
			p.infos[ik] = file.Info
		}
		p.mu.Unlock()
		return file, int64(len(body)) + 512, nil
	})
}

// produce encodes the records of d's part period in format f.
func (p *Producer) produce(ctx context.Context, snap *dataset.Snapshot, d *dataset.Dataset, period string, f Format) ([]byte, error) {
	if f == CSVGzip {
		return csvGzip(ctx, p.cat, snap, d, period)
	}
	part, err := snap.Part(ctx, d, period)
	if err != nil {
		return nil, err
	}
	return encodeParquet(d, part)
}

func notFound(d *dataset.Dataset, period string) error {
	return energy.Errorf(energy.NotFound, "Not Found: %s has no period %s", d.Name, period)
}
