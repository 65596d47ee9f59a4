package bulk

import (
	"bytes"
	"compress/gzip"
	"context"

	"github.com/energyapi/energyapi/internal/dataset"
)

// csvGzip returns the records of d's part period as the API's CSV answer
// writes them (dataset.Snapshot.AppendCSV: the same header, the same
// strings, Europe/Rome wall time), gzipped. The gzip header carries no
// name and no time, so the same records give the same bytes.
func csvGzip(ctx context.Context, c *dataset.Catalog, snap *dataset.Snapshot, d *dataset.Dataset, period string) ([]byte, error) {
	q, err := c.PeriodQuery(d, period)
	if err != nil {
		return nil, err
	}
	body, err := snap.AppendCSV(ctx, nil, q)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	buf.Grow(len(body) / 6)
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(body); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
