// Command fmt prints what Go's fmt makes of typed operands, for the table in test/template/fmt.cases.jsonl.
//
// Input (stdin), one JSON object per line:
//   {"fn":"sprintf"|"sprint"|"sprintln"|"value", "format":"...", "args":[operand...]}
// "value" executes the template {{.}} with args[0] as data, as text/template prints a value.
// strconv rows: {"fn":"formatFloat","args":[bitsHex, fmt, prec, bitSize]}, "formatInt" [int64, base],
// "quote" / "quoteToASCII" / "canBackquote" [string], "quoteRune" / "quoteRuneToASCII" / "isPrint" [int32].
// An operand is a JSON string, number (float64), bool or null, a JSON array ([]interface {}) or
// object (map[string]interface {}), or a typed operand {"t": TYPE, "v": ...}: TYPE is a Go basic
// type name (its "v" a decimal string for integer kinds), "string-hex" (a string given by its
// bytes in hex, for invalid UTF-8), "[]T" / "map[string]T" for those, or
// {"fixture": NAME} for one of the values defined below (the TypeScript test builds the same ones).
// Output: the input object with "out" added (the result, when it is valid UTF-8) or "outHex".
//
// Build: GOPATH=/usr/share/gocode GO111MODULE=off go build -o tools/fmt/fmtcases ./tools/fmt
package main

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"text/template"
	"unicode/utf8"
)

type T1 struct {
	Name string
	Age  int
}

type Temp float64

func (t Temp) String() string { return fmt.Sprintf("%.1f°C", float64(t)) }

type ErrT struct{ Msg string }

func (e ErrT) Error() string { return "failed: " + e.Msg }

type Boom struct{}

func (Boom) String() string { panic("boom") }

type PtrStringer struct{ N int }

func (p *PtrStringer) String() string { return "ptr-stringer " + strconv.Itoa(p.N) }

type Mode uint8

type Wrap struct {
	A interface{}
	B *T1
	C []string
	D map[string]int
	E error
	F float32
}

type Emb struct {
	T1
	Extra bool
}

var fixtures = map[string]interface{}{
	"t1":        T1{Name: "a", Age: 3},
	"pt1":       &T1{Name: "b", Age: 4},
	"nilpt1":    (*T1)(nil),
	"temp":      Temp(21.5),
	"err":       ErrT{Msg: "disk"},
	"boom":      Boom{},
	"ptrstr":    &PtrStringer{N: 7},
	"nilptrstr": (*PtrStringer)(nil),
	"mode":      Mode(5),
	"nilmap":    map[string]interface{}(nil),
	"nilslice":  []interface{}(nil),
	"nilstrs":   []string(nil),
	"bytes":     []byte("hi\xff"),
	"nilbytes":  []byte(nil),
	"wrap":      Wrap{C: []string{"x", "y"}, D: map[string]int{"k": 1}, F: 0.1},
	"wrapfull":  Wrap{A: 1.5, B: &T1{Name: "c"}, E: errors.New("bad")},
	"emb":       Emb{T1: T1{Name: "e", Age: 5}, Extra: true},
	"listt1":    []T1{{Name: "x", Age: 1}, {Name: "y", Age: 2}},
	"mapt1":     map[string]T1{"k": {Name: "z", Age: 9}},
	"listerr":   []interface{}{ErrT{Msg: "in list"}, Temp(3)},
	"maptemp":   map[string]Temp{"b": 2, "a": 1},
	"mapint":    map[int]string{10: "ten", 2: "two", -1: "neg"},
	"nilerr":    error(nil),
}

func operand(raw json.RawMessage) interface{} {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v interface{}
	if err := d.Decode(&v); err != nil {
		panic(err)
	}
	return build(v)
}

func build(v interface{}) interface{} {
	switch x := v.(type) {
	case json.Number:
		f, _ := x.Float64()
		return f
	case []interface{}:
		out := make([]interface{}, len(x))
		for i, e := range x {
			out[i] = build(e)
		}
		return out
	case map[string]interface{}:
		if name, ok := x["fixture"]; ok && len(x) == 1 {
			f, found := fixtures[name.(string)]
			if !found {
				panic("unknown fixture " + name.(string))
			}
			return f
		}
		if t, ok := x["t"]; ok && len(x) == 2 {
			return typed(t.(string), x["v"])
		}
		out := map[string]interface{}{}
		for k, e := range x {
			out[k] = build(e)
		}
		return out
	}
	return v
}

func num(v interface{}) string {
	switch x := v.(type) {
	case string:
		return x
	case json.Number:
		return string(x)
	}
	panic(fmt.Sprintf("bad number %v", v))
}

func typed(t string, v interface{}) interface{} {
	i64 := func() int64 { n, err := strconv.ParseInt(num(v), 10, 64); check(err); return n }
	u64 := func() uint64 { n, err := strconv.ParseUint(num(v), 10, 64); check(err); return n }
	f64 := func() float64 {
		s := num(v)
		switch s {
		case "+Inf":
			return posInf()
		case "-Inf":
			return -posInf()
		case "NaN":
			z := 0.0
			return z / z
		case "-0":
			z := 0.0
			return -z
		}
		n, err := strconv.ParseFloat(s, 64)
		check(err)
		return n
	}
	switch t {
	case "int":
		return int(i64())
	case "int8":
		return int8(i64())
	case "int16":
		return int16(i64())
	case "int32":
		return int32(i64())
	case "int64":
		return i64()
	case "uint":
		return uint(u64())
	case "uint8":
		return uint8(u64())
	case "uint16":
		return uint16(u64())
	case "uint32":
		return uint32(u64())
	case "uint64":
		return u64()
	case "uintptr":
		return uintptr(u64())
	case "string-hex":
		b, err := hex.DecodeString(v.(string))
		check(err)
		return string(b)
	case "float64":
		return f64()
	case "float32":
		return float32(f64())
	case "[]string":
		var out []string
		for _, e := range v.([]interface{}) {
			out = append(out, e.(string))
		}
		return out
	case "[]int":
		var out []int
		for _, e := range v.([]interface{}) {
			out = append(out, build(e).(int))
		}
		return out
	case "[]uint8":
		var out []byte
		for _, e := range v.([]interface{}) {
			n, _ := strconv.Atoi(num(e))
			out = append(out, byte(n))
		}
		return out
	case "[]float64":
		var out []float64
		for _, e := range v.([]interface{}) {
			out = append(out, build(e).(float64))
		}
		return out
	case "map[string]string":
		out := map[string]string{}
		for k, e := range v.(map[string]interface{}) {
			out[k] = e.(string)
		}
		return out
	case "map[string]int":
		out := map[string]int{}
		for k, e := range v.(map[string]interface{}) {
			out[k] = build(e).(int)
		}
		return out
	}
	panic("unknown type " + t)
}

func posInf() float64 {
	x := 1e308
	return x * 10
}

func check(err error) {
	if err != nil {
		panic(err)
	}
}

func main() {
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	for sc.Scan() {
		line := sc.Bytes()
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var c map[string]json.RawMessage
		check(json.Unmarshal(line, &c))
		var fn, format string
		check(json.Unmarshal(c["fn"], &fn))
		if f, ok := c["format"]; ok {
			check(json.Unmarshal(f, &format))
		}
		var raws []json.RawMessage
		check(json.Unmarshal(c["args"], &raws))
		args := make([]interface{}, len(raws))
		for i, r := range raws {
			args[i] = operand(r)
		}
		var out string
		switch fn {
		case "sprintf":
			out = fmt.Sprintf(format, args...)
		case "sprint":
			out = fmt.Sprint(args...)
		case "sprintln":
			out = fmt.Sprintln(args...)
		case "value":
			var b strings.Builder
			err := template.Must(template.New("v").Parse("{{.}}")).Execute(&b, args[0])
			out = b.String()
			if err != nil {
				out += "ERROR: " + err.Error()
			}
		case "formatFloat": // args: float64 bits in hex, fmt, prec, bitSize
			bits, err := strconv.ParseUint(args[0].(string), 16, 64)
			check(err)
			out = strconv.FormatFloat(math.Float64frombits(bits), args[1].(string)[0], int(args[2].(float64)), int(args[3].(float64)))
		case "formatInt":
			out = strconv.FormatInt(args[0].(int64), int(args[1].(float64)))
		case "quote":
			out = strconv.Quote(args[0].(string))
		case "quoteToASCII":
			out = strconv.QuoteToASCII(args[0].(string))
		case "quoteRune":
			out = strconv.QuoteRune(args[0].(int32))
		case "quoteRuneToASCII":
			out = strconv.QuoteRuneToASCII(args[0].(int32))
		case "canBackquote":
			out = strconv.FormatBool(strconv.CanBackquote(args[0].(string)))
		case "isPrint":
			out = strconv.FormatBool(strconv.IsPrint(args[0].(int32)))
		default:
			panic("unknown fn " + fn)
		}
		res := bytes.TrimSuffix(line, []byte("}"))
		var key string
		var val []byte
		if utf8.ValidString(out) {
			key = "out"
			val, _ = json.Marshal(out)
			val = bytes.ReplaceAll(val, []byte(`\u003c`), []byte("<"))
			val = bytes.ReplaceAll(val, []byte(`\u003e`), []byte(">"))
			val = bytes.ReplaceAll(val, []byte(`\u0026`), []byte("&"))
		} else {
			key = "outHex"
			val, _ = json.Marshal(hex.EncodeToString([]byte(out)))
		}
		fmt.Fprintf(w, "%s,%q:%s}\n", res, key, val)
	}
}
