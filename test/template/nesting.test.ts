// The nesting guess that sends deep inputs straight to the big stack (src/guard/nesting.ts): it
// follows the parser's recursion closely enough that shallow texts stay on the default stack and deep
// ones are not tried there first.

import { describe, expect, it } from 'vitest';
import { jsonNesting, nestingEstimate } from '../../src/guard/nesting.js';
import { FORECAST_DEPTH, clearStackExhausted, forecastDeep, stackExhausted, stackForecast } from '../../src/guard/stack.js';

describe('nestingEstimate', () => {
  it('counts blocks until their end, parentheses inside an action', () => {
    expect(nestingEstimate('plain text')).toBe(0);
    expect(nestingEstimate('{{if .a}}{{with .b}}x{{end}}{{end}}')).toBe(2);
    expect(nestingEstimate('{{if .a}}{{end}}{{if .b}}{{end}}{{range .c}}{{end}}')).toBe(1);
    expect(nestingEstimate('{{- if .a -}}{{- define "x" }}{{ end -}}{{ end }}')).toBe(2);
    expect(nestingEstimate('{{print (len (list 1))}}')).toBe(2);
    expect(nestingEstimate('{{if 1}}{{print ((1))}}{{end}}')).toBe(3);
  });

  it('counts an else-if chain as nested ifs closed by one end', () => {
    expect(nestingEstimate('{{if 0}}' + '{{else if 0}}'.repeat(5) + '{{else}}z{{end}}{{if 1}}{{end}}')).toBe(6);
    expect(nestingEstimate('{{with 0}}{{else with 1}}{{else}}{{end}}{{if 1}}{{end}}')).toBe(2);
  });

  it('takes other delimiters', () => {
    expect(nestingEstimate('<<if 1>><<if 2>><<end>><<end>>{{if 1}}', '<<', '>>')).toBe(2);
  });

  it('grows with the nesting of the deep cases', () => {
    const n = 50_000;
    expect(nestingEstimate('{{if 1}}'.repeat(n) + 'x' + '{{end}}'.repeat(n))).toBe(n);
    expect(nestingEstimate('{{' + '('.repeat(n) + '1' + ')'.repeat(n) + '}}')).toBe(n);
  });
});

describe('jsonNesting', () => {
  it('counts brackets outside strings', () => {
    expect(jsonNesting('{"a":[1,{"b":"[[[{{"}],2]}')).toBe(3);
    expect(jsonNesting('"\\"[[" ')).toBe(0);
    expect(jsonNesting('[[[]]]')).toBe(3);
  });
});

describe('forecastDeep', () => {
  it('notes the stack as exhausted past the forecast depth only', () => {
    clearStackExhausted();
    expect(forecastDeep(FORECAST_DEPTH)).toBe(false);
    expect(stackExhausted()).toBe(false);
    expect(forecastDeep(FORECAST_DEPTH + 1)).toBe(true);
    expect([stackExhausted(), stackForecast()]).toEqual([true, true]);
    clearStackExhausted();
    expect([stackExhausted(), stackForecast()]).toEqual([false, false]);
  });
});
