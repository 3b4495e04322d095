// Command valuesread reads injector values files as istiod reads its ConfigMap's data.values
// (sigs.k8s.io/yaml.Unmarshal into map[string]interface{}: yaml.v2, then JSON, then encoding/json) and
// prints, per file, the error or the number of top-level keys, with the CPU time and peak memory of
// the process so far: the reference figures for the `values` bench case.
//
//	GOPATH=/usr/share/gocode GO111MODULE=off go build -o valuesread . && ./valuesread FILE...
package main

import (
	"fmt"
	"io/ioutil"
	"os"
	"syscall"
	"time"

	"sigs.k8s.io/yaml"
)

func cpu() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func maxRSS() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Maxrss // KiB on Linux
}

func main() {
	for _, f := range os.Args[1:] {
		start, c0 := time.Now(), cpu()
		b, err := ioutil.ReadFile(f)
		if err != nil {
			fmt.Fprintln(os.Stderr, "valuesread:", err)
			os.Exit(1)
		}
		values := map[string]interface{}{}
		result := ""
		if err := yaml.Unmarshal(b, &values); err != nil {
			result = "error: " + err.Error()
		} else {
			result = fmt.Sprintf("%d top-level keys", len(values))
		}
		fmt.Printf("%s: %d bytes, %s; wall %.2f s, CPU %.2f s, peak RSS %d MB\n", f, len(b), result, time.Since(start).Seconds(), (cpu() - c0).Seconds(), maxRSS()/1024)
	}
}
