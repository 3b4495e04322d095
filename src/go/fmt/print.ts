// Go's fmt printing (Sprintf, Sprint, Sprintln) over the value model of value.ts, byte-exact with Go 1.19:
// verbs, flags, width and precision (also `*`), argument indexes, Stringer/error methods and every
// %!verb(...) error form. The printer mirrors the structure of Go's fmt: a per-call state holding the
// flags, `printArg` for an operand and `printValue` for the values reached inside it.
//
// Mirrors: go1.19 src/fmt/{print,format}.go
// Proven by: test/vectors/fmt/, test/template/fmt.cases.jsonl

import { LimitExceeded, PathTracker, checkExpandedSize, currentLimits } from '../../guard/limits.js';
import {
  GoFunc,
  GoNil,
  GoNum,
  GoStruct,
  compareKeys,
  isIntKind,
  isMap,
  isUintKind,
  typeOf,
  type GoMap,
  type GoMethod,
  type GoType,
  type GoValue,
  type Kind,
} from '../reflect/value.js';
import {
  canBackquote,
  formatFloat,
  fromGoBytes,
  goBytes,
  isPrint,
  normalizeGoString,
  quote,
  quoteRune,
  quoteRuneToASCII,
  quoteToASCII,
  runeCount,
  runeString,
} from '../strconv/strconv.js';

const NIL_ANGLE = '<nil>';
const NIL_PAREN = '(nil)';
const INVALID_REFLECT = '<invalid reflect.Value>';
const MAX_RUNE = 0x10ffffn;
const UINT64 = (1n << 64n) - 1n;

/** The Go type name %T prints; `<nil>` for a nil interface (and an invalid value). */
export function goTypeName(v: GoValue): string {
  if (v === null || v === undefined) return NIL_ANGLE;
  if (v instanceof GoNil && v.type.kind === 'interface') return NIL_ANGLE;
  return typeOf(v)!.name;
}

/** Printable ASCII but '"' and '\\': %q writes such a string between quotes unchanged. */
const PLAIN_QUOTABLE = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;
/** Printable ASCII: %q escapes only '"' and '\\' in it. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * Sprintf for the formats templates mostly use: verbs %s, %v, %d, %q and %% without flags, width or
 * precision, over strings and ints, one argument per verb. undefined when the full printer is needed.
 */
function simpleSprintf(format: string, args: GoValue[]): string | undefined {
  let out = '';
  let start = 0;
  let ai = 0;
  for (let i = format.indexOf('%'); i >= 0; i = format.indexOf('%', start)) {
    out += format.slice(start, i);
    const verb = format.charCodeAt(i + 1);
    start = i + 2;
    if (verb === 0x25) {
      out += '%';
      continue;
    }
    if (ai >= args.length) return undefined;
    const a = args[ai++];
    if (typeof a === 'string') {
      if (verb === 0x73 || verb === 0x76) out += a;
      else if (verb === 0x71 && PLAIN_QUOTABLE.test(a)) out += '"' + a + '"';
      else if (verb === 0x71 && PRINTABLE_ASCII.test(a)) out += JSON.stringify(a);
      else return undefined;
    } else if (typeof a === 'bigint' && (verb === 0x64 || verb === 0x76)) out += a.toString();
    else return undefined;
  }
  if (ai !== args.length) return undefined;
  return normalizeGoString(out + format.slice(start));
}

/** %v of one operand that needs no printer: strings, ints, bools, and float64s %v writes as their
 *  digits (integral, under a million); a numeric kind only when its type has no methods (Stringer). */
function sprintOne(a: GoValue): string | undefined {
  switch (typeof a) {
    case 'string':
      return normalizeGoString(a);
    case 'bigint':
      return a.toString();
    case 'boolean':
      return a ? 'true' : 'false';
    case 'number':
      return Number.isInteger(a) && a < 1e6 && a > -1e6 && !Object.is(a, -0) ? String(a) : undefined;
  }
  if (a instanceof GoNum && a.type.methods === undefined && typeof a.v === 'bigint' && (isIntKind(a.type.kind) || isUintKind(a.type.kind))) return a.v.toString();
  return undefined;
}

/** fmt.Sprintf */
export function sprintf(format: string, args: GoValue[]): string {
  const fast = simpleSprintf(format, args);
  if (fast !== undefined) return fast;
  const p = new Printer();
  p.doPrintf(format, args);
  return p.result();
}

/** fmt.Sprint: operands separated by a space when neither side is a string. */
export function sprint(args: GoValue[]): string {
  if (args.length === 1) {
    const fast = sprintOne(args[0]);
    if (fast !== undefined) return fast;
  }
  const p = new Printer();
  let prevString = false;
  args.forEach((arg, i) => {
    const isString = typeof arg === 'string';
    if (i > 0 && !isString && !prevString) p.buf += ' ';
    p.printArg(arg, 'v');
    prevString = isString;
  });
  return p.result();
}

/** fmt.Sprintln: operands always separated by a space, then a newline. */
export function sprintln(args: GoValue[]): string {
  const p = new Printer();
  args.forEach((arg, i) => {
    if (i > 0) p.buf += ' ';
    p.printArg(arg, 'v');
  });
  p.buf += '\n';
  return p.result();
}

/**
 * A value as `{{ . }}` prints it (text/template's printValue): an invalid value or nil is `<no value>`; a
 * pointer is followed to what it points at unless the pointer has a String or Error method;
 * everything else is fmt's %v. (text/template refuses to print functions; that check belongs to the
 * caller, see isPrintable.)
 */
export function formatValue(v: GoValue): string {
  switch (typeof v) {
    case 'string':
      return v;
    case 'bigint':
      return v.toString();
    case 'boolean':
      return v ? 'true' : 'false';
    case 'number':
      return formatFloat(v, 'g', -1, 64);
    case 'undefined':
      return '<no value>';
  }
  // text/template unwraps a pipeline's empty-interface value, so a nil one is invalid by the time it prints.
  if (v === null) return '<no value>';
  const p = new Printer();
  if (v instanceof GoStruct && v.ptr && !findMethod(v, 'Error') && !findMethod(v, 'String')) {
    p.arg = v;
    p.derefTop = true;
  }
  p.printArg(v, 'v');
  return p.result();
}

/** False for values text/template cannot print (functions and channels): "can't print ... of type ...". */
export function isPrintable(v: GoValue): boolean {
  if (v instanceof GoFunc) return false;
  if (v instanceof GoNil && (v.type.kind === 'func' || v.type.kind === 'chan')) return false;
  return true;
}

// ---------- addresses ----------

// Go prints heap addresses for nested pointers, functions and %p. They differ from run to run in Go;
// here each object gets a made-up address, stable for the life of the process, in the range
// Go's heap addresses usually have.
const addresses = new WeakMap<object, bigint>();
let nextAddress = 0xc000010000n;

function addressOf(v: object): bigint {
  let a = addresses.get(v);
  if (a === undefined) {
    a = nextAddress;
    nextAddress += 0x30n;
    addresses.set(v, a);
  }
  return a;
}

// ---------- methods ----------

function findMethod(v: GoValue, name: 'String' | 'Error' | 'GoString'): GoMethod | undefined {
  if (v === null || v === undefined || typeof v !== 'object') return undefined;
  const t = typeOf(v);
  // A pointer's method set includes the methods of what it points at.
  const methods = t?.methods ?? (t?.kind === 'ptr' ? t.elem?.methods : undefined) ?? (v instanceof GoStruct ? v.type.methods : undefined);
  if (!methods || !Object.prototype.hasOwnProperty.call(methods, name)) return undefined;
  const m = methods[name]!;
  if (m.params.length !== 0 || m.results !== 1 || m.resultType.kind !== 'string') return undefined;
  return m;
}

function panicText(e: unknown): string {
  if (e instanceof Error) return e.message;
  return String(e);
}

// ---------- the printer ----------

const NOARG = Symbol('no operand');

/** The decimal text of each byte value. */
const BYTE_TEXT: string[] = Array.from({ length: 256 }, (_, i) => String(i));
const bytesText = new WeakMap<GoValue[], string>();

interface Flags {
  widPresent: boolean;
  precPresent: boolean;
  minus: boolean;
  plus: boolean;
  sharp: boolean;
  space: boolean;
  zero: boolean;
  plusV: boolean;
  sharpV: boolean;
  wid: number;
  prec: number;
}

function noFlags(): Flags {
  return {
    widPresent: false,
    precPresent: false,
    minus: false,
    plus: false,
    sharp: false,
    space: false,
    zero: false,
    plusV: false,
    sharpV: false,
    wid: 0,
    prec: 0,
  };
}

/** A value's shape as reflect.Kind sees it, for the printing switch. */
function kindOf(v: GoValue): string {
  switch (typeof v) {
    case 'undefined':
      return 'invalid';
    case 'boolean':
      return 'bool';
    case 'string':
      return 'string';
    case 'number':
      return 'float64';
    case 'bigint':
      return 'int';
  }
  if (v === null) return 'interface';
  if (Array.isArray(v)) return 'slice';
  if (v instanceof GoNum) return v.type.kind;
  if (v instanceof GoNil) return v.type.kind;
  if (v instanceof GoStruct) return v.ptr ? 'ptr' : 'struct';
  if (v instanceof GoFunc) return 'func';
  return 'map';
}

function isByteSliceType(t: GoType | undefined): boolean {
  return !!t && (t.kind === 'slice' || t.kind === 'array') && t.elem?.kind === 'uint8';
}

function bytesOf(a: GoValue[]): number[] {
  return a.map((x) => (x instanceof GoNum ? Number(x.v) & 0xff : typeof x === 'bigint' ? Number(x & 0xffn) : 0));
}

function bytesToString(b: number[]): string {
  return fromGoBytes(b);
}

class Printer {
  buf = '';
  f: Flags = noFlags();
  /** The operand being printed (Go's p.arg); NOARG while printing a value reached inside one. */
  arg: GoValue | typeof NOARG = NOARG;
  /** The value being printed inside an operand (Go's p.value); NOARG when none. */
  value: GoValue | typeof NOARG = NOARG;
  erroring = false;
  panicking = false;
  reordered = false;
  goodArgNum = true;
  /** text/template prints a top-level pointer to struct as the struct itself. */
  derefTop = false;
  /** The maps and slices being printed, once the value is deep: a value inside itself is an error. */
  readonly path = new PathTracker('printing of it');

  result(): string {
    return normalizeGoString(this.buf);
  }

  // ----- padding (Go's fmt.fmt) -----

  writePadding(n: number): void {
    if (n <= 0) return;
    this.buf += (this.f.zero ? '0' : ' ').repeat(n);
  }

  /** Pad s to the width, counting runes. */
  pad(s: string): void {
    const f = this.f;
    if (!f.widPresent || f.wid === 0) {
      this.buf += s;
      return;
    }
    const width = f.wid - runeCount(s);
    if (!f.minus) {
      this.writePadding(width);
      this.buf += s;
    } else {
      this.buf += s;
      this.writePadding(width);
    }
  }

  padNoZero(s: string): void {
    const oldZero = this.f.zero;
    this.f.zero = false;
    this.pad(s);
    this.f.zero = oldZero;
  }

  fmtBoolean(v: boolean): void {
    this.pad(v ? 'true' : 'false');
  }

  fmtUnicode(u: bigint): void {
    const f = this.f;
    let prec = 4;
    if (f.precPresent && f.prec > 4) prec = f.prec;
    let s = 'U+' + u.toString(16).toUpperCase().padStart(prec, '0');
    if (f.sharp && u <= MAX_RUNE && isPrint(Number(u))) s += " '" + String.fromCodePoint(Number(u)) + "'";
    this.padNoZero(s);
  }

  /** Go's fmt.fmtInteger: u holds the bits (uint64); isSigned reads them as int64. */
  fmtInteger(u: bigint, base: number, isSigned: boolean, verb: string, upper: boolean): void {
    const f = this.f;
    u = BigInt.asUintN(64, u);
    const negative = isSigned && BigInt.asIntN(64, u) < 0n;
    if (negative) u = -BigInt.asIntN(64, u);

    let prec = 0;
    if (f.precPresent) {
      prec = f.prec;
      // Precision 0 and value 0 means "print nothing but padding".
      if (prec === 0 && u === 0n) {
        const oldZero = f.zero;
        f.zero = false;
        this.writePadding(f.wid);
        f.zero = oldZero;
        return;
      }
    } else if (f.zero && f.widPresent) {
      prec = f.wid;
      if (negative || f.plus || f.space) prec--; // leave room for the sign
    }

    let s = u.toString(base);
    if (upper) s = s.toUpperCase();
    if (s.length < prec) s = '0'.repeat(prec - s.length) + s;

    if (f.sharp) {
      if (base === 2) s = '0b' + s;
      else if (base === 8) {
        if (s[0] !== '0') s = '0' + s;
      } else if (base === 16) s = (upper ? '0X' : '0x') + s;
    }
    if (verb === 'O') s = '0o' + s;

    if (negative) s = '-' + s;
    else if (f.plus) s = '+' + s;
    else if (f.space) s = ' ' + s;

    this.padNoZero(s);
  }

  truncateString(s: string): string {
    const f = this.f;
    if (f.precPresent) {
      let n = f.prec;
      for (let i = 0; i < s.length; i++) {
        n--;
        if (n < 0) return s.slice(0, i);
        const c = s.charCodeAt(i);
        if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
          const d = s.charCodeAt(i + 1);
          if (d >= 0xdc00 && d <= 0xdfff) i++;
        }
      }
    }
    return s;
  }

  fmtS(s: string): void {
    this.pad(this.truncateString(normalizeGoString(s)));
  }

  /** %x / %X of a string or byte slice, as bytes. */
  fmtSbx(b: ArrayLike<number>, upper: boolean): void {
    const f = this.f;
    const digits = upper ? '0123456789ABCDEFX' : '0123456789abcdefx';
    let length = b.length;
    if (f.precPresent && f.prec < length) length = f.prec;
    let width = 2 * length;
    if (width > 0) {
      if (f.space) {
        if (f.sharp) width *= 2;
        width += length - 1;
      } else if (f.sharp) width += 2;
    } else {
      if (f.widPresent) this.writePadding(f.wid);
      return;
    }
    if (f.widPresent && f.wid > width && !f.minus) this.writePadding(f.wid - width);
    let out = '';
    if (f.sharp) out += '0' + digits[16];
    for (let i = 0; i < length; i++) {
      if (f.space && i > 0) {
        out += ' ';
        if (f.sharp) out += '0' + digits[16];
      }
      const c = b[i]!;
      out += digits[c >> 4]! + digits[c & 0xf]!;
    }
    this.buf += out;
    if (f.widPresent && f.wid > width && f.minus) this.writePadding(f.wid - width);
  }

  fmtQ(s: string): void {
    const f = this.f;
    s = this.truncateString(normalizeGoString(s));
    if (f.sharp && canBackquote(s)) {
      this.pad('`' + s + '`');
      return;
    }
    this.pad(f.plus ? quoteToASCII(s) : quote(s));
  }

  fmtC(c: bigint): void {
    this.pad(runeString(c > MAX_RUNE ? 0xfffd : Number(c)));
  }

  fmtQc(c: bigint): void {
    const r = c > MAX_RUNE ? 0xfffd : Number(c);
    this.pad(this.f.plus ? quoteRuneToASCII(r) : quoteRune(r));
  }

  /** Go's fmt.fmtFloat: prec is the default precision for the verb (-1 for shortest). */
  fmtFloatNum(v: number, size: 32 | 64, verb: string, prec: number): void {
    const f = this.f;
    if (f.precPresent) prec = f.prec;
    let num = formatFloat(v, verb, prec, size);
    // Give every number a sign so the cases below can treat them alike.
    if (num[0] !== '-' && num[0] !== '+') num = '+' + num;
    if (f.space && num[0] === '+' && !f.plus) num = ' ' + num.slice(1);
    if (num[1] === 'I' || num[1] === 'N') {
      // Infinities and NaN are never padded with zeros; NaN has no sign unless asked for.
      if (num[1] === 'N' && !f.space && !f.plus) num = num.slice(1);
      this.padNoZero(num);
      return;
    }
    if (f.sharp && verb !== 'b') {
      let digits = 0;
      switch (verb) {
        case 'v':
        case 'g':
        case 'G':
        case 'x':
          digits = prec;
          if (digits === -1) digits = 6; // %#g with shortest precision keeps six significant digits
      }
      let tail = '';
      let hasDecimalPoint = false;
      let sawNonzeroDigit = false;
      for (let i = 1; i < num.length; i++) {
        const c = num[i]!;
        if (c === '.') {
          hasDecimalPoint = true;
          continue;
        }
        if (c === 'p' || c === 'P' || ((c === 'e' || c === 'E') && verb !== 'x' && verb !== 'X')) {
          tail = num.slice(i);
          num = num.slice(0, i);
          break;
        }
        if (c !== '0') sawNonzeroDigit = true;
        if (sawNonzeroDigit) digits--;
      }
      if (!hasDecimalPoint) {
        if (num.length === 2 && num[1] === '0') digits--; // a lone 0 counts as a significant digit
        num += '.';
      }
      if (digits > 0) num += '0'.repeat(digits);
      num += tail;
    }
    if (f.plus || num[0] !== '+') {
      // Sign first, then zero padding.
      if (f.zero && f.widPresent && f.wid > num.length) {
        this.buf += num[0];
        this.writePadding(f.wid - num.length);
        this.buf += num.slice(1);
        return;
      }
      this.pad(num);
      return;
    }
    this.pad(num.slice(1));
  }

  fmt0x64(v: bigint, leading0x: boolean): void {
    const sharp = this.f.sharp;
    this.f.sharp = leading0x;
    this.fmtInteger(v, 16, false, 'v', false);
    this.f.sharp = sharp;
  }

  clearFlags(): void {
    this.f = noFlags();
  }

  // ----- operands (Go's pp) -----

  badVerb(verb: string): void {
    this.erroring = true;
    this.buf += '%!' + verb + '(';
    if (this.arg !== NOARG && this.arg !== null && this.arg !== undefined) {
      const arg = this.arg;
      this.buf += goTypeName(arg) + '=';
      this.printArg(arg, 'v');
    } else if (this.value !== NOARG && this.value !== undefined && this.value !== null) {
      const value = this.value;
      this.buf += goTypeName(value) + '=';
      this.printValue(value, 'v', 0);
    } else {
      this.buf += NIL_ANGLE;
    }
    this.buf += ')';
    this.erroring = false;
  }

  fmtBool(v: boolean, verb: string): void {
    if (verb === 't' || verb === 'v') this.fmtBoolean(v);
    else this.badVerb(verb);
  }

  fmtIntegerVerb(v: bigint, isSigned: boolean, verb: string): void {
    switch (verb) {
      case 'v':
        if (this.f.sharpV && !isSigned) this.fmt0x64(v, true);
        else this.fmtInteger(v, 10, isSigned, verb, false);
        return;
      case 'd':
        return this.fmtInteger(v, 10, isSigned, verb, false);
      case 'b':
        return this.fmtInteger(v, 2, isSigned, verb, false);
      case 'o':
      case 'O':
        return this.fmtInteger(v, 8, isSigned, verb, false);
      case 'x':
        return this.fmtInteger(v, 16, isSigned, verb, false);
      case 'X':
        return this.fmtInteger(v, 16, isSigned, verb, true);
      case 'c':
        return this.fmtC(BigInt.asUintN(64, v));
      case 'q':
        return this.fmtQc(BigInt.asUintN(64, v));
      case 'U':
        return this.fmtUnicode(BigInt.asUintN(64, v));
      default:
        this.badVerb(verb);
    }
  }

  fmtFloatVerb(v: number, size: 32 | 64, verb: string): void {
    switch (verb) {
      case 'v':
        return this.fmtFloatNum(v, size, 'g', -1);
      case 'b':
      case 'g':
      case 'G':
      case 'x':
      case 'X':
        return this.fmtFloatNum(v, size, verb, -1);
      case 'f':
      case 'e':
      case 'E':
        return this.fmtFloatNum(v, size, verb, 6);
      case 'F':
        return this.fmtFloatNum(v, size, 'f', 6);
      default:
        this.badVerb(verb);
    }
  }

  /** Go's fmtComplex: (re+imi), both parts with the float verb, the imaginary part always signed. */
  fmtComplex(re: number, im: number, size: 32 | 64, verb: string): void {
    switch (verb) {
      case 'v':
      case 'b':
      case 'g':
      case 'G':
      case 'x':
      case 'X':
      case 'f':
      case 'F':
      case 'e':
      case 'E': {
        const oldPlus = this.f.plus;
        this.buf += '(';
        this.fmtFloatVerb(re, size, verb);
        this.f.plus = true;
        this.fmtFloatVerb(im, size, verb);
        this.buf += 'i)';
        this.f.plus = oldPlus;
        return;
      }
      default:
        this.badVerb(verb);
    }
  }

  fmtString(v: string, verb: string): void {
    switch (verb) {
      case 'v':
        if (this.f.sharpV) this.fmtQ(v);
        else this.fmtS(v);
        return;
      case 's':
        return this.fmtS(v);
      case 'x':
        return this.fmtSbx(goBytes(v), false);
      case 'X':
        return this.fmtSbx(goBytes(v), true);
      case 'q':
        return this.fmtQ(v);
      default:
        this.badVerb(verb);
    }
  }

  /** A byte slice: `nil` distinguishes a nil slice for %#v. */
  fmtBytes(v: number[], isNil: boolean, verb: string, typeString: string, value: GoValue): void {
    switch (verb) {
      case 'v':
      case 'd':
        if (this.f.sharpV) {
          this.buf += typeString;
          if (isNil) {
            this.buf += NIL_PAREN;
            return;
          }
          this.buf += '{';
          v.forEach((c, i) => {
            if (i > 0) this.buf += ', ';
            this.fmt0x64(BigInt(c), true);
          });
          this.buf += '}';
        } else {
          this.buf += '[';
          v.forEach((c, i) => {
            if (i > 0) this.buf += ' ';
            this.fmtInteger(BigInt(c), 10, false, verb, false);
          });
          this.buf += ']';
        }
        return;
      case 's':
        return this.fmtS(bytesToString(v));
      case 'x':
        return this.fmtSbx(v, false);
      case 'X':
        return this.fmtSbx(v, true);
      case 'q':
        return this.fmtQ(bytesToString(v));
      default:
        this.printValue(value, verb, 0);
    }
  }

  fmtPointer(value: GoValue, verb: string): void {
    let u: bigint;
    if (value instanceof GoNil && ['ptr', 'map', 'slice', 'func', 'chan'].includes(value.type.kind)) u = 0n;
    else if (value instanceof GoFunc || (value instanceof GoStruct && value.ptr) || Array.isArray(value) || isMap(value)) {
      u = addressOf(value as object);
    } else {
      this.badVerb(verb);
      return;
    }
    switch (verb) {
      case 'v':
        if (this.f.sharpV) {
          this.buf += '(' + goTypeName(value) + ')(';
          if (u === 0n) this.buf += 'nil';
          else this.fmt0x64(u, true);
          this.buf += ')';
        } else if (u === 0n) this.pad(NIL_ANGLE);
        else this.fmt0x64(u, !this.f.sharp);
        return;
      case 'p':
        return this.fmt0x64(u, !this.f.sharp);
      case 'b':
      case 'o':
      case 'd':
      case 'x':
      case 'X':
        return this.fmtIntegerVerb(u, false, verb);
      default:
        this.badVerb(verb);
    }
  }

  /** Go's catchPanic: a panicking String/Error method prints as %!v(PANIC=String method: ...). */
  methodPanic(arg: GoValue, verb: string, method: string, e: unknown): void {
    if (arg instanceof GoNil && arg.type.kind === 'ptr') {
      this.buf += NIL_ANGLE;
      return;
    }
    if (this.panicking) throw e;
    const old = this.f;
    this.clearFlags();
    this.buf += '%!' + verb + '(PANIC=' + method + ' method: ';
    this.panicking = true;
    this.printArg(panicText(e), 'v');
    this.panicking = false;
    this.buf += ')';
    this.f = old;
  }

  handleMethods(verb: string): boolean {
    if (this.erroring) return false;
    const arg = this.arg as GoValue;
    if (this.f.sharpV) {
      const m = findMethod(arg, 'GoString');
      if (!m) return false;
      let s: GoValue;
      try {
        s = m.fn(arg);
      } catch (e) {
        this.methodPanic(arg, verb, 'GoString', e);
        return true;
      }
      this.fmtS(String(s));
      return true;
    }
    switch (verb) {
      case 'v':
      case 's':
      case 'x':
      case 'X':
      case 'q':
        for (const name of ['Error', 'String'] as const) {
          const m = findMethod(arg, name);
          if (!m) continue;
          let s: GoValue;
          try {
            s = m.fn(arg);
          } catch (e) {
            this.methodPanic(arg, verb, name, e);
            return true;
          }
          this.fmtString(typeof s === 'string' ? s : String(s), verb);
          return true;
        }
    }
    return false;
  }

  printArg(arg: GoValue, verb: string): void {
    this.arg = arg;
    this.value = NOARG;

    if (arg === null || arg === undefined || (arg instanceof GoNil && arg.type.kind === 'interface')) {
      // An operand that is a nil interface (a missing value reaches fmt as nil, too).
      this.arg = null;
      if (verb === 'T' || verb === 'v') this.pad(NIL_ANGLE);
      else this.badVerb(verb);
      return;
    }
    if (verb === 'T') {
      this.fmtS(goTypeName(arg));
      return;
    }
    if (verb === 'p') {
      this.fmtPointer(arg, 'p');
      return;
    }
    switch (typeof arg) {
      case 'boolean':
        return this.fmtBool(arg, verb);
      case 'number':
        return this.fmtFloatVerb(arg, 64, verb);
      case 'bigint':
        return this.fmtIntegerVerb(arg, true, verb);
      case 'string':
        return this.fmtString(arg, verb);
    }
    // fmt treats the unnamed []byte specially before looking at methods.
    if (Array.isArray(arg) || arg instanceof GoNil) {
      const t = typeOf(arg)!;
      if (t.kind === 'slice' && isByteSliceType(t) && t.name === '[]uint8') {
        const isNil = arg instanceof GoNil;
        return this.fmtBytes(isNil ? [] : bytesOf(arg as GoValue[]), isNil, verb, '[]byte', arg);
      }
    }
    if (!this.handleMethods(verb)) this.printValue(arg, verb, 0);
  }

  /** A nil interface reached inside a value (a nil element of []interface {}, a nil map value). */
  printNilInterface(staticType: GoType | undefined): void {
    if (this.f.sharpV) this.buf += (staticType?.kind === 'interface' ? staticType.name : 'interface {}') + NIL_PAREN;
    else this.buf += NIL_ANGLE;
  }

  printValue(value: GoValue, verb: string, depth: number, staticType?: GoType): void {
    // A value that shares its parts can print exponentially long (list $x $x, doubled 40 times):
    // counted before printing (once per distinct list or map), checked again as it prints.
    if (depth === 0 && typeof value === 'object' && value !== null) {
      try {
        checkExpandedSize(value, true);
      } catch (e) {
        if (e instanceof LimitExceeded) throw new LimitExceeded(`printed value exceeds the limit of ${currentLimits().maxValueBytes} bytes per value`);
        throw e;
      }
    }
    if (depth > 0 && this.buf.length > currentLimits().maxValueBytes) {
      throw new LimitExceeded(`printed value exceeds the limit of ${currentLimits().maxValueBytes} bytes per value`);
    }
    if (depth > 0 && value !== undefined && value !== null) {
      this.arg = value;
      if (this.handleMethods(verb)) return;
    }
    this.arg = NOARG;
    this.value = value;

    const kind = kindOf(value);
    if (typeof value === 'bigint' || (value instanceof GoNum && typeof value.v === 'bigint')) {
      const bits = typeof value === 'bigint' ? value : (value.v as bigint);
      if (isIntKind(kind as Kind)) return this.fmtIntegerVerb(bits, true, verb);
      if (isUintKind(kind as Kind)) return this.fmtIntegerVerb(bits, false, verb);
    }
    switch (kind) {
      case 'invalid':
        if (depth === 0) this.buf += INVALID_REFLECT;
        else if (staticType && staticType.kind !== 'interface') this.printValue(zeroOf(staticType), verb, depth);
        else this.printNilInterface(staticType);
        return;
      case 'interface':
        // null, or a GoNil of an interface type
        return this.printNilInterface(value instanceof GoNil ? value.type : staticType);
      case 'bool':
        return this.fmtBool(value as boolean, verb);
      case 'string':
        return this.fmtString(value as string, verb);
      case 'float64':
        return this.fmtFloatVerb(value instanceof GoNum ? (value.v as number) : (value as number), 64, verb);
      case 'float32':
        return this.fmtFloatVerb(Number((value as GoNum).v), 32, verb);
      case 'map':
        return this.printMap(value, verb, depth);
      case 'struct':
        return this.printStruct(value as GoStruct, verb, depth);
      case 'slice':
      case 'array':
        return this.printSlice(value, verb, depth);
      case 'ptr':
        if (value instanceof GoStruct && (depth === 0 || this.derefTop)) {
          if (this.derefTop) this.derefTop = false;
          else this.buf += '&';
          return this.printStruct(value, verb, depth + 1);
        }
        return this.fmtPointer(value, verb);
      case 'func':
      case 'chan':
        return this.fmtPointer(value, verb);
    }
    if ((kind === 'complex128' || kind === 'complex64') && value instanceof GoNum && 'im' in value) {
      return this.fmtComplex(value.v as number, (value as GoNum & { im: number }).im, kind === 'complex64' ? 32 : 64, verb);
    }
    // other kinds the model does not hold
    this.buf += '?' + goTypeName(value) + '?';
  }

  printMap(value: GoValue, verb: string, depth: number): void {
    const t = typeOf(value)!;
    if (this.f.sharpV) {
      this.buf += t.name;
      if (value instanceof GoNil) {
        this.buf += NIL_PAREN;
        return;
      }
      this.buf += '{';
    } else this.buf += 'map[';
    if (!(value instanceof GoNil)) {
      const m = value as GoMap;
      const keyType = t.key;
      const entries = mapKeys(m, keyType);
      this.path.enter(m, depth);
      entries.forEach(([key, raw], i) => {
        if (i > 0) this.buf += this.f.sharpV ? ', ' : ' ';
        this.printValue(key, verb, depth + 1, keyType);
        this.buf += ':';
        this.printValue(m[raw], verb, depth + 1, t.elem);
      });
      this.path.leave(m, depth);
    }
    this.buf += this.f.sharpV ? '}' : ']';
  }

  printStruct(s: GoStruct, verb: string, depth: number): void {
    if (this.f.sharpV) this.buf += s.type.name;
    this.buf += '{';
    (s.type.fields ?? []).forEach((field, i) => {
      if (i > 0) this.buf += this.f.sharpV ? ', ' : ' ';
      if (this.f.plusV || this.f.sharpV) this.buf += field.name + ':';
      this.printValue(s.field(field.name), verb, depth + 1, field.type);
    });
    this.buf += '}';
  }

  /** No flag, width or precision: a value prints in its plain form. */
  private plainFlags(): boolean {
    const f = this.f;
    return !f.widPresent && !f.precPresent && !f.minus && !f.plus && !f.sharp && !f.space && !f.zero && !f.plusV && !f.sharpV;
  }

  printSlice(value: GoValue, verb: string, depth: number): void {
    const t = typeOf(value)!;
    const isNil = value instanceof GoNil;
    const items: GoValue[] = isNil ? [] : (value as GoValue[]);
    if ((verb === 's' || verb === 'q' || verb === 'x' || verb === 'X') && isByteSliceType(t)) {
      return this.fmtBytes(bytesOf(items), isNil, verb, t.name, value);
    }
    if (this.f.sharpV) {
      this.buf += t.name;
      if (isNil && t.kind === 'slice') {
        this.buf += NIL_PAREN;
        return;
      }
      this.buf += '{';
      this.path.enter(items, depth);
      items.forEach((x, i) => {
        if (i > 0) this.buf += ', ';
        this.printValue(x, verb, depth + 1, t.elem);
      });
      this.path.leave(items, depth);
      this.buf += '}';
    } else if ((verb === 'v' || verb === 'd') && t.elem?.name === 'uint8' && this.plainFlags() && items.every((x) => x instanceof GoNum && x.type.methods === undefined)) {
      // a []byte (a chart file's bytes): each element as fmtInteger prints it, without the walk per byte;
      // the text is kept for the list (no template function changes a list in place)
      let text = bytesText.get(items);
      if (text === undefined) {
        text = '[' + items.map((x) => BYTE_TEXT[Number((x as GoNum).v) & 0xff]).join(' ') + ']';
        if (items.length >= 256) bytesText.set(items, text);
      }
      this.buf += text;
      if (this.buf.length > currentLimits().maxValueBytes) throw new LimitExceeded(`printed value exceeds the limit of ${currentLimits().maxValueBytes} bytes per value`);
    } else {
      this.buf += '[';
      this.path.enter(items, depth);
      items.forEach((x, i) => {
        if (i > 0) this.buf += ' ';
        this.printValue(x, verb, depth + 1, t.elem);
      });
      this.path.leave(items, depth);
      this.buf += ']';
    }
  }

  // ----- Printf -----

  doPrintf(format: string, a: GoValue[]): void {
    const end = format.length;
    let argNum = 0;
    let afterIndex = false;
    this.reordered = false;
    let i = 0;
    formatLoop: while (i < end) {
      this.goodArgNum = true;
      const lasti = i;
      while (i < end && format.charCodeAt(i) !== 0x25 /* % */) i++;
      if (i > lasti) this.buf += format.slice(lasti, i);
      if (i >= end) break;
      i++; // skip %

      this.clearFlags();
      const f = this.f;
      simple: for (; i < end; i++) {
        const c = format[i]!;
        switch (c) {
          case '#':
            f.sharp = true;
            break;
          case '0':
            f.zero = !f.minus; // only pad with zeros on the left
            break;
          case '+':
            f.plus = true;
            break;
          case '-':
            f.minus = true;
            f.zero = false;
            break;
          case ' ':
            f.space = true;
            break;
          default:
            // The common case: a lower-case verb with no width, precision or index.
            if (c >= 'a' && c <= 'z' && argNum < a.length) {
              if (c === 'v') {
                f.sharpV = f.sharp;
                f.sharp = false;
                f.plusV = f.plus;
                f.plus = false;
              }
              this.printArg(a[argNum]!, c);
              argNum++;
              i++;
              continue formatLoop;
            }
            break simple;
        }
      }

      // argument index before the width
      [argNum, i, afterIndex] = this.argNumber(argNum, format, i, a.length);

      if (i < end && format[i] === '*') {
        i++;
        [f.wid, f.widPresent, argNum] = intFromArg(a, argNum);
        if (!f.widPresent) this.buf += '%!(BADWIDTH)';
        // A negative width from an operand means left-justify.
        if (f.wid < 0) {
          f.wid = -f.wid;
          f.minus = true;
          f.zero = false;
        }
        afterIndex = false;
      } else {
        [f.wid, f.widPresent, i] = parsenum(format, i, end);
        if (afterIndex && f.widPresent) this.goodArgNum = false; // "%[3]2d"
      }

      if (i + 1 < end && format[i] === '.') {
        i++;
        if (afterIndex) this.goodArgNum = false; // "%[3].2d"
        [argNum, i, afterIndex] = this.argNumber(argNum, format, i, a.length);
        if (i < end && format[i] === '*') {
          i++;
          [f.prec, f.precPresent, argNum] = intFromArg(a, argNum);
          // A negative precision from an operand means no precision.
          if (f.prec < 0) {
            f.prec = 0;
            f.precPresent = false;
          }
          if (!f.precPresent) this.buf += '%!(BADPREC)';
          afterIndex = false;
        } else {
          [f.prec, f.precPresent, i] = parsenum(format, i, end);
          if (!f.precPresent) {
            f.prec = 0;
            f.precPresent = true;
          }
        }
      }

      if (!afterIndex) [argNum, i, afterIndex] = this.argNumber(argNum, format, i, a.length);

      if (i >= end) {
        this.buf += '%!(NOVERB)';
        break;
      }

      let verb: string;
      const cp = format.codePointAt(i)!;
      if (cp >= 0xd800 && cp <= 0xdfff) {
        verb = '\ufffd'; // an invalid byte in the format decodes as RuneError
        i += 1;
      } else {
        verb = String.fromCodePoint(cp);
        i += verb.length;
      }

      if (verb === '%') {
        this.buf += '%'; // takes no operand and ignores width and precision
      } else if (!this.goodArgNum) {
        this.buf += '%!' + verb + '(BADINDEX)';
      } else if (argNum >= a.length) {
        this.buf += '%!' + verb + '(MISSING)';
      } else {
        if (verb === 'v') {
          f.sharpV = f.sharp;
          f.sharp = false;
          f.plusV = f.plus;
          f.plus = false;
        }
        this.printArg(a[argNum]!, verb);
        argNum++;
      }
    }

    if (!this.reordered && argNum < a.length) {
      this.clearFlags();
      this.buf += '%!(EXTRA ';
      a.slice(argNum).forEach((arg, k) => {
        if (k > 0) this.buf += ', ';
        if (arg === null || arg === undefined) this.buf += NIL_ANGLE;
        else {
          this.buf += goTypeName(arg) + '=';
          this.printArg(arg, 'v');
        }
      });
      this.buf += ')';
    }
  }

  argNumber(argNum: number, format: string, i: number, numArgs: number): [number, number, boolean] {
    if (format.length <= i || format[i] !== '[') return [argNum, i, false];
    this.reordered = true;
    const [index, wid, ok] = parseArgNumber(format.slice(i));
    if (ok && index >= 0 && index < numArgs) return [index, i + wid, true];
    this.goodArgNum = false;
    return [argNum, i + wid, ok];
  }
}

function tooLarge(x: number): boolean {
  return x > 1e6 || x < -1e6;
}

/** Parse a decimal number at s[start:end]: [value, found, next index]. */
function parsenum(s: string, start: number, end: number): [number, boolean, number] {
  if (start >= end) return [0, false, end];
  let num = 0;
  let isnum = false;
  let i = start;
  for (; i < end && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57; i++) {
    if (tooLarge(num)) return [0, false, end]; // an absurdly long number
    num = num * 10 + (s.charCodeAt(i) - 48);
    isnum = true;
  }
  return [num, isnum, i];
}

/** "[n]" at the start of format: [zero-based index, length consumed, ok]. */
function parseArgNumber(format: string): [number, number, boolean] {
  if (format.length < 3) return [0, 1, false];
  for (let i = 1; i < format.length; i++) {
    if (format[i] === ']') {
      const [width, ok, newi] = parsenum(format, 1, i);
      if (!ok || newi !== i) return [0, i + 1, false];
      return [width - 1, i + 1, true];
    }
  }
  return [0, 1, false];
}

/** A `*` width or precision: the operand must be an integer of any kind, within ±1e6. */
function intFromArg(a: GoValue[], argNum: number): [number, boolean, number] {
  let num = 0;
  let isInt = false;
  let newArgNum = argNum;
  if (argNum < a.length) {
    const v = a[argNum];
    let n: bigint | undefined;
    if (typeof v === 'bigint') n = v;
    else if (v instanceof GoNum && typeof v.v === 'bigint' && (isIntKind(v.type.kind) || isUintKind(v.type.kind))) {
      n = v.v;
      // a uint64 beyond int64 does not fit Go's int
      if (isUintKind(v.type.kind) && n > (1n << 63n) - 1n) n = undefined;
    }
    if (n !== undefined) {
      num = Number(BigInt.asIntN(64, n));
      isInt = true;
    }
    newArgNum = argNum + 1;
    if (tooLarge(num)) {
      num = 0;
      isInt = false;
    }
  }
  return [num, isInt, newArgNum];
}

/** Map keys in fmt's order with the value each key prints as; keys are held as strings. */
function mapKeys(m: GoMap, keyType: GoType | undefined): [GoValue, string][] {
  const keys = Object.keys(m);
  const k = keyType?.kind;
  if (k && (isIntKind(k) || isUintKind(k))) {
    const parsed = keys.map((raw): [bigint, string] => {
      try {
        return [BigInt(raw), raw];
      } catch {
        return [0n, raw];
      }
    });
    parsed.sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
    return parsed.map(([n, raw]) => [keyType === undefined || keyType.name === 'int' ? n : new GoNum(keyType, n), raw]);
  }
  if (k === 'float64' || k === 'float32') {
    const parsed = keys.map((raw): [number, string] => [Number(raw), raw]);
    parsed.sort((x, y) => x[0] - y[0]);
    return parsed.map(([n, raw]) => [k === 'float64' && keyType!.name === 'float64' ? n : new GoNum(keyType!, n), raw]);
  }
  if (k === 'bool') {
    // false sorts before true
    return keys.sort().map((raw) => [raw === 'true', raw]);
  }
  return keys.sort(compareKeys).map((raw) => [raw, raw]);
}

function zeroOf(t: GoType): GoValue {
  switch (t.kind) {
    case 'bool':
      return false;
    case 'string':
      return '';
    case 'int':
      return t.name === 'int' ? 0n : new GoNum(t, 0n);
    case 'float64':
      return t.name === 'float64' ? 0 : new GoNum(t, 0);
    case 'float32':
      return new GoNum(t, 0);
    case 'interface':
      return null;
  }
  if (isIntKind(t.kind) || isUintKind(t.kind)) return new GoNum(t, 0n);
  return new GoNil(t);
}
