package api

import (
	"mime"
	"strconv"
	"strings"
)

// acceptsJSON reports whether an Accept header admits application/json. No
// header, */*, application/* and application/json in any letter case (clients
// of this API send "Application/Json") are accepted, unless given q=0.
func acceptsJSON(header string) bool {
	if strings.TrimSpace(header) == "" {
		return true
	}
	for _, part := range strings.Split(header, ",") {
		mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil {
			continue
		}
		if q, ok := params["q"]; ok {
			if v, err := strconv.ParseFloat(q, 64); err != nil || v <= 0 {
				continue
			}
		}
		switch mt { // ParseMediaType lowercases the type
		case "*/*", "application/*", "application/json":
			return true
		}
	}
	return false
}
