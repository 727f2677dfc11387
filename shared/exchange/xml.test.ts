import { describe, expect, it } from 'vitest';
import { escapeAttr, escapeText, leaf, node, parseXmlElement as parseXml, serialize, XmlError } from './xml';

describe('xml', () => {
  it('escapes text and attributes so that they read back unchanged', () => {
    const tricky = `Tom & Jerry's <"table"> > 1 €\u00e9 \u{1F0A1}\ttab\nline\r\nCRLF`;
    expect(escapeText('a<b & c>d')).toBe('a&lt;b &amp; c&gt;d');
    expect(escapeAttr('say "hi"\n& <go>')).toBe('say &quot;hi&quot;&#10;&amp; &lt;go&gt;');
    const el = node('Root', [leaf('Description', tricky), node('Tour', [leaf('Total', '0.16')], [['name', tricky]])], [['test', 'true']]);
    const xml = serialize(el);
    expect(xml).toBe(
      '<Root test="true">\n' +
        `  <Description>Tom &amp; Jerry's &lt;"table"&gt; &gt; 1 €é \u{1F0A1}\ttab\nline&#13;\nCRLF</Description>\n` +
        `  <Tour name="Tom &amp; Jerry's &lt;&quot;table&quot;&gt; &gt; 1 €é \u{1F0A1}&#9;tab&#10;line&#13;&#10;CRLF">\n` +
        '    <Total>0.16</Total>\n' +
        '  </Tour>\n' +
        '</Root>',
    );
    expect(parseXml(xml)).toEqual(el);
  });

  it('refuses characters XML cannot carry, and bad names', () => {
    expect(() => escapeText('bell \u0007')).toThrow(XmlError);
    expect(() => escapeAttr('nul \u0000')).toThrow(/U\+0000/);
    expect(() => escapeText('lone \uD800 surrogate')).toThrow(XmlError);
    expect(() => serialize(leaf('bad name', 'x'))).toThrow(/not an XML name/);
  });

  it('reads declarations, comments, CDATA, references and empty elements, and refuses malformed input', () => {
    const doc = parseXml(`<?xml version="1.0" encoding="UTF-8"?>\n<!-- c -->\n<A x='1' y="a&#x41;&#66;">\n  <B/>\n  <!-- inside -->\n  <C><![CDATA[<raw> & ]]>&amp;&lt;</C>\n</A>\n`);
    expect(doc).toEqual({
      name: 'A',
      attrs: [['x', '1'], ['y', 'aAB']],
      text: '',
      children: [
        { name: 'B', attrs: [], children: [], text: '' },
        { name: 'C', attrs: [], children: [], text: '<raw> & &<' },
      ],
    });
    expect(() => parseXml('<A><B></A></B>')).toThrow(/closes/);
    expect(() => parseXml('<A>text<B/></A>')).toThrow(/mixes text/);
    expect(() => parseXml('<A>&nbsp;</A>')).toThrow(/unknown entity/);
    expect(() => parseXml('<A>a & b</A>')).toThrow(/bare "&"/);
    expect(() => parseXml('<A x="1" x="2"/>')).toThrow(/duplicate attribute/);
    expect(() => parseXml('<A/><B/>')).toThrow(/after the root/);
    expect(() => parseXml('<A>')).toThrow(/never closed/);
    expect(() => parseXml('<!DOCTYPE x><A/>')).toThrow(/DTD/);
  });
});
