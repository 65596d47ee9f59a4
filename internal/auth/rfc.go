package auth

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
)

// Paths of the standard endpoints, which the metadata (RFC 8414) names.
const (
	TokenPath        = "/public-api/access-token"
	LegacyTokenPath  = "/transparency/oauth/accessToken" // the same endpoint
	RegisterPath     = "/register"                       // RFC 7591
	RevokePath       = "/revoke"                         // RFC 7009
	IntrospectPath   = "/introspect"                     // RFC 7662
	JWKSPath         = "/.well-known/jwks.json"
	MetadataPath     = "/.well-known/oauth-authorization-server" // RFC 8414
	documentationURL = "/docs"
)

// metadata is the authorization server metadata (RFC 8414 section 2).
type metadata struct {
	Issuer                string   `json:"issuer"`
	TokenEndpoint         string   `json:"token_endpoint"`
	JWKSURI               string   `json:"jwks_uri"`
	RegistrationEndpoint  string   `json:"registration_endpoint,omitempty"`
	ResponseTypes         []string `json:"response_types_supported"`
	GrantTypes            []string `json:"grant_types_supported"`
	TokenAuthMethods      []string `json:"token_endpoint_auth_methods_supported"`
	ServiceDocumentation  string   `json:"service_documentation"`
	RevocationEndpoint    string   `json:"revocation_endpoint"`
	RevocationAuthMethods []string `json:"revocation_endpoint_auth_methods_supported"`
	IntrospectionEndpoint string   `json:"introspection_endpoint,omitempty"`
}

// clientAuthMethods are the client authentication methods of the token and
// revocation endpoints.
var clientAuthMethods = []string{"client_secret_basic", "client_secret_post"}

// Origin is where clients reach the server: what the metadata's absolute
// URLs start with, and the issuer the tokens name.
type Origin struct {
	// Public is the one address clients reach the server at (serve
	// --public-url: scheme and host, no trailing slash). "" builds the
	// addresses from each request, and the tokens name DefaultIssuer.
	Public string
	// TrustProxy takes the scheme of the URLs built from a request from the last
	// X-Forwarded-Proto or Forwarded proto, which a reverse proxy
	// terminating TLS sets; set it only when such a proxy is the one way in.
	TrustProxy bool
}

// Issuer is the iss of the tokens: the public address, so that it equals the
// metadata's issuer as RFC 9068 section 4 and RFC 8414 section 3.3 ask;
// without one, DefaultIssuer, as tokens always named (no address would be
// the same for every client).
func (o Origin) Issuer() string {
	if o.Public == "" {
		return DefaultIssuer
	}
	return o.Public
}

// base returns the scheme and host of the absolute URLs answering r: the
// public address, or else the Host r was sent to with the scheme of its
// connection, or the one the trusted proxy names.
func (o Origin) base(r *http.Request) string {
	if o.Public != "" {
		return o.Public
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	if o.TrustProxy {
		if p := proxiedScheme(r.Header); p != "" {
			scheme = p
		}
	}
	return scheme + "://" + r.Host
}

// vary is the Vary of an answer built from base: the request headers it
// depends on, or "" when it depends on none.
func (o Origin) vary() string {
	switch {
	case o.Public != "":
		return ""
	case o.TrustProxy:
		return "Host, X-Forwarded-Proto, Forwarded"
	}
	return "Host"
}

// proxiedScheme returns the scheme the proxy names, "http" or "https", or "".
// X-Forwarded-Proto, which most proxies set, comes first, then RFC 7239's
// Forwarded proto. Of each the last value counts, the one the proxy next to
// the server added, as with X-Forwarded-For (api.RemoteAddr).
func proxiedScheme(h http.Header) string {
	if vs := h.Values("X-Forwarded-Proto"); len(vs) > 0 {
		return schemeOf(lastElement(vs))
	}
	for _, pair := range strings.Split(lastElement(h.Values("Forwarded")), ";") {
		if k, v, ok := strings.Cut(strings.TrimSpace(pair), "="); ok && strings.EqualFold(k, "proto") {
			return schemeOf(strings.Trim(v, `"`))
		}
	}
	return ""
}

// lastElement returns the last comma-separated element of a header's values.
func lastElement(vs []string) string {
	if len(vs) == 0 {
		return ""
	}
	last := vs[len(vs)-1]
	if i := strings.LastIndexByte(last, ','); i >= 0 {
		last = last[i+1:]
	}
	return strings.TrimSpace(last)
}

// schemeOf returns s as a scheme of this server's URLs, or "".
func schemeOf(s string) string {
	switch s = strings.ToLower(strings.TrimSpace(s)); s {
	case "http", "https":
		return s
	}
	return ""
}

// HandleMetadata serves the authorization server metadata (RFC 8414). The
// server has no authorization endpoint, so it supports no response type;
// the member is required, so it is present and empty. Built from a public
// address the answer is everyone's and may be cached by anyone; built from
// the request it is only the asker's, so no shared cache may keep it.
func (s *SelfService) HandleMetadata() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		base := s.Origin.base(r)
		m := metadata{
			Issuer: base, TokenEndpoint: base + TokenPath, JWKSURI: base + JWKSPath,
			ResponseTypes: []string{}, GrantTypes: []string{"client_credentials"},
			TokenAuthMethods: clientAuthMethods, ServiceDocumentation: base + documentationURL,
			RevocationEndpoint: base + RevokePath, RevocationAuthMethods: clientAuthMethods,
		}
		if s.Registering() {
			m.RegistrationEndpoint = base + RegisterPath
		}
		if s.Operated() {
			m.IntrospectionEndpoint = base + IntrospectPath
		}
		if v := s.Origin.vary(); v != "" {
			w.Header().Set("Cache-Control", "private, max-age=3600")
			w.Header().Add("Vary", v)
		} else {
			w.Header().Set("Cache-Control", "public, max-age=3600")
		}
		writeJSON(w, http.StatusOK, m)
	})
}

// HandleRevoke serves token revocation (RFC 7009): the client authenticates
// as at the token endpoint and names one of its tokens. A token that is not
// live is no error (section 2.2); the token_type_hint is ignored, as the
// server issues access tokens only (section 2.1 allows it).
func (s *SelfService) HandleRevoke() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		noStore(w)
		if !isForm(r.Header.Get("Content-Type")) {
			writeJSON(w, http.StatusBadRequest, oauthError{Error: "invalid_request", Description: "Content-Type must be application/x-www-form-urlencoded"})
			return
		}
		c, ok := s.clientAuth(w, r)
		if !ok {
			return
		}
		token := r.PostForm.Get("token")
		if token == "" {
			writeJSON(w, http.StatusBadRequest, oauthError{Error: "invalid_request", Description: "Missing parameter token"})
			return
		}
		other, err := s.Tokens.Revoke(r.Context(), c.ID, token)
		switch {
		case err != nil:
			s.fail(w, r, err)
		case other: // section 2.1: the token must have been issued to this client
			writeJSON(w, http.StatusBadRequest, oauthError{Error: "unauthorized_client", Description: "The token was not issued to this client"})
		default:
			w.WriteHeader(http.StatusOK)
		}
	})
}

// introspection is the introspection response (RFC 7662 section 2.2).
type introspection struct {
	Active    bool   `json:"active"`
	ClientID  string `json:"client_id,omitempty"`
	TokenType string `json:"token_type,omitempty"`
	Exp       int64  `json:"exp,omitempty"`
	Iat       int64  `json:"iat,omitempty"`
	Nbf       int64  `json:"nbf,omitempty"`
	Sub       string `json:"sub,omitempty"`
	Aud       string `json:"aud,omitempty"`
	Iss       string `json:"iss,omitempty"`
	Jti       string `json:"jti,omitempty"`
}

// HandleIntrospect serves token introspection (RFC 7662) to the operator's
// gateway, which authenticates with the operator token as a bearer token
// (section 2.1 allows a separate bearer token). A token that is not active
// (expired, revoked, of a revoked or rotated client, or not this server's)
// answers {"active":false} alone (section 2.2).
func (s *SelfService) HandleIntrospect() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		noStore(w)
		if !s.bearerIs(w, r, reasonWrongOperatorToken, s.OperatorToken) {
			return
		}
		if !isForm(r.Header.Get("Content-Type")) {
			writeJSON(w, http.StatusBadRequest, oauthError{Error: "invalid_request", Description: "Content-Type must be application/x-www-form-urlencoded"})
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, MaxTokenRequest)
		err := r.ParseForm()
		if bodyTooLarge(w, err) {
			return
		}
		if err != nil || r.PostForm.Get("token") == "" {
			writeJSON(w, http.StatusBadRequest, oauthError{Error: "invalid_request", Description: "Missing parameter token"})
			return
		}
		info, active := s.Tokens.Inspect(r.Context(), r.PostForm.Get("token"))
		if !active {
			writeJSON(w, http.StatusOK, introspection{})
			return
		}
		writeJSON(w, http.StatusOK, introspection{Active: true, ClientID: info.ClientID, TokenType: "Bearer",
			Exp: info.Expires.Unix(), Iat: info.Issued.Unix(), Nbf: info.Issued.Unix(),
			Sub: info.ClientID, Aud: s.Tokens.Issuer(), Iss: s.Tokens.Issuer(), Jti: info.ID})
	})
}

// dynamicResponse is the client information response (RFC 7591 section 3.2.1).
type dynamicResponse struct {
	ClientID          string   `json:"client_id"`
	ClientSecret      string   `json:"client_secret"`
	IssuedAt          int64    `json:"client_id_issued_at"`
	SecretExpiresAt   int64    `json:"client_secret_expires_at"` // 0: never
	ClientName        string   `json:"client_name"`
	Contacts          []string `json:"contacts,omitempty"`
	GrantTypes        []string `json:"grant_types"`
	TokenEndpointAuth string   `json:"token_endpoint_auth_method"`
}

// dynamicRequest is the client metadata this server reads (RFC 7591
// section 2); other members are ignored, as section 3.2.1 allows, and not
// registered: the server has no redirect-based flow, so redirect_uris and
// the like mean nothing to it.
type dynamicRequest struct {
	ClientName        *string  `json:"client_name"`
	Contacts          []string `json:"contacts"`
	GrantTypes        []string `json:"grant_types"`
	ResponseTypes     []string `json:"response_types"`
	TokenEndpointAuth *string  `json:"token_endpoint_auth_method"`
}

// metadataError is an RFC 7591 section 3.2.2 error.
func metadataError(format string, args ...any) oauthError {
	return oauthError{Error: "invalid_client_metadata", Description: fmt.Sprintf(format, args...)}
}

// check returns the client's name, contact and authentication method, or
// the section 3.2.2 error that refuses the metadata.
func (q dynamicRequest) check() (name, contact, method string, bad *oauthError) {
	for _, g := range q.GrantTypes {
		if g != "client_credentials" {
			e := metadataError("The grant type '%s' is not supported by this server.", g)
			return "", "", "", &e
		}
	}
	if len(q.ResponseTypes) > 0 {
		e := metadataError("The response type '%s' is not supported by this server: it has no authorization endpoint.", q.ResponseTypes[0])
		return "", "", "", &e
	}
	method = "client_secret_basic" // section 2's default
	if q.TokenEndpointAuth != nil {
		method = *q.TokenEndpointAuth
	}
	if method != "client_secret_basic" && method != "client_secret_post" {
		e := metadataError("The token endpoint authentication method '%s' is not supported by this server.", method)
		return "", "", "", &e
	}
	name = "unnamed client"
	if q.ClientName != nil && strings.TrimSpace(*q.ClientName) != "" {
		name = strings.TrimSpace(*q.ClientName)
	}
	if len(q.Contacts) > 0 {
		contact = q.Contacts[0]
	}
	for _, c := range q.Contacts {
		if err := CheckRegistration(name, c); err != nil {
			e := metadataError("%s", energy.ErrorMessage(err))
			return "", "", "", &e
		}
	}
	if err := CheckRegistration(name, ""); err != nil {
		e := metadataError("%s", energy.ErrorMessage(err))
		return "", "", "", &e
	}
	return name, contact, method, nil
}

// HandleDynamic serves dynamic client registration (RFC 7591) behind an
// initial access token that the operator issued (section 3). The token
// stands for the operator's consent, so the client works at once in
// approval mode too, and no per-address limit applies.
func (s *SelfService) HandleDynamic() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		noStore(w)
		if !s.bearerIs(w, r, reasonWrongInitialToken, append([]string{s.OperatorToken}, s.InitialTokens...)...) {
			return
		}
		var q dynamicRequest
		if err := decodeJSON(w, r, &q); err != nil {
			if !bodyTooLarge(w, err) {
				writeJSON(w, http.StatusBadRequest, metadataError("%s", energy.ErrorMessage(err)))
			}
			return
		}
		name, contact, method, bad := q.check()
		if bad != nil {
			writeJSON(w, http.StatusBadRequest, bad)
			return
		}
		reg := Registration{Contact: contact, Origin: OriginDynamic, Addr: s.remote(r)}
		c, secret, _, err := s.Registry.Register(r.Context(), name, reg, false, 0)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		s.Log.InfoContext(r.Context(), "client registered", "client_id", c.ID, "origin", OriginDynamic)
		writeJSON(w, http.StatusCreated, dynamicResponse{ClientID: c.ID, ClientSecret: secret,
			IssuedAt: c.Created.Truncate(time.Second).Unix(), ClientName: c.Name, Contacts: q.Contacts,
			GrantTypes: []string{"client_credentials"}, TokenEndpointAuth: method})
	})
}
