package api

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/energyapi/energyapi/internal/auth"
	"github.com/energyapi/energyapi/internal/energy"
)

type statusBody struct {
	Status string `json:"status"`
}

func handleHealth() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		encode(w, http.StatusOK, statusBody{Status: "ok"})
	})
}

// handleReady answers 200 only while the store answers, so a load balancer
// takes a replica that lost its database out of rotation.
func handleReady(log *slog.Logger, ready func(context.Context) error) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		if err := ready(ctx); err != nil {
			log.WarnContext(r.Context(), "not ready", "err", err)
			writeError(w, r, log, energy.Errorf(energy.Unavailable, "store unreachable"))
			return
		}
		encode(w, http.StatusOK, statusBody{Status: "ready"})
	})
}

type jwksBody struct {
	Keys []auth.JWK `json:"keys"`
}

func handleJWKS(keys *auth.Keyring) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "public, max-age=60")
		encode(w, http.StatusOK, jwksBody{Keys: keys.JWKS()})
	})
}
