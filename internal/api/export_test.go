package api

// RoutePatterns returns every pattern that NewServer registers for o, in
// the order registered, for the tests that walk every route.
func RoutePatterns(o Options) []string {
	rt := newRouter()
	addRoutes(rt, o.withDefaults())
	return rt.patterns
}

// PipeMin is the smallest answer, as expected, compressed while encoded.
const PipeMin = pipeMin
