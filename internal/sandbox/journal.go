package sandbox

import (
	"sync"
	"time"
)

// Entry is one request in the journal. It never holds a secret: no
// Authorization value, no client_secret, no token.
type Entry struct {
	Seq      uint64    `json:"seq"`
	Time     time.Time `json:"time"` // real time of arrival
	ClientID string    `json:"client_id,omitempty"`
	Method   string    `json:"method"`
	Path     string    `json:"path"`
	Dataset  string    `json:"dataset,omitempty"`
	// Query is the query parameters in the order sent, as [name, value]
	// pairs (a repeated key gives several pairs).
	Query      [][2]string       `json:"query"`
	Headers    map[string]string `json:"headers,omitempty"`
	Status     int               `json:"status"` // 0: the connection was dropped before any answer
	Bytes      int               `json:"bytes"`
	DurationMS float64           `json:"duration_ms"`
	Fault      *FaultNote        `json:"fault,omitempty"`
}

// FaultNote says which rule changed a request's answer.
type FaultNote struct {
	Rule    string  `json:"rule"`
	Action  string  `json:"action"`
	DelayMS float64 `json:"delay_ms,omitempty"`
}

// Journal keeps the last requests in a ring.
type Journal struct {
	now  func() time.Time
	mu   sync.Mutex
	ring []Entry
	next int // where the next entry goes once the ring is full
	seq  uint64
	// answering counts requests whose answer has begun but which are not
	// recorded yet: their client may already have the answer, so a read
	// of the journal waits for them (see Entries).
	answering int
	changed   chan struct{}
}

// NewJournal returns a journal of at most size entries (at least 1).
func NewJournal(size int, now func() time.Time) *Journal {
	return &Journal{now: now, ring: make([]Entry, 0, max(size, 1)), changed: make(chan struct{})}
}

// Record is a request being served.
type Record struct {
	j     *Journal
	start time.Time
	begun bool
}

// Start starts the record of a request.
func (j *Journal) Start() *Record { return &Record{j: j, start: j.now()} }

// Answering marks that the request's answer has begun.
func (r *Record) Answering() {
	if r.begun {
		return
	}
	r.begun = true
	r.j.mu.Lock()
	r.j.answering++
	r.j.mu.Unlock()
}

// Done adds the request to the journal; e's Seq, Time and DurationMS are set here.
func (r *Record) Done(e Entry) {
	j := r.j
	end := j.now()
	j.mu.Lock()
	defer j.mu.Unlock()
	if r.begun {
		j.answering--
	}
	j.seq++
	e.Seq, e.Time, e.DurationMS = j.seq, r.start, float64(end.Sub(r.start).Microseconds())/1000
	if len(j.ring) < cap(j.ring) {
		j.ring = append(j.ring, e)
	} else {
		j.ring[j.next] = e
		j.next = (j.next + 1) % len(j.ring)
	}
	close(j.changed)
	j.changed = make(chan struct{})
}

// Entries returns the entries of clientID ("" for all), oldest first. It
// first waits, at most wait, for the requests whose answer has begun, so
// that a client that has read an answer finds its request here.
func (j *Journal) Entries(clientID string, wait time.Duration) []Entry {
	timeout := time.NewTimer(wait)
	defer timeout.Stop()
	j.mu.Lock()
	defer j.mu.Unlock()
	for j.answering > 0 {
		ch := j.changed
		j.mu.Unlock()
		select {
		case <-ch:
			j.mu.Lock()
			continue
		case <-timeout.C:
		}
		j.mu.Lock()
		break
	}
	out := []Entry{}
	n := len(j.ring)
	for i := range n {
		e := j.ring[(j.next+i)%n]
		if clientID == "" || e.ClientID == clientID {
			out = append(out, e)
		}
	}
	return out
}

// Reset empties the journal.
func (j *Journal) Reset() {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.ring = j.ring[:0]
	j.next = 0
}
