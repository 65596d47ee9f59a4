package main

import "github.com/energyapi/energyapi/internal/web"

// demoCredentials are what the site tells the browser under --demo: the
// demo client's well-known id and secret. Without --demo, none.
func demoCredentials(demo bool) *web.Credentials {
	if !demo {
		return nil
	}
	return &web.Credentials{ClientID: demoClientID, ClientSecret: demoClientSecret}
}
