package apitest

import (
	"net/http"
	"testing"
)

// Answer is an HTTP answer read whole.
type Answer struct {
	Status int
	Header http.Header
	Body   []byte
}

// Do sends req with hc (http.DefaultClient when nil) and reads the whole
// answer; a request that cannot be sent or an answer that cannot be read
// fails tb.
func Do(tb testing.TB, hc *http.Client, req *http.Request) Answer {
	tb.Helper()
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := readBody(resp)
	if err != nil {
		tb.Fatal(err)
	}
	return Answer{Status: resp.StatusCode, Header: resp.Header, Body: body}
}
