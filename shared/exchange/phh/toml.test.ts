import { describe, expect, it } from 'vitest';
import { formatTomlNumber, formatTomlString, formatTomlValue, parseToml, tomlPathKey, type TomlParse } from './toml';

function ok(text: string) {
  const r = parseToml(text);
  if (!r.ok) throw new Error(`line ${r.line}: ${r.reason}`);
  return r;
}

function err(text: string): { line: number; reason: string } {
  const r: TomlParse = parseToml(text);
  if (r.ok) throw new Error('expected a failure');
  return { line: r.line, reason: r.reason };
}

describe('TOML strings', () => {
  it('reads basic strings with every escape', () => {
    const r = ok(String.raw`s = "a\"b\\c\n\t\b\f\r\u00e9\U0001F600\e"`);
    expect(r.value.s).toBe('a"b\\c\n\t\b\f\r\u00e9\u{1F600}\u001b');
  });

  it('reads literal strings without escapes', () => {
    expect(ok(String.raw`s = 'C:\path\n'`).value.s).toBe(String.raw`C:\path\n`);
  });

  it('reads a multi-line basic string, trimming the first newline and line-ending backslashes', () => {
    const text = 'event = """2019 World Series of Poker Event #58: $50,000 \\\nPoker Players Championship | Day 5"""\nx = 1\n';
    const r = ok(text);
    expect(r.value.event).toBe('2019 World Series of Poker Event #58: $50,000 Poker Players Championship | Day 5');
    expect(r.value.x).toBe(1);
    expect(ok('s = """\nab\n  c"""').value.s).toBe('ab\n  c');
    expect(ok('s = """a\\   \n\n   b"""').value.s).toBe('ab');
    expect(ok('s = """say ""hi"""""').value.s).toBe('say ""hi""');
  });

  it('reads multi-line literal strings verbatim', () => {
    expect(ok("s = '''\nfirst \\n\nsecond'''").value.s).toBe('first \\n\nsecond');
  });

  it('refuses bad escapes, surrogates and raw control characters', () => {
    expect(err('s = "a\\qb"').reason).toMatch(/invalid escape/);
    expect(err('s = "\\uD800"').reason).toMatch(/not a Unicode scalar/);
    expect(err('s = "\\u12"').reason).toMatch(/4 hexadecimal/);
    expect(err('s = "a\u0001b"').reason).toMatch(/control character/);
  });

  it('reports an unterminated string on its line', () => {
    expect(err('a = 1\nb = "open\nc = 2')).toEqual({ line: 2, reason: 'unterminated string (missing closing ")' });
    expect(err('a = 1\nb = """open\n\n').line).toBe(4);
  });
});

describe('TOML numbers and booleans', () => {
  it('reads integers in every base, with underscores and signs', () => {
    const r = ok('a = 42\nb = -17\nc = +3\nd = 1_000_000\ne = 0xdead_BEEF\nf = 0o755\ng = 0b1101\nh = 0');
    expect(r.value).toEqual({ a: 42, b: -17, c: 3, d: 1000000, e: 0xdeadbeef, f: 0o755, g: 13, h: 0 });
  });

  it('reads -0 as the integer 0 and -0.0 as the float -0', () => {
    const r = ok('a = -0\nb = -0.0');
    expect(Object.is(r.value.a, 0)).toBe(true);
    expect(Object.is(r.value.b, -0)).toBe(true);
  });

  it('reads floats, exponents, inf and nan', () => {
    const r = ok('a = 0.10\nb = -1.5e3\nc = 6.626e-34\nd = inf\ne = -inf\nf = +inf\ng = nan\nh = 1e2');
    expect(r.value.a).toBe(0.1);
    expect(r.value.b).toBe(-1500);
    expect(r.value.c).toBe(6.626e-34);
    expect(r.value.d).toBe(Infinity);
    expect(r.value.e).toBe(-Infinity);
    expect(r.value.f).toBe(Infinity);
    expect(Number.isNaN(r.value.g)).toBe(true);
    expect(r.value.h).toBe(100);
  });

  it('refuses leading zeros, bad underscores and integers past 2^53', () => {
    expect(err('a = 012').reason).toMatch(/invalid number/);
    expect(err('a = 1__0').reason).toMatch(/invalid number/);
    expect(err('a = 1.').reason).toMatch(/invalid number/);
    expect(err('x = 1\na = 9007199254740993').line).toBe(2);
    expect(err('a = 9007199254740993').reason).toMatch(/2\^53/);
  });

  it('reads booleans and refuses unquoted words', () => {
    expect(ok('t = true\nf = false').value).toEqual({ t: true, f: false });
    expect(err('v = NT').reason).toMatch(/strings must be quoted/);
  });

  it('reads dates and times as text', () => {
    const r = ok('t = 00:00:00\nd = 2009-07-01\nl = 2009-07-01T12:30:00.5\no = 1979-05-27 07:32:00-07:00');
    expect(r.value.t).toEqual({ type: 'datetime', form: 'local-time', text: '00:00:00' });
    expect(r.value.d).toEqual({ type: 'datetime', form: 'local-date', text: '2009-07-01' });
    expect(r.value.l).toEqual({ type: 'datetime', form: 'local-date-time', text: '2009-07-01T12:30:00.5' });
    expect(r.value.o).toEqual({ type: 'datetime', form: 'offset-date-time', text: '1979-05-27 07:32:00-07:00' });
    expect(err('t = 25:00:00').reason).toBe('invalid time of day');
    expect(err('d = 2023-02-29').reason).toBe('invalid date');
  });
});

describe('TOML arrays and tables', () => {
  it('reads multi-line arrays with comments, blank lines and a trailing comma', () => {
    const text = ['actions = [', '  # Pre-flop', '', '  "d dh p1 Ac2d",  # Ivey', "  'p3 f',", ']'].join('\n');
    const r = ok(text);
    expect(r.value.actions).toEqual(['d dh p1 Ac2d', 'p3 f']);
    expect(r.lines[tomlPathKey(['actions', 1])]).toBe(5);
  });

  it('reads nested and mixed arrays', () => {
    expect(ok('a = [[1, 2], ["x"], [], [[true]]]').value.a).toEqual([[1, 2], ['x'], [], [[true]]]);
  });

  it('reads tables [1], [2] in file order, with their lines', () => {
    const r = ok('[2]\nv = "b"\n\n[1]\nv = "a"\n');
    expect(r.value).toEqual({ 1: { v: 'a' }, 2: { v: 'b' } });
    expect(r.headers).toEqual([['2'], ['1']]);
    expect(r.lines[tomlPathKey(['1', 'v'])]).toBe(5);
  });

  it('reads dotted and quoted keys, inline tables and arrays of tables', () => {
    const r = ok('a.b = 1\n"x y".z = 2\nt = { p = 1, q.r = [2] }\n[[h]]\nn = 1\n[[h]]\nn = 2\n[s."k.k"]\nv = 3');
    expect(r.value).toEqual({ a: { b: 1 }, 'x y': { z: 2 }, t: { p: 1, q: { r: [2] } }, h: [{ n: 1 }, { n: 2 }], s: { 'k.k': { v: 3 } } });
  });

  it('keeps __proto__ an ordinary key', () => {
    const r = ok('__proto__ = 1\n["constructor"]\nx = 2');
    expect(Object.keys(r.value)).toEqual(['__proto__', 'constructor']);
    expect(Object.getPrototypeOf(r.value)).toBe(Object.prototype);
  });

  it('refuses duplicate keys and tables, naming the line', () => {
    expect(err('a = 1\nb = 2\na = 3')).toEqual({ line: 3, reason: "duplicate key 'a'" });
    expect(err('[1]\nx = 1\n[1]\ny = 2')).toEqual({ line: 3, reason: "table '1' is defined twice" });
    expect(err('a = 1\n[a]').reason).toMatch(/defined/);
    expect(err('a.b = 1\n[a.b]').reason).toMatch(/defined/);
    expect(err('t = { x = 1 }\nt.y = 2').reason).toMatch(/already defined/);
  });

  it('refuses a header on an inline table and two values on a line', () => {
    expect(err('t = {}\n[t.u]').reason).toMatch(/already defined/);
    expect(err('a = 1 b = 2')).toEqual({ line: 1, reason: "unexpected 'b' after a value (expected the end of the line)" });
  });

  it('refuses malformed syntax with the line of the fault', () => {
    expect(err('a = 1\nb 2').line).toBe(2);
    expect(err('a = 1\nb 2').reason).toMatch(/expected '='/);
    expect(err('a = [1, 2\nb = 3').reason).toMatch(/expected ',' or '\]'/);
    expect(err('a = [1,\n2,\n').reason).toMatch(/unterminated array/);
    expect(err('a = \n').reason).toBe('expected a value');
    expect(err('a = 1\r\nb = 2\rc = 3').line).toBe(2);
    expect(err('[x\n').reason).toMatch(/close the table header/);
    expect(err('t = { a = 1\n}').reason).toMatch(/same line/);
  });

  it('accepts CRLF line ends and a byte-order mark', () => {
    expect(ok('\ufeffa = 1\r\nb = "x"\r\n').value).toEqual({ a: 1, b: 'x' });
  });
});

describe('TOML robustness', () => {
  it('never throws on mangled input and reports a line inside the text', () => {
    const base = [
      'variant = "NT"',
      "antes = [0, 0]  # none",
      'event = """multi \\',
      '  line"""',
      "actions = ['d dh p1 ????', 'p1 cbr 1.5', { a = 1 }]",
      '[1]',
      'x = 0x1F',
      't = 00:00:00',
    ].join('\n');
    const alphabet = ['"', "'", '[', ']', '{', '}', '=', ',', '#', '\n', '\\', '.', ' ', 'a', '1', '\r', '_', ':', '-'];
    // A fixed-seed generator: the same mutations every run.
    let seed = 12345;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    let failures = 0;
    for (let i = 0; i < 3000; i++) {
      let text = base;
      for (let k = 0; k < 1 + rand(3); k++) {
        const at = rand(text.length + 1);
        const op = rand(3);
        if (op === 0) text = text.slice(0, at) + text.slice(at + 1);
        else if (op === 1) text = text.slice(0, at) + alphabet[rand(alphabet.length)] + text.slice(at);
        else text = text.slice(0, at) + alphabet[rand(alphabet.length)] + text.slice(at + 1);
      }
      const r = parseToml(text);
      if (!r.ok) {
        failures++;
        expect(r.line).toBeGreaterThanOrEqual(1);
        expect(r.line).toBeLessThanOrEqual(text.split('\n').length);
        expect(r.reason.length).toBeGreaterThan(0);
      }
    }
    // Most mutations break the text: the parser must have said so, not crashed.
    expect(failures).toBeGreaterThan(1000);
  });
});

describe('TOML writing', () => {
  it('writes strings that read back identically', () => {
    for (const s of ['', 'plain', 'quote " and \\ back', 'tab\tnew\nline\r', '\u0000\u001f\u007f', 'Hold’em é 🂡', "it's"]) {
      expect(ok(`s = ${formatTomlString(s)}`).value.s).toBe(s);
    }
  });

  it('writes numbers that read back to the same double', () => {
    const samples = [0, 1, -1, 0.1, 0.25, 1259450.25, 1e21, 2 ** 60, -(2 ** 60), 5e-324, 1.7976931348623157e308, 123456789.123, Infinity, -Infinity];
    let seed = 7;
    for (let i = 0; i < 200; i++) {
      seed = (seed * 16807) % 2147483647;
      samples.push((seed / 2147483647) * 10 ** ((seed % 40) - 20));
    }
    for (const n of samples) expect(ok(`n = ${formatTomlNumber(n)}`).value.n).toBe(n);
    expect(Object.is(ok(`n = ${formatTomlNumber(-0)}`).value.n, -0)).toBe(true);
    expect(Number.isNaN(ok(`n = ${formatTomlNumber(NaN)}`).value.n)).toBe(true);
  });

  it('writes nested values on one line that read back identically', () => {
    const value = { a: [1, 'two', [true, false]], 'odd key': { x: 0.5 }, t: { type: 'datetime', form: 'local-time', text: '12:00:00' } } as const;
    const r = ok(`v = ${formatTomlValue(value as never)}`);
    expect(r.value.v).toEqual(value);
  });
});
