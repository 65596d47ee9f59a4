package energy

// Kinds of a day's extreme: the hidden key field that tells apart a day's
// peak records from its valley records in peak-valley-load and
// peak-valley-load-details.
const (
	PeakKind   = "peak"
	ValleyKind = "valley"
)
