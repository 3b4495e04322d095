// Command isprint prints the run-length table of strconv.IsPrint that src/template/strconv.ts embeds:
// alternating lengths (base 36) of non-printable and printable runs, starting at U+0000.
//
//   GO111MODULE=off go run ./tools/fmt/isprint
package main

import (
	"fmt"
	"strconv"
	"strings"
)

func main() {
	// Alternating run lengths starting with a non-printable run at U+0000.
	var runs []string
	cur := false
	n := 0
	for r := rune(0); r <= 0x10FFFF; r++ {
		p := strconv.IsPrint(r)
		if p != cur {
			runs = append(runs, strconv.FormatInt(int64(n), 36))
			cur = p
			n = 0
		}
		n++
	}
	runs = append(runs, strconv.FormatInt(int64(n), 36))
	fmt.Println(strings.Join(runs, ","))
}
