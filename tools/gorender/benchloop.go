package main

// The timing loop of -bench, shared with tools/istiod-stage (its build copies this file).

import (
	"runtime"
	"syscall"
	"time"
)

// benchLoop grows N the way testing.B does (predict from the last run, at most 100x, at least +1)
// until one run of N iterations lasts at least d, and reports that run: wall time, and the CPU time of
// the whole process (all threads, the garbage collector's included), which a busy machine skews less.
func benchLoop(op func() error, d time.Duration) (n int, elapsed, cpu time.Duration, allocs, bytes uint64, err error) {
	run := func(n int) (time.Duration, time.Duration, uint64, uint64, error) {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		cpu0 := processCPU()
		start := time.Now()
		for i := 0; i < n; i++ {
			if err := op(); err != nil {
				return 0, 0, 0, 0, err
			}
		}
		el := time.Since(start)
		cpu1 := processCPU()
		runtime.ReadMemStats(&after)
		return el, cpu1 - cpu0, after.Mallocs - before.Mallocs, after.TotalAlloc - before.TotalAlloc, nil
	}
	n = 1
	for {
		elapsed, cpu, allocs, bytes, err = run(n)
		if err != nil || elapsed >= d || n >= 1e9 {
			return
		}
		last := n
		goal := d.Nanoseconds()
		prevns := elapsed.Nanoseconds()
		if prevns <= 0 {
			prevns = 1
		}
		next := goal * int64(last) / prevns
		next += next / 5
		if next > 100*int64(last) {
			next = 100 * int64(last)
		}
		if next <= int64(last) {
			next = int64(last) + 1
		}
		n = int(next)
	}
}

func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
