package engine

import "container/heap"

// Queue is a priority queue: Pop gives the least item by its less
// function (a binary heap, so the order among items less never tells
// apart is still fixed by the order of the pushes and pops).
type Queue[T any] struct {
	h queueHeap[T]
}

// NewQueue is a queue ordered by less holding first.
func NewQueue[T any](less func(a, b T) bool, first T) *Queue[T] {
	return &Queue[T]{h: queueHeap[T]{items: []T{first}, less: less}}
}

// Len is the number of items queued.
func (q *Queue[T]) Len() int { return len(q.h.items) }

// Push queues x.
func (q *Queue[T]) Push(x T) { heap.Push(&q.h, x) }

// Pop takes the least item out of the queue; the queue must not be empty.
func (q *Queue[T]) Pop() T { return heap.Pop(&q.h).(T) }

// queueHeap is the heap.Interface of a Queue.
type queueHeap[T any] struct {
	items []T
	less  func(a, b T) bool
}

func (h *queueHeap[T]) Len() int           { return len(h.items) }
func (h *queueHeap[T]) Less(i, j int) bool { return h.less(h.items[i], h.items[j]) }
func (h *queueHeap[T]) Swap(i, j int)      { h.items[i], h.items[j] = h.items[j], h.items[i] }
func (h *queueHeap[T]) Push(x any)         { h.items = append(h.items, x.(T)) }
func (h *queueHeap[T]) Pop() any {
	x := h.items[len(h.items)-1]
	h.items = h.items[:len(h.items)-1]
	return x
}
