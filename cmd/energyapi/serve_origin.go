package main

import (
	"net/url"
	"strings"

	"github.com/energyapi/energyapi/internal/auth"
)

// checkPublicURL returns --public-url's value without its trailing slash,
// or a usage error. It must be an absolute http or https URL naming a host
// and nothing more: RFC 8414 places the metadata of an issuer with a path
// under that path, where this server serves none, and forbids a query or
// fragment. "" (none) is returned as it is.
func checkPublicURL(raw string) (string, error) {
	if raw == "" {
		return "", nil
	}
	u, err := url.Parse(raw)
	switch {
	case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Opaque != "":
		return "", invalidValue("--public-url", raw, "want an absolute http or https URL, such as https://api.example.org")
	case u.User != nil || strings.Trim(u.Path, "/") != "" || u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || strings.Contains(raw, "#"):
		return "", invalidValue("--public-url", raw, "want the scheme and host alone, such as https://api.example.org: no user, path, query or fragment")
	}
	return u.Scheme + "://" + u.Host, nil
}

// origin is where clients reach the server, as --public-url and
// --trust-proxy-headers say: the tokens' issuer and the metadata's links.
func (c *serveConfig) origin() auth.Origin {
	return auth.Origin{Public: c.publicURL, TrustProxy: c.hard.trustProxy}
}
