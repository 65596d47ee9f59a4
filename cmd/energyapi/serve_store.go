package main

import (
	"context"
	"time"

	"github.com/energyapi/energyapi/internal/api"
	"github.com/energyapi/energyapi/internal/auth"
	"github.com/energyapi/energyapi/internal/dataset"
)

// servingStore is the store as serve's requests reach it. The calls a
// request can make (a client the in-memory table cannot decide on, a part
// an answer needs that the memory budget does not hold, a part an asOf read
// needs, the imports /updates lists, the ping of /readyz) go
// through the store admission class (api.StoreClass), which bounds how many
// requests wait on the store and how long each call may take, and turns a
// store that does not answer into 503. Made outside a request (at startup,
// by the background polls), the same calls go straight through, as do all
// the others. A store call that a request comes to make must be listed here.
type servingStore struct {
	store
	class *api.StoreClass
}

func (s servingStore) Client(ctx context.Context, id string) (c auth.Client, err error) {
	err = s.class.Do(ctx, func(ctx context.Context) error {
		c, err = s.store.Client(ctx, id)
		return err
	})
	return c, err
}

func (s servingStore) PartVersionAt(ctx context.Context, ref dataset.PartRef, t time.Time) (sp dataset.StoredPart, ok bool, err error) {
	err = s.class.Do(ctx, func(ctx context.Context) error {
		sp, ok, err = s.store.PartVersionAt(ctx, ref, t)
		return err
	})
	return sp, ok, err
}

func (s servingStore) ReadPartVersion(ctx context.Context, ref dataset.PartRef, version int64) (sp dataset.StoredPart, err error) {
	err = s.class.Do(ctx, func(ctx context.Context) error {
		sp, err = s.store.ReadPartVersion(ctx, ref, version)
		return err
	})
	return sp, err
}

func (s servingStore) ReadPart(ctx context.Context, ref dataset.PartRef, version int64) (sp dataset.StoredPart, err error) {
	err = s.class.Do(ctx, func(ctx context.Context) error {
		sp, err = s.store.ReadPart(ctx, ref, version)
		return err
	})
	return sp, err
}

// LendPart lends the store's bytes to fn (dataset.PartLender): without it
// the wrapper hid the stores' lending, and every cold read copied the
// part's bytes once more (store.ReadPart) only to decode and drop them.
// fn runs inside the store call but its error is returned as fn made it,
// not as the store's: a part that does not decode is no unavailable store.
func (s servingStore) LendPart(ctx context.Context, ref dataset.PartRef, version int64, fn func(dataset.StoredPart) error) error {
	var lent error
	err := s.class.Do(ctx, func(ctx context.Context) error {
		return s.store.LendPart(ctx, ref, version, func(sp dataset.StoredPart) error {
			lent = fn(sp)
			return nil
		})
	})
	if err != nil {
		return err
	}
	return lent
}

// FillParts is the write of a demo part a request first asks for
// (dataset.DemoSource).
func (s servingStore) FillParts(ctx context.Context, floor int64, parts []dataset.StoredPart) (n int, err error) {
	err = s.class.Do(ctx, func(ctx context.Context) error {
		n, err = s.store.FillParts(ctx, floor, parts)
		return err
	})
	return n, err
}

func (s servingStore) ImportEvents(ctx context.Context, after int64, since time.Time, limit int) (es []dataset.ImportEvent, err error) {
	err = s.class.Do(ctx, func(ctx context.Context) error {
		es, err = s.store.ImportEvents(ctx, after, since, limit)
		return err
	})
	return es, err
}

func (s servingStore) Ping(ctx context.Context) error {
	return s.class.Do(ctx, s.store.Ping)
}
