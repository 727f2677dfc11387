/**
 * A small strict XML reader and writer for the POJEU exchange format (docs/exchange.md). Pure: no
 * Node modules, no DOM. The reader takes elements, attributes, text, the five predefined entities,
 * character references, CDATA sections, comments and the XML declaration; it refuses a DTD, mixed
 * content, mismatched tags, anything after the root. It never throws: a malformed document is
 * `{ ok: false, line, message }` with the 1-based line of the problem.
 */

export interface XmlNode {
  readonly name: string;
  readonly attrs: Readonly<Record<string, string>>;
  readonly children: readonly XmlNode[];
  /** Text of a leaf element ('' when it has children). */
  readonly text: string;
  /** 1-based line of the start tag. */
  readonly line: number;
}

export type XmlParse = { readonly ok: true; readonly root: XmlNode } | { readonly ok: false; readonly line: number; readonly message: string };

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
// eslint-disable-next-line no-control-regex -- the characters XML 1.0 forbids are the point
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;

class Stop {
  constructor(
    readonly at: number,
    readonly message: string,
  ) {}
}

/** Reads a document (its root element). */
export function parseXml(input: string): XmlParse {
  const src = input.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  // Line starts, for offset → line.
  const starts: number[] = [0];
  for (let k = 0; k < src.length; k++) if (src.charCodeAt(k) === 10) starts.push(k + 1);
  const lineAt = (offset: number): number => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  let i = 0;
  const fail = (message: string, at = i): never => {
    throw new Stop(at, message);
  };
  const decode = (s: string, at: number): string =>
    s.replace(/&(#x[0-9A-Fa-f]+|#[0-9]+|[A-Za-z]+);|&/g, (all, ref: string | undefined) => {
      if (ref === undefined) return fail('a bare "&" (write &amp;)', at);
      if (ref.startsWith('#')) {
        const code = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
        if (!(code >= 1 && code <= 0x10ffff)) return fail(`bad character reference ${all}`, at);
        return String.fromCodePoint(code);
      }
      const v = ENTITIES[ref];
      return v ?? fail(`unknown entity ${all}`, at);
    });
  const ws = (): number => {
    const start = i;
    while (i < src.length && (src[i] === ' ' || src[i] === '\n' || src[i] === '\t')) i++;
    return i - start;
  };
  const skipMisc = (): void => {
    for (;;) {
      ws();
      if (src.startsWith('<?', i)) {
        const end = src.indexOf('?>', i);
        if (end < 0) fail('unterminated processing instruction');
        i = end + 2;
      } else if (src.startsWith('<!--', i)) {
        const end = src.indexOf('-->', i);
        if (end < 0) fail('unterminated comment');
        i = end + 3;
      } else if (src.startsWith('<!', i)) {
        fail('a DTD or declaration is not accepted');
      } else return;
    }
  };
  const NAME = /[A-Za-z_][A-Za-z0-9_.:-]*/y;
  const name = (): string => {
    NAME.lastIndex = i;
    const m = NAME.exec(src);
    if (!m) return fail('expected a name');
    i += m[0].length;
    return m[0];
  };
  const element = (depth: number): XmlNode => {
    if (depth > 64) fail('elements nested too deep');
    const at = i;
    if (src[i] !== '<') fail('expected "<"');
    i++;
    const tag = name();
    const attrs: Record<string, string> = {};
    for (;;) {
      const spaced = ws();
      if (src.startsWith('/>', i)) {
        i += 2;
        return { name: tag, attrs, children: [], text: '', line: lineAt(at) };
      }
      if (src[i] === '>') {
        i++;
        break;
      }
      if (i >= src.length) fail(`unclosed start tag <${tag}>`, at);
      if (spaced === 0) fail('expected whitespace before an attribute');
      const key = name();
      if (Object.prototype.hasOwnProperty.call(attrs, key)) fail(`duplicate attribute ${key}`);
      ws();
      if (src[i] !== '=') fail(`expected "=" after attribute ${key}`);
      i++;
      ws();
      const q = src[i];
      if (q !== '"' && q !== "'") fail(`the value of attribute ${key} must be quoted`);
      const end = src.indexOf(q, i + 1);
      if (end < 0) fail(`unterminated value of attribute ${key}`);
      const raw = src.slice(i + 1, end);
      if (raw.includes('<')) fail(`"<" in the value of attribute ${key}`);
      Object.defineProperty(attrs, key, { value: decode(raw.replace(/[\t\n]/g, ' '), i), enumerable: true, writable: true, configurable: true });
      i = end + 1;
    }
    const children: XmlNode[] = [];
    let text = '';
    for (;;) {
      if (i >= src.length) fail(`<${tag}> is never closed`, at);
      if (src.startsWith('</', i)) {
        i += 2;
        const close = name();
        if (close !== tag) fail(`</${close}> closes <${tag}> (line ${lineAt(at)})`);
        ws();
        if (src[i] !== '>') fail('expected ">"');
        i++;
        break;
      }
      if (src.startsWith('<!--', i)) {
        const end = src.indexOf('-->', i);
        if (end < 0) fail('unterminated comment');
        i = end + 3;
      } else if (src.startsWith('<![CDATA[', i)) {
        const end = src.indexOf(']]>', i);
        if (end < 0) fail('unterminated CDATA section');
        text += src.slice(i + 9, end);
        i = end + 3;
      } else if (src[i] === '<') {
        children.push(element(depth + 1));
      } else {
        const end = src.indexOf('<', i);
        const raw = src.slice(i, end < 0 ? src.length : end);
        text += decode(raw, i);
        i += raw.length;
      }
    }
    if (children.length > 0) {
      if (text.trim() !== '') fail(`<${tag}> mixes text and elements`, at);
      text = '';
    }
    return { name: tag, attrs, children, text, line: lineAt(at) };
  };
  try {
    const bad = FORBIDDEN.exec(src);
    if (bad) fail(`character U+${bad[0].charCodeAt(0).toString(16).padStart(4, '0')} is not allowed in XML`, bad.index);
    skipMisc();
    if (i >= src.length) fail('the document is empty');
    const root = element(0);
    skipMisc();
    if (i < src.length) fail('content after the root element');
    return { ok: true, root };
  } catch (e) {
    if (e instanceof Stop) return { ok: false, line: lineAt(Math.min(e.at, src.length)), message: e.message };
    throw e;
  }
}

/** Element text escaped. */
export function escapeText(s: string): string {
  return s.replace(/[&<>\r]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&#13;'));
}

/** Attribute value escaped (double-quoted). */
export function escapeAttr(s: string): string {
  return s.replace(/[&<>"\t\n\r]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\t': '&#9;', '\n': '&#10;', '\r': '&#13;' })[c]!);
}

/** A tree to write. */
export interface XmlOut {
  name: string;
  attrs?: [string, string][];
  children?: XmlOut[];
  text?: string;
}

export function leaf(name: string, text: string | number, attrs?: [string, string][]): XmlOut {
  return { name, text: String(text), ...(attrs ? { attrs } : {}) };
}

export function node(name: string, children: (XmlOut | undefined)[], attrs?: [string, string][]): XmlOut {
  return { name, children: children.filter((c): c is XmlOut => c !== undefined), ...(attrs ? { attrs } : {}) };
}

/** Writes a tree, two spaces per level like the examples of A 1.4.3. */
export function writeXml(el: XmlOut, depth = 0): string {
  const pad = '  '.repeat(depth);
  const attrs = (el.attrs ?? []).map(([k, v]) => ` ${k}="${escapeAttr(v)}"`).join('');
  const kids = el.children ?? [];
  if (kids.length === 0) return `${pad}<${el.name}${attrs}>${escapeText(el.text ?? '')}</${el.name}>`;
  return `${pad}<${el.name}${attrs}>\n${kids.map((c) => writeXml(c, depth + 1)).join('\n')}\n${pad}</${el.name}>`;
}
