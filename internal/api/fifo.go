package api

// fifo is a doubly linked list of elements that carry their own links (an
// element type embeds links of itself), oldest at head. The admission queue
// and the deadline list use it: a request is added and taken out in constant
// time, from anywhere in the list, with no allocation. Not safe for
// concurrent use: its owner's mutex guards it.
type fifo[E any, P interface {
	*E
	linked() *links[E]
}] struct {
	head, tail *E
}

// links are an element's neighbours in a fifo.
type links[E any] struct {
	prev, next *E
}

func (l *links[E]) linked() *links[E] { return l }

// push adds e at the tail.
func (q *fifo[E, P]) push(e *E) {
	l := P(e).linked()
	l.prev, l.next = q.tail, nil
	if q.tail != nil {
		P(q.tail).linked().next = e
	} else {
		q.head = e
	}
	q.tail = e
}

// remove takes e, which must be in q, out of it.
func (q *fifo[E, P]) remove(e *E) {
	l := P(e).linked()
	if l.prev != nil {
		P(l.prev).linked().next = l.next
	} else {
		q.head = l.next
	}
	if l.next != nil {
		P(l.next).linked().prev = l.prev
	} else {
		q.tail = l.prev
	}
	l.prev, l.next = nil, nil
}
