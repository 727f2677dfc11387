// The TOML scanner: the character-level reading under the document parser (toml.ts): spaces,
// comments and line ends, and the values, strings with their escapes, numbers, dates and times
// (https://toml.io/en/v1.0.0). Split from toml.ts (files under 600 lines).

/** A TOML date, time or date-time, kept as its text (e.g. `00:00:00`, `2009-07-01T12:00:00Z`). */
export interface TomlDateTime {
  readonly type: 'datetime';
  /** Which of the four TOML date/time forms it is. */
  readonly form: 'local-time' | 'local-date' | 'local-date-time' | 'offset-date-time';
  readonly text: string;
}

export type TomlValue = string | number | boolean | TomlDateTime | TomlValue[] | TomlTable;

export interface TomlTable {
  [key: string]: TomlValue;
}

/** Internal: a parse failure carried up the recursive descent, turned into a TomlError at the top. */
export class Failure {
  constructor(
    readonly pos: number,
    readonly reason: string,
  ) {}
}

const DEC_INT = /^[+-]?(?:0|[1-9](?:_?[0-9])*)$/;
const HEX_INT = /^0x[0-9A-Fa-f](?:_?[0-9A-Fa-f])*$/;
const OCT_INT = /^0o[0-7](?:_?[0-7])*$/;
const BIN_INT = /^0b[01](?:_?[01])*$/;
const FLOAT = /^[+-]?(?:0|[1-9](?:_?[0-9])*)(?:\.[0-9](?:_?[0-9])*)?(?:[eE][+-]?[0-9](?:_?[0-9])*)?$/;
const SPECIAL_FLOAT = /^[+-]?(?:inf|nan)$/;
const LOCAL_TIME = /^([0-9]{2}):([0-9]{2}):([0-9]{2})(\.[0-9]+)?$/;
const LOCAL_DATE = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/;
const DATE_TIME =
  /^([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt ]([0-9]{2}):([0-9]{2}):([0-9]{2})(\.[0-9]+)?([Zz]|[+-][0-9]{2}:[0-9]{2})?$/;

/** The position, the line and the leaf readers; the parser (toml.ts) adds keys, tables and arrays. */
export abstract class Scanner {
  protected pos = 0;
  protected line = 1;

  constructor(protected readonly text: string) {}

  protected fail(reason: string, pos = this.pos): never {
    throw new Failure(pos, reason);
  }

  protected peek(offset = 0): string {
    return this.text.charAt(this.pos + offset);
  }

  protected skipSpaces(): void {
    for (;;) {
      const c = this.peek();
      if (c === ' ' || c === '\t') this.pos++;
      else return;
    }
  }

  protected comment(): void {
    // A comment runs to the end of the line; control characters other than tab are not allowed.
    this.pos++;
    for (;;) {
      const code = this.text.charCodeAt(this.pos);
      if (Number.isNaN(code) || code === 10) return;
      if (code === 13 && this.text.charCodeAt(this.pos + 1) === 10) return;
      if ((code < 32 && code !== 9) || code === 127) this.fail('control character in a comment');
      this.pos++;
    }
  }

  protected newline(): boolean {
    if (this.peek() === '\n') {
      this.pos++;
      this.line++;
      return true;
    }
    if (this.peek() === '\r') {
      if (this.peek(1) !== '\n') this.fail('a carriage return must be followed by a line feed');
      this.pos += 2;
      this.line++;
      return true;
    }
    return false;
  }

  protected endOfLine(): void {
    this.skipSpaces();
    if (this.peek() === '#') this.comment();
    if (this.pos >= this.text.length) return;
    if (!this.newline()) this.fail(`unexpected '${this.peek()}' after a value (expected the end of the line)`);
  }

  /** Skips spaces, newlines and comments inside arrays. */
  protected skipBlank(): void {
    for (;;) {
      this.skipSpaces();
      if (this.peek() === '#') this.comment();
      else if (!this.newline()) return;
    }
  }

  // ---- keys ----

  protected scalar(): TomlValue {
    const start = this.pos;
    while (this.pos < this.text.length && /[0-9A-Za-z_+\-.:]/.test(this.peek())) this.pos++;
    // A date and a time may be separated by one space (RFC 3339 as TOML allows).
    if (
      LOCAL_DATE.test(this.text.slice(start, this.pos)) &&
      this.peek() === ' ' &&
      /^[0-9]{2}:/.test(this.text.slice(this.pos + 1, this.pos + 4))
    ) {
      this.pos++;
      while (this.pos < this.text.length && /[0-9A-Za-z_+\-.:]/.test(this.peek())) this.pos++;
    }
    const token = this.text.slice(start, this.pos);
    if (token === '') this.fail(`unexpected '${this.peek()}' where a value was expected`);
    if (token === 'true') return true;
    if (token === 'false') return false;
    if (SPECIAL_FLOAT.test(token)) {
      if (token.endsWith('nan')) return Number.NaN;
      return token.startsWith('-') ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
    }
    if (DEC_INT.test(token)) return this.integer(token, 10, token.replace(/_/g, ''), start);
    if (HEX_INT.test(token)) return this.integer(token, 16, token.slice(2).replace(/_/g, ''), start);
    if (OCT_INT.test(token)) return this.integer(token, 8, token.slice(2).replace(/_/g, ''), start);
    if (BIN_INT.test(token)) return this.integer(token, 2, token.slice(2).replace(/_/g, ''), start);
    if (FLOAT.test(token)) return Number(token.replace(/_/g, ''));
    const dateTime = this.dateTime(token, start);
    if (dateTime) return dateTime;
    if (/^[+-]?[0-9]/.test(token)) this.fail(`invalid number '${token}'`, start);
    if (/^[A-Za-z]/.test(token)) {
      this.fail(`invalid value '${token}' (strings must be quoted)`, start);
    }
    this.fail(`invalid value '${token}'`, start);
  }

  protected integer(token: string, radix: number, digits: string, start: number): number {
    // `-0` and `+0` are the integer 0 (TOML: "identical to an unprefixed zero").
    const value = (radix === 10 ? Number(digits) : parseInt(digits, radix)) || 0;
    if (!Number.isSafeInteger(value)) {
      this.fail(`integer '${token}' is beyond ±2^53 and cannot be read exactly`, start);
    }
    return value;
  }

  protected dateTime(token: string, start: number): TomlDateTime | null {
    let m = LOCAL_TIME.exec(token);
    if (m) {
      this.checkTime(+m[1], +m[2], +m[3], start);
      return { type: 'datetime', form: 'local-time', text: token };
    }
    m = LOCAL_DATE.exec(token);
    if (m) {
      this.checkDate(+m[1], +m[2], +m[3], start);
      return { type: 'datetime', form: 'local-date', text: token };
    }
    m = DATE_TIME.exec(token);
    if (m) {
      this.checkDate(+m[1], +m[2], +m[3], start);
      this.checkTime(+m[4], +m[5], +m[6], start);
      const offset = m[8];
      if (offset && offset.length > 1) this.checkTime(+offset.slice(1, 3), +offset.slice(4, 6), 0, start);
      return { type: 'datetime', form: offset ? 'offset-date-time' : 'local-date-time', text: token };
    }
    return null;
  }

  protected checkTime(h: number, m: number, s: number, start: number): void {
    // Seconds may be 60 for a leap second (RFC 3339).
    if (h > 23 || m > 59 || s > 60) this.fail('invalid time of day', start);
  }

  protected checkDate(y: number, mo: number, d: number, start: number): void {
    const days = [31, y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    if (mo < 1 || mo > 12 || d < 1 || d > days[mo - 1]) this.fail('invalid date', start);
  }

  // ---- strings ----

  protected basicString(): string {
    this.pos++;
    let out = '';
    for (;;) {
      const c = this.peek();
      if (c === '' || c === '\n' || c === '\r') this.fail('unterminated string (missing closing ")');
      if (c === '"') {
        this.pos++;
        return out;
      }
      if (c === '\\') {
        out += this.escape();
        continue;
      }
      this.checkControl();
      out += c;
      this.pos++;
    }
  }

  protected multilineBasicString(): string {
    this.pos += 3;
    // A newline right after the opening delimiter is trimmed.
    this.newline();
    let out = '';
    for (;;) {
      if (this.pos >= this.text.length) this.fail('unterminated multi-line string (missing closing """)');
      if (this.text.startsWith('"""', this.pos)) {
        // Up to two quotes may sit right before the closing delimiter.
        let extra = 0;
        while (extra < 2 && this.peek(3 + extra) === '"') extra++;
        out += '"'.repeat(extra);
        this.pos += 3 + extra;
        return out;
      }
      const c = this.peek();
      if (c === '\\') {
        // A line-ending backslash trims the newline and the whitespace that follows.
        let look = this.pos + 1;
        while (this.text[look] === ' ' || this.text[look] === '\t') look++;
        if (this.text[look] === '\n' || (this.text[look] === '\r' && this.text[look + 1] === '\n')) {
          this.pos = look;
          for (;;) {
            if (this.newline()) continue;
            const w = this.peek();
            if (w === ' ' || w === '\t') this.pos++;
            else break;
          }
          continue;
        }
        out += this.escape();
        continue;
      }
      if (c === '\n' || c === '\r') {
        this.newline();
        out += '\n';
        continue;
      }
      this.checkControl();
      out += c;
      this.pos++;
    }
  }

  protected literalString(): string {
    const start = ++this.pos;
    for (;;) {
      const c = this.peek();
      if (c === '' || c === '\n' || c === '\r') this.fail("unterminated string (missing closing ')");
      if (c === "'") {
        const out = this.text.slice(start, this.pos);
        this.pos++;
        return out;
      }
      this.checkControl();
      this.pos++;
    }
  }

  protected multilineLiteralString(): string {
    this.pos += 3;
    this.newline();
    let out = '';
    for (;;) {
      if (this.pos >= this.text.length) this.fail("unterminated multi-line string (missing closing ''')");
      if (this.text.startsWith("'''", this.pos)) {
        let extra = 0;
        while (extra < 2 && this.peek(3 + extra) === "'") extra++;
        out += "'".repeat(extra);
        this.pos += 3 + extra;
        return out;
      }
      const c = this.peek();
      if (c === '\n' || c === '\r') {
        this.newline();
        out += '\n';
        continue;
      }
      this.checkControl();
      out += c;
      this.pos++;
    }
  }

  protected checkControl(): void {
    const code = this.text.charCodeAt(this.pos);
    if ((code < 32 && code !== 9) || code === 127) {
      this.fail(`control character U+${code.toString(16).toUpperCase().padStart(4, '0')} must be escaped in a string`);
    }
  }

  protected escape(): string {
    const start = this.pos;
    const c = this.peek(1);
    this.pos += 2;
    switch (c) {
      case 'b':
        return '\b';
      case 't':
        return '\t';
      case 'n':
        return '\n';
      case 'f':
        return '\f';
      case 'r':
        return '\r';
      case 'e':
        return '\u001b';
      case '"':
        return '"';
      case '\\':
        return '\\';
      case 'u':
      case 'U': {
        const length = c === 'u' ? 4 : 8;
        const hex = this.text.slice(this.pos, this.pos + length);
        if (!new RegExp(`^[0-9A-Fa-f]{${length}}$`).test(hex)) {
          this.fail(`\\${c} needs ${length} hexadecimal digits`, start);
        }
        const code = parseInt(hex, 16);
        // Only Unicode scalar values: no surrogates, nothing past U+10FFFF.
        if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
          this.fail(`\\${c}${hex} is not a Unicode scalar value`, start);
        }
        this.pos += length;
        return String.fromCodePoint(code);
      }
      default:
        this.fail(c === '' ? 'unterminated escape' : `invalid escape '\\${c}'`, start);
    }
  }
}
