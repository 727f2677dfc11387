// A TOML reader and value writer, enough for PHH files (https://toml.io/en/v1.0.0).
//
// PHH is TOML with a fixed set of keys (phh.readthedocs.io, "Specification"); a .phhs file holds
// several hands as tables `[1]`, `[2]`... This reader covers TOML 1.0: comments; bare, quoted and
// dotted keys; basic and literal strings, single- and multi-line, with escapes; integers (decimal,
// hex, octal, binary, with `_`); floats incl. `inf`/`nan`; booleans; dates and times (kept as text,
// PHH only uses a local time); arrays, multi-line and nested; inline tables; `[table]` and
// `[[array of tables]]` headers.
//
// Bad input never throws: the result is `{ ok: false, line, reason }` with the 1-based line.
// Integers beyond ±2^53 are refused rather than silently rounded (PHH amounts and hand numbers fit).
//
// Why our own reader and not a package (smol-toml was considered): an import
// error names the line of the key or array element at fault, not only of a syntax error (a refused
// action is named by its line in `actions`), so the reader keeps where every key and array item
// starts (`TomlDocument.lines`). Packages return plain values and place only syntax errors (smol-toml's
// TomlError has a line and column), so this position keeping would stay beside one. The scanner
// (toml-scan.ts) and the document parser (here) are split to stay under 600 lines.

import { Failure, Scanner, type TomlDateTime, type TomlTable, type TomlValue } from './toml-scan';

// The values are declared with the scanner that makes them (one direction of import between the two).
export type { TomlDateTime, TomlTable, TomlValue };

export interface TomlDocument {
  readonly ok: true;
  readonly value: TomlTable;
  /** Paths of the `[table]` and `[[table]]` headers in the order they appear in the text. */
  readonly headers: readonly (readonly string[])[];
  /** 1-based line of every key and array element, by path (see `tomlPathKey`). */
  readonly lines: Readonly<Record<string, number>>;
}

export interface TomlError {
  readonly ok: false;
  readonly line: number;
  readonly reason: string;
}

export type TomlParse = TomlDocument | TomlError;

/** The key of a path in `TomlDocument.lines`: `['actions', '3']` is the 4th action's line. */
export function tomlPathKey(path: readonly (string | number)[]): string {
  return path.map(String).join('\u001f');
}

export function isTomlDateTime(value: unknown): value is TomlDateTime {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    (value as { type?: unknown }).type === 'datetime' &&
    typeof (value as { text?: unknown }).text === 'string' &&
    Object.keys(value).length === 3
  );
}

export function isTomlTable(value: unknown): value is TomlTable {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !isTomlDateTime(value);
}

const BARE_KEY = /[A-Za-z0-9_-]/;


/** Tables created by a header or by dotted keys may not be redefined; inline tables are sealed. */
interface TableMeta {
  explicit: boolean;
  sealed: boolean;
  /** Created as an intermediate of a dotted key (`a.b = 1` makes `a`): may not get a header later. */
  dotted: boolean;
}

export function parseToml(text: string): TomlParse {
  const parser = new Parser(text);
  try {
    return parser.document();
  } catch (error) {
    if (error instanceof Failure) {
      return { ok: false, line: lineAt(text, error.pos), reason: error.reason };
    }
    throw error;
  }
}

function lineAt(text: string, pos: number): number {
  let line = 1;
  const end = Math.min(pos, text.length);
  for (let i = 0; i < end; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

function setOwn(table: TomlTable, key: string, value: TomlValue): void {
  // `__proto__` and friends become ordinary own properties, never the prototype.
  Object.defineProperty(table, key, { value, enumerable: true, writable: true, configurable: true });
}

function hasOwn(table: TomlTable, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(table, key);
}

class Parser extends Scanner {
  private readonly meta = new WeakMap<object, TableMeta>();
  /** Arrays made by `[[header]]`: only those may be appended to by a header. */
  private readonly tableArrays = new WeakSet<TomlValue[]>();
  private readonly lines: Record<string, number> = {};
  private readonly headers: string[][] = [];


  document(): TomlDocument {
    const root: TomlTable = {};
    this.meta.set(root, { explicit: true, sealed: false, dotted: false });
    let current = root;
    let currentPath: string[] = [];
    if (this.text.charCodeAt(0) === 0xfeff) this.pos = 1;
    while (this.pos < this.text.length) {
      this.skipSpaces();
      const c = this.peek();
      if (c === '' ) break;
      if (c === '#') {
        this.comment();
      } else if (c === '\n' || c === '\r') {
        // blank line
      } else if (c === '[') {
        const header = this.header(root);
        current = header.table;
        currentPath = header.path;
      } else {
        this.keyValue(current, currentPath);
      }
      this.endOfLine();
    }
    return { ok: true, value: root, headers: this.headers, lines: this.lines };
  }

  private simpleKey(): string {
    const c = this.peek();
    if (c === '"') {
      if (this.text.startsWith('"""', this.pos)) this.fail('a key cannot be a multi-line string');
      return this.basicString();
    }
    if (c === "'") {
      if (this.text.startsWith("'''", this.pos)) this.fail('a key cannot be a multi-line string');
      return this.literalString();
    }
    const start = this.pos;
    while (this.pos < this.text.length && BARE_KEY.test(this.peek())) this.pos++;
    if (this.pos === start) {
      this.fail(c === '' || c === '\n' || c === '\r' ? 'expected a key' : `unexpected '${c}' where a key was expected`);
    }
    return this.text.slice(start, this.pos);
  }

  private key(): string[] {
    const parts = [this.simpleKey()];
    for (;;) {
      this.skipSpaces();
      if (this.peek() !== '.') return parts;
      this.pos++;
      this.skipSpaces();
      parts.push(this.simpleKey());
    }
  }

  // ---- tables ----

  private newTable(meta: TableMeta): TomlTable {
    const table: TomlTable = {};
    this.meta.set(table, meta);
    return table;
  }

  private header(root: TomlTable): { table: TomlTable; path: string[] } {
    const start = this.pos;
    const isArray = this.peek(1) === '[';
    this.pos += isArray ? 2 : 1;
    this.skipSpaces();
    const path = this.key();
    this.skipSpaces();
    if (isArray ? !this.text.startsWith(']]', this.pos) : this.peek() !== ']') {
      this.fail(`expected '${isArray ? ']]' : ']'}' to close the table header`);
    }
    this.pos += isArray ? 2 : 1;
    this.headers.push(path);
    this.lines[tomlPathKey(path)] ??= this.line;

    // Walk to the parent, creating implicit tables; arrays of tables resolve to their last element.
    let table = root;
    for (let i = 0; i < path.length - 1; i++) {
      const k = path[i];
      if (!hasOwn(table, k)) {
        const child = this.newTable({ explicit: false, sealed: false, dotted: false });
        setOwn(table, k, child);
        table = child;
        continue;
      }
      const existing = table[k];
      if (Array.isArray(existing) && this.tableArrays.has(existing)) {
        table = existing[existing.length - 1] as TomlTable;
      } else if (isTomlTable(existing) && !this.meta.get(existing)?.sealed) {
        table = existing;
      } else {
        this.fail(`'${path.slice(0, i + 1).join('.')}' is already defined as a value, not a table`, start);
      }
    }
    const last = path[path.length - 1];
    if (isArray) {
      let list: TomlValue[];
      if (!hasOwn(table, last)) {
        list = [];
        this.tableArrays.add(list);
        setOwn(table, last, list);
      } else {
        const existing = table[last];
        if (!Array.isArray(existing) || !this.tableArrays.has(existing)) {
          this.fail(`'${path.join('.')}' is already defined and is not an array of tables`, start);
        }
        list = existing;
      }
      const element = this.newTable({ explicit: true, sealed: false, dotted: false });
      list.push(element);
      return { table: element, path };
    }
    if (hasOwn(table, last)) {
      const existing = table[last];
      const meta = isTomlTable(existing) ? this.meta.get(existing) : undefined;
      if (!meta || meta.explicit || meta.sealed || meta.dotted) {
        this.fail(`table '${path.join('.')}' is defined twice`, start);
      }
      meta.explicit = true;
      return { table: existing as TomlTable, path };
    }
    const created = this.newTable({ explicit: true, sealed: false, dotted: false });
    setOwn(table, last, created);
    return { table: created, path };
  }

  private keyValue(table: TomlTable, tablePath: string[]): void {
    const start = this.pos;
    const line = this.line;
    const path = this.key();
    this.skipSpaces();
    if (this.peek() !== '=') this.fail(`expected '=' after the key '${path.join('.')}'`);
    this.pos++;
    this.skipSpaces();
    const fullPath = [...tablePath, ...path];
    const value = this.value(fullPath);
    this.assign(table, path, value, start);
    this.lines[tomlPathKey(fullPath)] = line;
  }

  private assign(table: TomlTable, path: string[], value: TomlValue, start: number): void {
    let target = table;
    for (let i = 0; i < path.length - 1; i++) {
      const k = path[i];
      if (!hasOwn(target, k)) {
        const child = this.newTable({ explicit: false, sealed: false, dotted: true });
        setOwn(target, k, child);
        target = child;
        continue;
      }
      const existing = target[k];
      const meta = isTomlTable(existing) ? this.meta.get(existing) : undefined;
      // Dotted keys may extend only tables they created themselves in this same table body.
      if (!meta || meta.sealed || !meta.dotted) {
        this.fail(`'${path.slice(0, i + 1).join('.')}' is already defined`, start);
      }
      target = existing as TomlTable;
    }
    const last = path[path.length - 1];
    if (hasOwn(target, last)) this.fail(`duplicate key '${path.join('.')}'`, start);
    setOwn(target, last, value);
  }

  // ---- values ----

  private value(path: string[]): TomlValue {
    const c = this.peek();
    if (c === '"') {
      return this.text.startsWith('"""', this.pos) ? this.multilineBasicString() : this.basicString();
    }
    if (c === "'") {
      return this.text.startsWith("'''", this.pos) ? this.multilineLiteralString() : this.literalString();
    }
    if (c === '[') return this.array(path);
    if (c === '{') return this.inlineTable(path);
    if (c === '' || c === '\n' || c === '\r' || c === '#') this.fail('expected a value');
    return this.scalar();
  }

  private array(path: string[]): TomlValue[] {
    this.pos++;
    const items: TomlValue[] = [];
    for (;;) {
      this.skipBlank();
      if (this.peek() === ']') {
        this.pos++;
        return items;
      }
      if (this.pos >= this.text.length) this.fail("unterminated array (missing ']')");
      const itemPath = [...path, String(items.length)];
      this.lines[tomlPathKey(itemPath)] = this.line;
      items.push(this.value(itemPath));
      this.skipBlank();
      if (this.peek() === ',') {
        this.pos++;
      } else if (this.peek() !== ']') {
        if (this.pos >= this.text.length) this.fail("unterminated array (missing ']')");
        this.fail(`expected ',' or ']' in an array, found '${this.peek()}'`);
      }
    }
  }

  private inlineTable(path: string[]): TomlTable {
    this.pos++;
    const table = this.newTable({ explicit: true, sealed: false, dotted: false });
    this.skipSpaces();
    if (this.peek() === '}') {
      this.pos++;
      this.meta.get(table)!.sealed = true;
      return table;
    }
    for (;;) {
      this.skipSpaces();
      const start = this.pos;
      const line = this.line;
      const key = this.key();
      this.skipSpaces();
      if (this.peek() !== '=') this.fail(`expected '=' after the key '${key.join('.')}'`);
      this.pos++;
      this.skipSpaces();
      const fullPath = [...path, ...key];
      const value = this.value(fullPath);
      this.assign(table, key, value, start);
      this.lines[tomlPathKey(fullPath)] = line;
      this.skipSpaces();
      if (this.peek() === ',') {
        this.pos++;
        continue;
      }
      if (this.peek() === '}') {
        this.pos++;
        this.seal(table);
        return table;
      }
      this.fail(
        this.peek() === '\n' || this.peek() === '\r' || this.peek() === ''
          ? "an inline table must close with '}' on the same line"
          : `expected ',' or '}' in an inline table, found '${this.peek()}'`,
      );
    }
  }

  private seal(table: TomlTable): void {
    const meta = this.meta.get(table);
    if (meta) meta.sealed = true;
    for (const v of Object.values(table)) if (isTomlTable(v)) this.seal(v);
  }

}


// ---- writing ----

/** A key as TOML writes it: bare when it can be, else a quoted basic string. */
export function formatTomlKey(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : formatTomlString(key);
}

/** A basic (double-quoted) TOML string, escaping what must be. */
export function formatTomlString(value: string): string {
  let out = '"';
  for (const ch of value) {
    const code = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\b') out += '\\b';
    else if (ch === '\f') out += '\\f';
    else if (code < 32 || code === 127) out += `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
    else out += ch;
  }
  return out + '"';
}

/** A number as TOML reads it back to the same JavaScript number. */
export function formatTomlNumber(value: number): string {
  if (Number.isNaN(value)) return 'nan';
  if (value === Number.POSITIVE_INFINITY) return 'inf';
  if (value === Number.NEGATIVE_INFINITY) return '-inf';
  if (Object.is(value, -0)) return '-0.0';
  // Integers past 2^53 are written as floats: this reader refuses such integers.
  if (Number.isInteger(value) && !Number.isSafeInteger(value)) return value.toExponential();
  // String() gives the shortest text that reads back to the same double; TOML needs a digit
  // before the exponent's sign, which JavaScript always writes ('1e+21').
  return String(value);
}

/** A TOML value on one line (arrays and inline tables included). */
export function formatTomlValue(value: TomlValue): string {
  if (typeof value === 'string') return formatTomlString(value);
  if (typeof value === 'number') return formatTomlNumber(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (Array.isArray(value)) return `[${value.map(formatTomlValue).join(', ')}]`;
  if (isTomlDateTime(value)) return value.text;
  const entries = Object.keys(value).map((k) => `${formatTomlKey(k)} = ${formatTomlValue(value[k])}`);
  return entries.length === 0 ? '{}' : `{ ${entries.join(', ')} }`;
}
