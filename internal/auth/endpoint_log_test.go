package auth_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/energyapi/energyapi/internal/auth"
)

// stalledStore makes every client lookup wait, as a store under load does,
// and report that it has begun; the lookup then ends as end decides.
type stalledStore struct {
	*memStore
	entered chan struct{}
	end     func(ctx context.Context) error
}

func (s *stalledStore) Client(ctx context.Context, id string) (auth.Client, error) {
	s.entered <- struct{}{}
	if err := s.end(ctx); err != nil {
		return auth.Client{}, err
	}
	return s.memStore.Client(ctx, id)
}

func TestTokenRequestEndingWithoutStoreAnswerLogs(t *testing.T) {
	errStore := errors.New("database is locked")
	for _, tc := range []struct {
		name       string
		clientGoes bool // while the lookup waits: the client goes away, or else the store fails
		wantStatus int
		wantLevel  string // of the endpoint's own line
		wantMsg    string
		wantReason string
	}{
		{"client goes away", true,
			auth.StatusClientClosedRequest, "DEBUG", "token: client went away", "client_canceled"},
		{"store fails", false,
			http.StatusInternalServerError, "ERROR", "token: authenticate", "server_error: The server could not process the request"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			st := &stalledStore{memStore: e.store, entered: make(chan struct{}, 1)}
			release := make(chan struct{})
			st.end = func(ctx context.Context) error {
				if !tc.clientGoes {
					<-release
					return errStore
				}
				<-ctx.Done()
				return ctx.Err()
			}
			reg, err := auth.NewRegistry(context.Background(), st, e.store, e.clock.Now, rand.Reader)
			if err != nil {
				t.Fatal(err)
			}
			var logBuf bytes.Buffer
			var noted []slog.Attr
			te := &auth.TokenEndpoint{
				Registry: reg, Tokens: e.tokens,
				Log:      slog.New(slog.NewJSONHandler(&logBuf, &slog.HandlerOptions{Level: slog.LevelDebug})),
				LogAttrs: func(_ *http.Request, attrs ...slog.Attr) { noted = append(noted, attrs...) },
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			req := httptest.NewRequestWithContext(ctx, http.MethodPost, "/public-api/access-token",
				strings.NewReader("client_id=someone&client_secret=s3cret-value&grant_type=client_credentials"))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			rec := httptest.NewRecorder()
			done := make(chan struct{})
			go func() {
				defer close(done)
				te.ServeHTTP(rec, req)
			}()
			<-st.entered // the request waits on the store
			if tc.clientGoes {
				cancel()
			} else {
				close(release)
			}
			<-done
			if rec.Code != tc.wantStatus {
				t.Errorf("status: got %d, want %d", rec.Code, tc.wantStatus)
			}
			var line map[string]any
			if err := json.Unmarshal(bytes.TrimSpace(logBuf.Bytes()), &line); err != nil {
				t.Fatalf("want exactly one log line, got %q: %v", logBuf.String(), err)
			}
			if line["level"] != tc.wantLevel || line["msg"] != tc.wantMsg {
				t.Errorf("log line: got %v %q, want %s %q", line["level"], line["msg"], tc.wantLevel, tc.wantMsg)
			}
			var reason string
			for _, a := range noted {
				if a.Key == "reason" {
					reason = a.Value.String()
				}
			}
			if reason != tc.wantReason {
				t.Errorf("reason for the request log: got %q, want %q", reason, tc.wantReason)
			}
			if strings.Contains(logBuf.String(), "s3cret-value") {
				t.Error("the log holds the secret")
			}
		})
	}
}
