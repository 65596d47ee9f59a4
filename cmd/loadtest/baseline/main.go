// Command baseline is the yardstick for the token endpoint: a minimal
// net/http server that parses the same client-credentials form and answers
// a JSON body of the same size, with none of the real server's work (no
// client lookup, no signing, no middleware, no log). With -sign it also signs
// each answer with Ed25519 as the token endpoint must, which shows how much
// of the gap signing alone accounts for. scripts/bench-token-ratio runs both
// next to the real server and drives all three with cmd/loadtest.
//
// It listens only on a loopback address and stops after -lifetime.
package main

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/energyapi/energyapi/internal/yardstick"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "baseline:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("baseline", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:0", "loopback address to listen on")
	size := fs.Int("body-bytes", 420, "size of the JSON answer, as the real token answer's")
	lifetime := fs.Duration("lifetime", 5*time.Minute, "stop after this long")
	sign := fs.Bool("sign", false, "sign each answer's token with Ed25519, as a token endpoint must")
	if err := fs.Parse(args); err != nil {
		return err
	}
	host, _, err := net.SplitHostPort(*addr)
	if ip := net.ParseIP(host); err != nil || ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("-addr %q: want a loopback IP address and a port", *addr)
	}
	body, err := answer(*size)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	var key ed25519.PrivateKey
	if *sign {
		if _, key, err = ed25519.GenerateKey(rand.Reader); err != nil {
			return err
		}
	}
	srv := &http.Server{Handler: handler(body, key), ReadHeaderTimeout: 5 * time.Second}
	fmt.Fprintf(stdout, "baseline listening on http://%s\n", ln.Addr())
	ctx, cancel := context.WithTimeout(ctx, *lifetime)
	defer cancel()
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// answer is a token response padded to size bytes.
func answer(size int) ([]byte, error) { return yardstick.TokenAnswer(size) }

// handler parses the form as the token endpoint does and answers body, with
// the part before the token's signature signed by key when key is not nil.
func handler(body []byte, key ed25519.PrivateKey) http.Handler { return yardstick.TokenForm(body, key) }
