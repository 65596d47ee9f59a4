// Package client calls the Energy Data Public API, or any server that speaks
// the same JSON contract, from Go.
//
// A Client obtains access tokens with the OAuth 2.0 client-credentials grant,
// caches them and fetches a new one shortly before the old one expires, and
// again, once, when the server refuses a token it had accepted. It retries,
// with exponential backoff and jitter, answers that mean "slow down" or
// "not now": 429 (honouring Retry-After), 502, 503, 504, and the 403
// "Developer Over Qps" of quota gateways in front of the public deployment.
//
// Results are typed: thermoelectric production is a float64 parsed from the
// API's Italian number format ("27.389,400"), and peak and valley instants
// are time.Time values in Europe/Rome carrying the offset the server gave,
// so the two occurrences of the repeated autumn hour stay apart. The
// thermoelectric endpoint's answer to filter values it does not know, a 200
// with an empty body, is zero records and no error. A date range longer than
// the server accepts per request is split into windows, fetched in order and
// merged.
//
// Errors that the server answered are *APIError values; errors.Is tells them
// apart by kind:
//
//	recs, err := c.PeakValley(ctx, from, to)
//	if errors.Is(err, client.ErrUnauthorized) {
//		// bad credentials, or a revoked client
//	}
//
// The package imports nothing of the server's: it mirrors the wire format, so
// it can be pointed at any compatible server by base URL alone.
package client
