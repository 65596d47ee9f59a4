package auth

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/energyapi/energyapi/internal/energy"
)

// decodeJSON reads r's body, at most maxRegistrationRequest bytes, into v,
// a pointer to a struct whose json tags name the members it reads. The
// body must be one JSON object (checkObject): encoding/json alone takes
// the first of several values, the last of repeated members, members in
// any case, and mends invalid UTF-8 into U+FFFD, so that what a caller
// meant and what is stored could differ. It returns a *http.MaxBytesError
// past the limit (see bodyTooLarge), otherwise an error with code Invalid.
func decodeJSON(w http.ResponseWriter, r *http.Request, v any) error {
	if mt, _, _ := strings.Cut(r.Header.Get("Content-Type"), ";"); strings.TrimSpace(strings.ToLower(mt)) != "application/json" {
		return energy.Errorf(energy.Invalid, "Content-Type must be application/json")
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxRegistrationRequest))
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return tooBig
	}
	if err != nil {
		return energy.Errorf(energy.Invalid, "The body could not be read")
	}
	if err := checkObject(body, memberNames(v)); err != nil {
		return err
	}
	var typeErr *json.UnmarshalTypeError
	if err := json.Unmarshal(body, v); errors.As(err, &typeErr) {
		return energy.Errorf(energy.Invalid, "Member %q holds a %s where a %s belongs", typeErr.Field, typeErr.Value, jsonType(typeErr.Type))
	} else if err != nil {
		return energy.Errorf(energy.Invalid, "The body is not the JSON object expected")
	}
	return nil
}

// jsonType names the JSON type that decodes into t, as
// json.UnmarshalTypeError names the one it found.
func jsonType(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Slice, reflect.Array:
		return "array"
	case reflect.Bool:
		return "boolean"
	case reflect.Struct, reflect.Map:
		return "object"
	}
	return "number"
}

// bodyTooLarge answers 413 in the OAuth error shape, as the token
// endpoint does, and reports true if err says that the request body
// passed its limit.
func bodyTooLarge(w http.ResponseWriter, err error) bool {
	var tooBig *http.MaxBytesError
	if !errors.As(err, &tooBig) {
		return false
	}
	writeJSON(w, http.StatusRequestEntityTooLarge, oauthError{Error: "invalid_request",
		Description: fmt.Sprintf("The request body is larger than %d bytes", tooBig.Limit)})
	return true
}

// memberNames returns the members that the struct v points to reads, as
// its json tags name them.
func memberNames(v any) []string {
	t := reflect.TypeOf(v).Elem()
	var names []string
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.IsExported() && name != "-" {
			names = append(names, cmp.Or(name, f.Name))
		}
	}
	return names
}

// checkObject returns an error with code Invalid unless body is valid
// UTF-8 holding one JSON object and nothing after it but white space, no
// object in it names a member twice, and each of its own members that
// differs from one of known only in case (as encoding/json folds it) is
// spelled as known spells it. Other members are allowed: RFC 7591 section
// 2 has a server ignore the metadata it does not understand.
func checkObject(body []byte, known []string) error {
	if !utf8.Valid(body) {
		return energy.Errorf(energy.Invalid, "The body is not valid UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return energy.Errorf(energy.Invalid, "The body must be one JSON object")
	}
	if err := checkMembers(dec, known); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return energy.Errorf(energy.Invalid, "The body has data after the JSON object")
	}
	if s, ok := loneSurrogate(body); ok {
		return energy.Errorf(energy.Invalid, "The body escapes a lone UTF-16 surrogate (%s): text must be valid Unicode", s)
	}
	return nil
}

// errNotJSON refuses a body that is not JSON.
var errNotJSON = energy.Errorf(energy.Invalid, "The body is not valid JSON")

// checkMembers reads the members of the object whose '{' dec has read, and
// its '}', refusing a member named twice here or in any value within, and
// a case-folded spelling of one of known.
func checkMembers(dec *json.Decoder, known []string) error {
	seen := map[string]bool{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return errNotJSON
		}
		name, _ := t.(string)
		if seen[name] {
			return energy.Errorf(energy.Invalid, "Member %q appears twice", name)
		}
		seen[name] = true
		for _, k := range known {
			if k != name && strings.EqualFold(k, name) {
				return energy.Errorf(energy.Invalid, "Member %q must be spelled %q", name, k)
			}
		}
		if err := checkValue(dec); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil {
		return errNotJSON
	}
	return nil
}

// checkValue reads the next value of dec, checking the objects within it
// as checkMembers does.
func checkValue(dec *json.Decoder) error {
	t, err := dec.Token()
	switch {
	case err != nil:
		return errNotJSON
	case t == json.Delim('{'):
		return checkMembers(dec, nil)
	case t != json.Delim('['):
		return nil
	}
	for dec.More() {
		if err := checkValue(dec); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil {
		return errNotJSON
	}
	return nil
}

// loneSurrogate returns the first escape in a string of the JSON text b
// that is half of a UTF-16 surrogate pair without its other half, such as
// \udc00: decoding turns it into U+FFFD, as it does invalid UTF-8. b is
// valid JSON, so every \u has its four hex digits.
func loneSurrogate(b []byte) (string, bool) {
	inString, high := false, -1 // high: where an escaped high half awaits its low half
	for i := 0; i < len(b); i++ {
		if !inString {
			inString = b[i] == '"'
			continue
		}
		u := -1 // the code unit that a \uXXXX at i escapes
		if b[i] == '\\' && b[i+1] == 'u' {
			n, _ := strconv.ParseUint(string(b[i+2:i+6]), 16, 16)
			u = int(n)
		}
		low := u >= 0xDC00 && u < 0xE000
		switch {
		case high >= 0 && !low:
			return string(b[high : high+6]), true
		case high < 0 && low:
			return string(b[i : i+6]), true
		case high >= 0: // and its low half: a whole pair
			high = -1
		case u >= 0xD800 && u < 0xDC00:
			high = i
		}
		switch {
		case u >= 0:
			i += 5
		case b[i] == '\\':
			i++ // the character escaped
		case b[i] == '"':
			inString = false
		}
	}
	return "", false
}
