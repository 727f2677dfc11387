/**
 * Just enough XML for the regulatory trace: a tree of elements with attributes and text, a writer
 * that escapes correctly and indents by two spaces like the examples of A 1.4.3, and a strict reader
 * for the same subset (elements, attributes, text, entity and character references, comments, CDATA,
 * the XML declaration; no DTD, no mixed content).
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

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(s: string, at: number): string {
  return s.replace(/&(#x[0-9A-Fa-f]+|#[0-9]+|[A-Za-z]+);|&/g, (all, ref: string | undefined) => {
    if (ref === undefined) throw new XmlError(`bare "&" near offset ${at}`);
    if (ref.startsWith('#')) {
      const code = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      if (!(code >= 0 && code <= 0x10ffff)) throw new XmlError(`bad character reference ${all}`);
      return String.fromCodePoint(code);
    }
    const v = ENTITIES[ref];
    if (v === undefined) throw new XmlError(`unknown entity ${all} near offset ${at}`);
    return v;
  });
}

/**
 * Reads an XML document (or a lone element) into an {@link XmlElement} tree. Whitespace-only text
 * between elements is dropped; text around child elements is an error. Attribute values have their
 * whitespace normalised as XML requires; line ends are normalised to LF.
 */
export function parseXml(input: string): XmlElement {
  const src = input.replace(/\r\n?/g, '\n');
  let i = 0;
  const fail = (msg: string): never => {
    throw new XmlError(`${msg} at offset ${i}`);
  };
  const skipMisc = () => {
    for (;;) {
      const m = /^\s*/.exec(src.slice(i))!;
      i += m[0].length;
      if (src.startsWith('<?', i)) {
        const end = src.indexOf('?>', i);
        if (end < 0) fail('unterminated processing instruction');
        i = end + 2;
      } else if (src.startsWith('<!--', i)) {
        const end = src.indexOf('-->', i);
        if (end < 0) fail('unterminated comment');
        i = end + 3;
      } else if (src.startsWith('<!', i) && !src.startsWith('<![CDATA[', i)) {
        fail('DTDs are not supported');
      } else return;
    }
  };
  const name = (): string => {
    const m = /^[A-Za-z_][A-Za-z0-9_.:-]*/.exec(src.slice(i));
    if (!m) fail('expected a name');
    i += m![0].length;
    return m![0];
  };
  const element = (): XmlElement => {
    if (src[i] !== '<') fail('expected "<"');
    i++;
    const tag = name();
    const attrs: [string, string][] = [];
    for (;;) {
      const ws = /^\s*/.exec(src.slice(i))![0].length;
      i += ws;
      if (src.startsWith('/>', i)) {
        i += 2;
        return { name: tag, attrs, children: [], text: '' };
      }
      if (src[i] === '>') {
        i++;
        break;
      }
      if (ws === 0) fail('expected whitespace before an attribute');
      const key = name();
      if (attrs.some(([k]) => k === key)) fail(`duplicate attribute ${key}`);
      const m = /^\s*=\s*("([^"<]*)"|'([^'<]*)')/.exec(src.slice(i));
      if (!m) fail(`bad value for attribute ${key}`);
      attrs.push([key, decode((m![2] ?? m![3]).replace(/[\t\n]/g, ' '), i)]);
      i += m![0].length;
    }
    const children: XmlElement[] = [];
    let text = '';
    for (;;) {
      if (i >= src.length) fail(`unclosed element ${tag}`);
      if (src.startsWith('</', i)) {
        i += 2;
        const close = name();
        if (close !== tag) fail(`</${close}> closes <${tag}>`);
        i += /^\s*/.exec(src.slice(i))![0].length;
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
        children.push(element());
      } else {
        const end = src.indexOf('<', i);
        const raw = src.slice(i, end < 0 ? src.length : end);
        text += decode(raw, i);
        i += raw.length;
      }
    }
    if (children.length > 0) {
      if (text.trim() !== '') fail(`element ${tag} mixes text and elements`);
      text = '';
    }
    return { name: tag, attrs, children, text };
  };
  skipMisc();
  const root = element();
  skipMisc();
  if (i < src.length) fail('content after the root element');
  return root;
}
