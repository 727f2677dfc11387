import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../shared/rules/prng';
import { BAN_FILE_HEADER, BAN_FILE_HEADER_V1, identityHash, identityHashes, identityKey, legacyIdentityHashes, normaliseName, parseBanFile } from './identity';

/** The confusables data the key is built on (UTS #39 prototypes), read back to make look-alikes. */
const PROTOTYPES = createRequire(import.meta.url)('unhomoglyph/data.json') as Record<string, string>;

/** A seeded generator: the same cases every run, another seed for more. */
const random = mulberry32;

const APOSTROPHE_FORMS = ["'", '’', 'ʼ', '‘', '`', '´', '′', '‛', '＇', 'ʻ'];
const DASH_FORMS = ['-', '‐', '‑', '‒', '–', '—', '―', '﹣', '－', ' '];
const SPACE_FORMS = [' ', '  ', '\u00a0', '\u2009', ' \t '];
const MARKS = ['\u0300', '\u0301', '\u0302', '\u0308', '\u0327', '\u030c'];
/** Names of French civil status (and some from elsewhere), as a ban file's maker types them. */
const NAMES = ["Lefèvre-d'Arc", 'Martin', 'Dupont', 'Élodie', 'Jean-Noël', "N'Diaye", "D'Alembert", 'Zoé Anne', 'Müller', 'Ibáñez', 'Cœur', 'Strauß', 'Benoît', 'Le Goff', 'Camille', 'Lemaire', 'Wilhelm', 'Ivanov', 'Ophélie Marie-Thérèse', 'Ó Briain'];

/** Every other-script letter whose UTS #39 prototype is this ASCII letter, in this case (Cyrillic е for e). */
const LOOK_ALIKES = new Map<string, string[]>();
for (const [source, prototype] of Object.entries(PROTOTYPES)) {
  if (!/^[A-Za-z]$/.test(prototype) || !/^\p{L}$/u.test(source) || /\p{Script=Latin}/u.test(source) || source.normalize('NFKC') !== source) continue;
  LOOK_ALIKES.set(prototype, [...(LOOK_ALIKES.get(prototype) ?? []), source]);
}

function pick<T>(rnd: () => number, list: readonly T[]): T {
  return list[Math.floor(rnd() * list.length)];
}

/** The name typed otherwise: each letter's case, accents added, apostrophes, dashes and spaces of other forms. */
function retyped(name: string, rnd: () => number): string {
  let out = rnd() < 0.3 ? pick(rnd, SPACE_FORMS) : '';
  for (const c of name.normalize('NFD')) {
    if (/\p{M}/u.test(c)) {
      if (rnd() < 0.5) out += c;
    } else if (c === "'") out += pick(rnd, APOSTROPHE_FORMS);
    else if (c === '-') out += pick(rnd, DASH_FORMS);
    else if (c === ' ') out += pick(rnd, SPACE_FORMS);
    else {
      out += rnd() < 0.5 ? c.toUpperCase() : c.toLowerCase();
      if (rnd() < 0.2) out += pick(rnd, MARKS);
    }
  }
  return (out + (rnd() < 0.3 ? pick(rnd, SPACE_FORMS) : '')).normalize(rnd() < 0.5 ? 'NFC' : 'NFD');
}

/** Some ASCII letters replaced by look-alikes of other scripts in the same case (i, l and m aside: `identity.ts`). */
function disguised(name: string, rnd: () => number): string {
  let out = '';
  for (const c of name.normalize('NFC')) {
    const options = /[ilmILM]/.test(c) ? undefined : LOOK_ALIKES.get(c);
    out += options && rnd() < 0.4 ? pick(rnd, options) : c;
  }
  return out;
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('the identity key (R-ONEACCOUNT, R-BANNED)', () => {
  it('any mix of case, accents, apostrophe, dash and space forms of a name is one key (property, seeded)', () => {
    const rnd = random(20_261_125);
    for (let run = 0; run < 2_000; run++) {
      const last = pick(rnd, NAMES);
      const first = pick(rnd, NAMES);
      const a = retyped(last, rnd);
      const b = retyped(first, rnd);
      expect(identityKey(a, b, '1990-05-04'), `${JSON.stringify(a)} ${JSON.stringify(b)}`).toBe(identityKey(last, first, '1990-05-04'));
      expect(normaliseName(normaliseName(a))).toBe(normaliseName(a));
    }
  });

  it('look-alike letters of other scripts, mixed with all of the above, still find the person (property, seeded)', () => {
    const rnd = random(4_051_990);
    for (let run = 0; run < 2_000; run++) {
      const last = pick(rnd, NAMES);
      const first = pick(rnd, NAMES);
      const a = disguised(retyped(last, rnd), rnd);
      const b = disguised(retyped(first, rnd), rnd);
      expect(identityHashes(a, b, '1990-05-04'), `${JSON.stringify(a)} ${JSON.stringify(b)}`).toContain(identityHash(last, first, '1990-05-04'));
    }
  });

  it('folds the look-alikes a ban was dodged with, and the examples of docs/protection.md', () => {
    const banned = identityHash("Lefèvre-d'Arc", 'Jean', '1990-05-04');
    // U+02BC modifier letter apostrophe; U+0435 Cyrillic е; U+0391 Greek Α; fullwidth; U+2010 hyphen.
    for (const name of ['Lefèvre-dʼArc', "Lefеvre-d'Arc", 'LEFÈVRE‐D’ARC', 'lefevre d arc', 'Ｌｅｆèｖｒｅ-dʼＡｒｃ', "Lefèvre-d'Αrc"]) {
      expect(identityHashes(name, 'Jean', '1990-05-04'), name).toContain(banned);
    }
    expect(normaliseName("  Lefèvre-D'Arc ")).toBe('LEFEVRE D ARC');
    expect(normaliseName('Strauß')).toBe(normaliseName('STRAUSS'));
    expect(normaliseName('Cœur')).toBe('COEUR');
  });

  it('different people stay apart: another date, another letter; rn is not m in capitals', () => {
    // Accent folding makes Martin and Martín one name: the date tells two people apart.
    expect(identityHash('Martin', 'Jean', '1990-05-04')).toBe(identityHash('Martín', 'Jean', '1990-05-04'));
    expect(identityHash('Martin', 'Jean', '1990-05-04')).not.toBe(identityHash('Martín', 'Jean', '1990-05-05'));
    // UTS #39 alone (case-sensitive) makes these one; names compared in capitals keep them apart (identity.ts).
    expect(normaliseName('Lemaire')).not.toBe(normaliseName('Lernaire'));
    expect(normaliseName('Ivanov')).not.toBe(normaliseName('lvanov'));
    const keys = new Set(NAMES.map(normaliseName));
    expect(keys.size).toBe(NAMES.length);
    for (const [a, b] of [['Dupont', 'Dupond'], ['Martin', 'Martine'], ['Le Goff', 'Legoff'], ['Jean-Noël', 'Jean-Joël']]) expect(normaliseName(a)).not.toBe(normaliseName(b));
  });

  it('key 1 stays as it was: the hashes accounts and ban files of version 1 hold', () => {
    const v1 = sha256('LEFEVRE D ARC\nJEAN NOEL\n1990-05-04');
    expect(legacyIdentityHashes('Lefèvre-d’Arc', 'Jean  Noël', '1990-05-04')).toEqual([v1]);
    // The look-alikes of version 1's names are read in ASCII too, and the name as typed is kept.
    expect(legacyIdentityHashes('Lefèvre-dʼArc', 'Jean Noël', '1990-05-04')).toEqual([v1, sha256('LEFEVRE DʼARC\nJEAN NOEL\n1990-05-04')]);
    expect(legacyIdentityHashes("Lefеvre-d'Arc", 'Jean Noël', '1990-05-04')[0]).toBe(v1);
  });

  it('reads ban files of both versions, and refuses a bad one naming its line', () => {
    const h = identityHash('Martin', 'Jean', '1990-05-04');
    const old = sha256('MARTIN\nJEAN\n1990-05-04');
    expect(parseBanFile(`${BAN_FILE_HEADER}\n# exported 2026-11-25\n\n${h}\n${h} ${old}\n`)).toMatchObject({ ok: true, version: 2, hashes: new Set([h, old]) });
    expect(parseBanFile(`${BAN_FILE_HEADER_V1}\n${old}\n`)).toMatchObject({ ok: true, version: 1, hashes: new Set([old]) });
    expect(parseBanFile(`${BAN_FILE_HEADER_V1}\n${h} ${old}\n`)).toMatchObject({ ok: false, line: 2 });
    expect(parseBanFile(`${h}\n`)).toMatchObject({ ok: false, line: 1 });
    expect(parseBanFile(`${BAN_FILE_HEADER}\n${h}\n${h.toUpperCase()}\n`)).toMatchObject({ ok: false, line: 3 });
  });
});
