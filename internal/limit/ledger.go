package limit

import (
	"context"
	"errors"
	"time"
)

// claimTimeout bounds a claim of quota made while a call waits.
const claimTimeout = 2 * time.Second

// block returns the block of k, made if new.
func (p *Plans) blockOf(k blockKey) *block {
	p.mu.Lock()
	defer p.mu.Unlock()
	b := p.blocks[k]
	if b == nil {
		b = &block{}
		p.blocks[k] = b
	}
	return b
}

// take takes one claimed call from b; it returns the calls of the quota
// left (this replica's and those no replica has claimed) and whether
// there was one. It takes none claimed under another quota than pl's: the
// plan changed since, and requota settles the block first.
func (p *Plans) take(b *block, pl Plan) (int64, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	left := int64(pl.PerDay) - b.claimed + b.left
	if b.left == 0 || b.perDay != int64(pl.PerDay) || left <= 0 {
		return 0, false
	}
	b.left--
	b.lastUse = p.cfg.Now()
	return left - 1, true
}

// dayLeft returns the calls of pl's daily quota left, as take would
// count them, without taking one; -1 when this replica holds no claim of
// the day under pl's quota and so does not know.
func (p *Plans) dayLeft(pl Plan, k blockKey) int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	b := p.blocks[k]
	if b == nil || b.perDay != int64(pl.PerDay) {
		return -1
	}
	return max(int64(pl.PerDay)-b.claimed+b.left, 0)
}

// takeDaily takes one call of pl's daily quota for a client on a day,
// claiming a block from the store when this replica has none left. A
// store that cannot be reached admits the call: data keep being served
// from memory while the store is down, and quotas hold again once it is
// back (the calls admitted meanwhile are counted in usage all the same).
func (p *Plans) takeDaily(ctx context.Context, pl Plan, k blockKey) (int64, bool) {
	b := p.blockOf(k)
	if left, ok := p.take(b, pl); ok {
		return left, true
	}
	b.claiming.Lock()
	defer b.claiming.Unlock()
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), claimTimeout)
	defer cancel()
	p.requota(ctx, b, k, pl)
	if left, ok := p.take(b, pl); ok { // another call claimed meanwhile, or a larger plan
		return left, true
	}
	p.mu.Lock()
	recent := !b.exhausted.IsZero() && p.cfg.Now().Sub(b.exhausted) < p.cfg.IdleRelease
	p.mu.Unlock()
	if recent {
		return 0, false
	}
	granted, claimed, err := p.cfg.Store.ClaimQuota(ctx, k.client, k.day, p.cfg.Block, int64(pl.PerDay))
	if err != nil {
		p.cfg.Log.Error("quota claim failed; admitting the call", "client_id", k.client, "err", err)
		return -1, true
	}
	p.mu.Lock()
	b.left += granted
	b.claimed = claimed
	b.exhausted = time.Time{}
	if granted == 0 {
		b.exhausted = p.cfg.Now()
	}
	p.mu.Unlock()
	return p.take(b, pl)
}

// requota settles a block claimed under another quota than pl's, the
// client's plan having changed: under a smaller quota it gives its unused
// calls back to the store, so that the next claim, against the new quota,
// counts every call any replica has made or still holds, and admits none
// past it. Under a larger one it keeps them. b.claiming is held.
func (p *Plans) requota(ctx context.Context, b *block, k blockKey, pl Plan) {
	p.mu.Lock()
	quota := int64(pl.PerDay)
	if b.perDay == quota {
		p.mu.Unlock()
		return
	}
	var give int64
	if b.perDay > quota {
		give, b.claimed, b.left = b.left, b.claimed-b.left, 0
	}
	b.perDay, b.exhausted = quota, time.Time{}
	p.mu.Unlock()
	if give == 0 {
		return
	}
	if err := p.cfg.Store.ReleaseQuota(ctx, k.client, k.day, give); err != nil {
		// Those calls are lost for the day: the quota under-admits.
		p.cfg.Log.Error("quota release failed", "client_id", k.client, "err", err)
	}
}

// Exhaust uses up what is left of the client's daily quota today, on
// every replica: the sandbox's way to let a client meet "Over Rate" at
// once. It returns an error if the client's plan has no daily quota.
func (p *Plans) Exhaust(ctx context.Context, clientID string) error {
	pl, ok := p.PlanOf(clientID)
	if !ok || pl.PerDay == 0 {
		return errors.New("the client's plan has no daily quota")
	}
	k := blockKey{clientID, p.cfg.Day().UTC().Format(DayLayout)}
	b := p.blockOf(k)
	b.claiming.Lock()
	defer b.claiming.Unlock()
	_, claimed, err := p.cfg.Store.ClaimQuota(ctx, k.client, k.day, int64(pl.PerDay), int64(pl.PerDay))
	if err != nil {
		return err
	}
	p.mu.Lock()
	b.left, b.claimed, b.exhausted, b.perDay = 0, claimed, p.cfg.Now(), int64(pl.PerDay)
	p.mu.Unlock()
	return nil
}

// Flush writes the calls counted since the last flush to the store, gives
// back the claimed calls of clients idle for IdleRelease (all of them with
// all), so that other replicas can use them, and reads the stored usage
// into memory (Usage answers from it). Calls it could not write are kept
// for the next flush.
func (p *Plans) Flush(ctx context.Context, all bool) error {
	p.flushing.Lock()
	defer p.flushing.Unlock()
	p.mu.Lock()
	pending := p.usage
	p.usage = map[UsageRow]int64{}
	release := p.idleBlocks(all)
	p.mu.Unlock()
	var errs []error
	for k, n := range release {
		if err := p.cfg.Store.ReleaseQuota(ctx, k.client, k.day, n); err != nil {
			errs = append(errs, err) // those calls are lost for the day: the quota under-admits
		}
	}
	if len(pending) > 0 {
		rows := make([]UsageRow, 0, len(pending))
		for r, n := range pending {
			r.Calls = n
			rows = append(rows, r)
		}
		if err := p.cfg.Store.AddUsage(ctx, rows); err != nil {
			p.mu.Lock()
			for r, n := range pending {
				p.usage[r] += n
			}
			p.mu.Unlock()
			errs = append(errs, err)
		}
	}
	// The calls just written are in neither memory nor the usage read
	// before: read it again while readers of both wait.
	if err := p.readUsage(ctx); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// idleBlocks takes the unused calls of blocks idle for IdleRelease, or of
// every block with all, and forgets blocks of past days. p.mu is held.
func (p *Plans) idleBlocks(all bool) map[blockKey]int64 {
	now := p.cfg.Now()
	today := p.cfg.Day().UTC().Format(DayLayout)
	out := map[blockKey]int64{}
	for k, b := range p.blocks {
		if b.left > 0 && (all || k.day != today || now.Sub(b.lastUse) >= p.cfg.IdleRelease) {
			out[k] = b.left
			b.claimed -= b.left
			b.left = 0
		}
		if k.day != today {
			delete(p.blocks, k)
		}
	}
	return out
}

// Pending returns the calls of a client counted here and not yet flushed,
// by day and dataset.
func (p *Plans) Pending(clientID string) []UsageRow {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []UsageRow
	for r, n := range p.usage {
		if r.ClientID == clientID {
			r.Calls = n
			out = append(out, r)
		}
	}
	return out
}

// Run flushes every interval until ctx is done, then flushes a last time
// and gives back every claimed call. The plans are reloaded with the
// clients (auth.LoadWith), as soon as a change is committed.
func (p *Plans) Run(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
			defer cancel()
			if err := p.Flush(fctx, true); err != nil {
				p.cfg.Log.Error("usage: last flush failed", "err", err)
			}
			return
		case <-t.C:
			if err := p.Flush(ctx, false); err != nil {
				p.cfg.Log.Error("usage: flush failed", "err", err)
			}
		}
	}
}
