package mirror

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/energyapi/energyapi/client"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/ingest"
	"github.com/energyapi/energyapi/internal/store"
)

// maxFailures is how many times in a row a window may fail before the
// round gives up on it (the next round tries again).
const maxFailures = 5

// ErrCredentials is Run's error when the upstream refuses the credentials.
var ErrCredentials = errors.New("mirror: the upstream refused the credentials")

// fetch fetches one window under a lease and records it, and returns how
// long to wait before the next call: until the next second or day when a
// limit is reached, a back-off after a failure.
func (m *Mirror) fetch(ctx context.Context, r *runState, w Window, st store.MirrorWindow) (time.Duration, error) {
	now := m.cfg.Now()
	ok, err := m.cfg.Store.ClaimMirrorWindow(ctx, w.Key, m.cfg.ID, st.Fetches, now, now.Add(2*m.cfg.FetchTimeout+30*time.Second))
	if err != nil || !ok {
		return 0, err
	}
	release := func() error { return m.cfg.Store.ReleaseMirrorWindow(context.WithoutCancel(ctx), w.Key, m.cfg.ID) }
	wait, err := m.claimCall(ctx)
	if err != nil || wait > 0 {
		return wait, errors.Join(err, release())
	}
	cctx, cancel := context.WithTimeout(ctx, m.cfg.FetchTimeout)
	body, err := m.cfg.Upstream.Fetch(cctx, w.Dataset.Path(), w.Query)
	cancel()
	if err == nil {
		var ev Event
		if ev, err = m.record(ctx, w, st, body); err == nil {
			delete(r.failures, w.Key)
			r.last = ev
			return 0, nil
		}
		if ctx.Err() != nil || errors.Is(err, store.ErrMirrorLeaseLost) {
			return 0, err
		}
		if energy.ErrorCode(err) == energy.Invalid {
			// The answer cannot be read: fetching it again would spend
			// calls on the same answer.
			m.cfg.Log.Error("mirror: the upstream's answer cannot be imported; left until the next round", "window", w.Key, "err", err)
			r.skip[w.Key] = true
			r.last = Event{Key: w.Key, Err: err}
			return 0, release()
		}
	}
	r.last = Event{Key: w.Key, Err: err}
	if rerr := release(); rerr != nil {
		return 0, rerr
	}
	return m.refused(ctx, r, w, err)
}

// claimCall takes a call of the upstream's limits: it waits for the next
// second while this one's calls are spent, and returns the wait until the
// next day when the day's are. A call is not sent in the last tenth of a
// second, which it might reach the upstream after.
func (m *Mirror) claimCall(ctx context.Context) (time.Duration, error) {
	for {
		rt := time.Now()
		if frac := rt.Sub(rt.Truncate(time.Second)); frac > 900*time.Millisecond {
			if err := sleep(ctx, time.Second-frac); err != nil {
				return 0, err
			}
			continue
		}
		day := m.cfg.Now().UTC().Format(time.DateOnly)
		refused, err := m.cfg.Store.ClaimMirrorCall(ctx, day, rt.Unix(), m.cfg.PerDay, m.cfg.PerSecond)
		switch {
		case err != nil:
			return 0, err
		case refused == store.MirrorOverDay:
			m.cfg.Log.Info("mirror: the day's calls are spent; waiting for the quota's reset at 00:00 UTC", "calls", m.cfg.PerDay)
			return untilNextDay(m.cfg.Now()), nil
		case refused == store.MirrorOverSecond:
			if err := sleep(ctx, time.Unix(rt.Unix()+1, 0).Sub(time.Now())); err != nil {
				return 0, err
			}
		default:
			return 0, nil
		}
	}
}

// refused decides what a failed fetch means: the day's quota spent (wait
// for the reset), too many calls a second (back off), the credentials
// refused (stop), a dataset or a request the upstream does not serve
// (leave it for this round), or a fault that may pass (back off, at most
// maxFailures times in a row).
func (m *Mirror) refused(ctx context.Context, r *runState, w Window, err error) (time.Duration, error) {
	var ae *client.APIError
	isAPI := errors.As(err, &ae)
	switch {
	case ctx.Err() != nil:
		return 0, ctx.Err()
	case errors.Is(err, client.ErrOverQuota):
		day := m.cfg.Now().UTC().Format(time.DateOnly)
		m.cfg.Log.Warn("mirror: the upstream says the day's quota is spent (calls by others with the same credentials?); waiting for 00:00 UTC", "window", w.Key)
		return untilNextDay(m.cfg.Now()), m.cfg.Store.SpendMirrorDay(ctx, day, m.cfg.PerDay)
	case errors.Is(err, client.ErrRateLimited):
		m.cfg.Log.Warn("mirror: the upstream asks to slow down", "window", w.Key, "retry_after", ae.RetryAfter)
		return max(ae.RetryAfter, time.Second), nil
	case errors.Is(err, client.ErrUnauthorized):
		return 0, fmt.Errorf("%w: %v", ErrCredentials, err)
	case errors.Is(err, client.ErrNotFound):
		m.cfg.Log.Warn("mirror: the upstream does not serve the dataset; left out", "dataset", w.Dataset.Name, "path", w.Dataset.Path())
		r.skip["dataset:"+w.Dataset.Name] = true
		return 0, nil
	case isAPI && ae.StatusCode < 500 && ae.StatusCode != 408:
		m.cfg.Log.Error("mirror: the upstream refused the window's request; left until the next round", "window", w.Key, "err", err)
		r.skip[w.Key] = true
		return 0, nil
	}
	r.failures[w.Key]++
	n := r.failures[w.Key]
	if n >= maxFailures {
		m.cfg.Log.Error("mirror: the window failed again and again; left until the next round", "window", w.Key, "tries", n, "err", err)
		r.skip[w.Key] = true
		delete(r.failures, w.Key)
		return 0, nil
	}
	wait := min(time.Second<<n, time.Minute)
	m.cfg.Log.Warn("mirror: fetch failed; trying again", "window", w.Key, "try", n, "wait", wait, "err", err)
	return wait, nil
}

// record imports a window's answer in the transaction that records the
// window fetched: both or neither. An answer the same as the last one
// imported, or holding no records, only records the fetch.
func (m *Mirror) record(ctx context.Context, w Window, st store.MirrorWindow, body []byte) (Event, error) {
	sum := sha256.Sum256(body)
	mark := store.MirrorMark{Key: w.Key, Owner: m.cfg.ID, At: m.cfg.Now(), Digest: hex.EncodeToString(sum[:])}
	ev := Event{Key: w.Key}
	if st.Fetches > 0 && st.Digest == mark.Digest {
		mark.Records = st.Records
		ev.Records = st.Records
		return ev, m.cfg.Store.MarkMirrorWindow(ctx, mark)
	}
	var rows []dataset.Row
	if len(bytes.TrimSpace(body)) > 0 {
		var err error
		if rows, err = ingest.ReadRows(m.cfg.Catalog, w.Dataset, w.Key+".json", bytes.NewReader(body)); err != nil {
			return ev, fmt.Errorf("mirror: the answer for %s: %w", w.Key, err)
		}
	}
	mark.Records = int64(len(rows))
	ev.Records = mark.Records
	if len(rows) == 0 {
		return ev, m.cfg.Store.MarkMirrorWindow(ctx, mark)
	}
	mw := &markedWriter{s: m.cfg.Store, mark: mark}
	_, err := dataset.ImportBatches(ctx, mw, m.cfg.Catalog, []dataset.Batch{{Dataset: w.Dataset, Rows: rows}}, mark.At)
	ev.Changed = mw.changed
	return ev, err
}

// markedWriter runs an import with the window's mark in its transaction.
type markedWriter struct {
	s       Store
	mark    store.MirrorMark
	changed bool
}

func (mw *markedWriter) UpdateParts(ctx context.Context, name string, started time.Time, refs []dataset.PartRef, merge dataset.MergeFunc) (energy.ImportStats, error) {
	changed := false
	counted := func(stored []dataset.StoredPart, at time.Time) ([]dataset.StoredPart, energy.ImportStats, error) {
		write, st, err := merge(stored, at)
		changed = len(write) > 0
		return write, st, err
	}
	st, err := mw.s.UpdatePartsThen(ctx, name, started, refs, counted, func(ctx context.Context, tx store.Querier) error {
		mark := mw.mark
		mark.Changed = changed
		return store.MarkMirrorWindowTx(ctx, tx, mark)
	})
	mw.changed = err == nil && changed
	return st, err
}
