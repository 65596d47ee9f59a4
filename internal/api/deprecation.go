package api

import (
	"net/http"
	"strconv"

	"github.com/energyapi/energyapi/internal/dataset"
)

// announceDeprecation adds to every answer at a deprecated view of d (its
// errors, 304s and 401s included) the Deprecation header (RFC 9745: a
// structured-field date, "@" and Unix seconds), the Sunset header (RFC
// 8594: an HTTP date, never before the deprecation) and a Link to d's own
// path as the successor version. The values are made once, here.
func announceDeprecation(d *dataset.Dataset, v *dataset.View, h http.Handler) http.Handler {
	if v.Status() != dataset.StatusDeprecated {
		return h
	}
	deprecation := []string{"@" + strconv.FormatInt(v.Deprecated.Unix(), 10)}
	link := []string{"<" + v.SuccessorOf(d) + `>; rel="successor-version"`}
	var sunset []string
	if !v.Sunset.IsZero() {
		sunset = []string{v.Sunset.UTC().Format(http.TimeFormat)}
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd["Deprecation"] = deprecation
		if sunset != nil {
			hd["Sunset"] = sunset
		}
		hd["Link"] = link
		h.ServeHTTP(w, r)
	})
}
