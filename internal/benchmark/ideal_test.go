package benchmark_test

import (
	"container/heap"
	"testing"
	"time"
)

// idealMakespan is how long a perfect worker takes to grade a class whose
// i-th job (in River's order) is answered 429 snoozes[i] times before its
// model call succeeds: slots workers, every model call (a 429 too) takes
// latency, a 429'd job may call again retryAfter after its answer and not
// sooner, and nothing else costs time: no database, no River, no fetch
// delay. Jobs run first come, first served by the time they may run (as
// River orders them: scheduled_at, then id). With no 429s it is
// ⌈len/slots⌉ × latency.
//
// It is the storm's ideal because it replays the storm that happened (each
// job's own count of 429s) through a worker that wastes nothing: the
// model's latency for every call made, plus every Retry-After wait that
// lies on the critical path, and not a millisecond more.
func idealMakespan(snoozes []int, slots int, latency, retryAfter time.Duration) time.Duration {
	ready := make(jobHeap, len(snoozes))
	for i, n := range snoozes {
		ready[i] = simJob{order: i, left: n}
	}
	heap.Init(&ready)
	free := make(timeHeap, slots) // when each slot is next free
	var end time.Duration
	for ready.Len() > 0 {
		j := heap.Pop(&ready).(simJob)
		slot := heap.Pop(&free).(time.Duration)
		done := max(slot, j.at) + latency
		heap.Push(&free, done)
		if j.left > 0 {
			j.left--
			j.at = done + retryAfter
			heap.Push(&ready, j)
			continue
		}
		end = max(end, done)
	}
	return end
}

// simJob is a job of the simulation: when it may run, its place in River's
// order, and the 429s it has still to meet.
type simJob struct {
	at    time.Duration
	order int
	left  int
}

type jobHeap []simJob

func (h jobHeap) Len() int { return len(h) }
func (h jobHeap) Less(i, j int) bool {
	if h[i].at != h[j].at {
		return h[i].at < h[j].at
	}
	return h[i].order < h[j].order
}
func (h jobHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *jobHeap) Push(x any)   { *h = append(*h, x.(simJob)) }
func (h *jobHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

type timeHeap []time.Duration

func (h timeHeap) Len() int           { return len(h) }
func (h timeHeap) Less(i, j int) bool { return h[i] < h[j] }
func (h timeHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *timeHeap) Push(x any)        { *h = append(*h, x.(time.Duration)) }
func (h *timeHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

func TestIdealMakespan(t *testing.T) {
	t.Parallel()
	const l, ra = 200 * time.Millisecond, 2 * time.Second
	for _, c := range []struct {
		name    string
		snoozes []int
		slots   int
		want    time.Duration
	}{
		{"no 429s: waves of the queue's width", make([]int, 300), 32, 10 * l},
		{"a full last wave is not a longer one", make([]int, 64), 32, 2 * l},
		// slot 1: job 0 (429), job 1, then job 0 again once its wait is over
		{"a 429 waits out its Retry-After", []int{1, 0}, 1, l + ra + l},
		// job 0 may run again at 11l, but the 20 others were ready first
		{"a retry queues behind the jobs ready before it", append([]int{1}, make([]int, 20)...), 1, 22 * l},
		{"429s in a row chain their waits", []int{2}, 4, 3*l + 2*ra},
		// 33 calls on 2 slots; job 0's wait is spent on the others
		{"the wait overlaps other work", append([]int{1}, make([]int, 31)...), 2, 17 * l},
	} {
		got := idealMakespan(c.snoozes, c.slots, l, ra)
		if got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
