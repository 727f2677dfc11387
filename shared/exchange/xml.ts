/**
 * The one XML reader and writer: POJEU import and export (docs/exchange.md) and
 * the operator's regulatory trace (operator/trace, A 1.4.3) both use it. Pure: no Node modules, no
 * DOM. Just the subset those need: elements, attributes, text, the five predefined entities,
 * character references, CDATA sections, comments and the XML declaration; no DTD, no mixed content.
 *
 * The writer escapes correctly, refuses what XML 1.0 cannot carry (XmlError), and indents by two
 * spaces like the examples of A 1.4.3. The reader never throws: a malformed document is
 * `{ ok: false, line, message }` with the 1-based line of the problem; `parseXmlElement` is the
 * throwing form that gives the writer's tree back (tests compare the two).
 */

/** An XML element: either text content or child elements (never both: no mixed content). */
export interface XmlElement {
  readonly name: string;
  /** Attributes in writing order. */
  readonly attrs: ReadonlyArray<readonly [string, string]>;
  readonly children: readonly XmlElement[];
  /** Text content of a leaf element; '' when it has children or is empty. */
  readonly text: string;
}

/** Thrown for text that cannot be written as XML 1.0, or for a malformed document given to {@link parseXml}. */
export class XmlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'XmlError';
  }
}

const NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
// Characters XML 1.0 cannot carry at all, even escaped (§2.2): C0 controls but tab, LF, CR; lone surrogates; U+FFFE/U+FFFF.
// eslint-disable-next-line no-control-regex -- finding the control characters XML forbids is the point
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why `s` cannot be written in XML 1.0 (a forbidden character), or null when it can. */
export function xmlCharProblem(s: string): string | null {
  const m = FORBIDDEN.exec(s);
  return m ? `character U+${m[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')} cannot be written in XML` : null;
}

function checkChars(s: string, where: string): void {
  const why = xmlCharProblem(s);
  if (why) throw new XmlError(`${where}: ${why}`);
}

/** Escapes element text: `&`, `<`, `>`, and CR (which a reader would otherwise turn into LF). */
export function escapeText(s: string): string {
  checkChars(s, 'text');
  return s.replace(/[&<>\r]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&#13;'));
}

/** Escapes an attribute value (double-quoted): also `"`, and tab/LF/CR, which readers normalise to spaces. */
export function escapeAttr(s: string): string {
  checkChars(s, 'attribute');
  return s.replace(/[&<>"\t\n\r]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\t': '&#9;', '\n': '&#10;', '\r': '&#13;' })[c]!);
}

/** An element with text content (a number is written as is). */
export function leaf(name: string, text: string | number, attrs: ReadonlyArray<readonly [string, string]> = []): XmlElement {
  return { name, attrs, children: [], text: String(text) };
}

/** An element with child elements; `undefined` children are left out (optional elements). */
export function node(name: string, children: ReadonlyArray<XmlElement | undefined>, attrs: ReadonlyArray<readonly [string, string]> = []): XmlElement {
  return { name, attrs, children: children.filter((c): c is XmlElement => c !== undefined), text: '' };
}

/** Writes an element and its subtree, two spaces per level, starting at `depth`; no trailing newline. */
export function serialize(el: XmlElement, depth = 0): string {
  if (!NAME.test(el.name)) throw new XmlError(`not an XML name: ${el.name}`);
  const pad = '  '.repeat(depth);
  const attrs = el.attrs
    .map(([k, v]) => {
      if (!NAME.test(k)) throw new XmlError(`not an XML attribute name: ${k}`);
      return ` ${k}="${escapeAttr(v)}"`;
    })
    .join('');
  if (el.children.length === 0) return `${pad}<${el.name}${attrs}>${escapeText(el.text)}</${el.name}>`;
  if (el.text !== '') throw new XmlError(`element ${el.name} has both text and children`);
  return `${pad}<${el.name}${attrs}>\n${el.children.map((c) => serialize(c, depth + 1)).join('\n')}\n${pad}</${el.name}>`;
}

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


/** The writer's tree of a read element (lines dropped, attributes in document order). */
export function elementOf(n: XmlNode): XmlElement {
  return { name: n.name, attrs: Object.entries(n.attrs), children: n.children.map(elementOf), text: n.text };
}

/** Reads a document into the writer's tree; throws XmlError naming the line of a malformed one. */
export function parseXmlElement(input: string): XmlElement {
  const r = parseXml(input);
  if (!r.ok) throw new XmlError(`line ${r.line}: ${r.message}`);
  return elementOf(r.root);
}
