/**
 * Combinators the wire needs beyond `shared/validate`: a discriminated union (messages and events are
 * told apart by one tag field), and a cast for schemas that describe a type defined elsewhere (the
 * rules package's `HandState`, `HandRecord`, `Action`, `TableRules`), so the wire carries exactly the
 * engine's plain data. Pure.
 */
import { int, type Schema } from '../validate';

/** A schema of `T` built from parts whose inferred type is structurally `T` (checked by the round-trip tests). */
export function as<T>(s: Schema<unknown>): Schema<T> {
  return s as Schema<T>;
}

/**
 * One of several object schemas, chosen by the string in field `tag` (`type`, `kind`, …). An unknown
 * tag is refused naming the allowed ones; a known tag is checked by its schema only, so the error
 * names the right field.
 */
export function union<T>(tag: string, variants: Record<string, Schema<unknown>>): Schema<T> {
  const names = Object.keys(variants);
  return {
    check(v: unknown, path: string): string | null {
      if (typeof v !== 'object' || v === null || Array.isArray(v)) return `${path}: expected an object`;
      const t = (v as Record<string, unknown>)[tag];
      if (typeof t !== 'string' || !Object.prototype.hasOwnProperty.call(variants, t)) {
        return `${path}.${tag}: expected one of ${names.join(', ')}`;
      }
      return variants[t].check(v, path);
    },
  };
}

/** A schema that also applies `extra` once the shape is right (a cross-field rule), with its message. */
export function refine<T>(s: Schema<T>, extra: (v: T) => string | null): Schema<T> {
  return {
    check(v: unknown, path: string): string | null {
      const e = s.check(v, path);
      if (e !== null) return e;
      const why = extra(v as T);
      return why === null ? null : `${path}: ${why}`;
    },
  };
}

/** Chips, cents, counts: a non-negative safe integer (DESIGN.md §3: money is integers). */
export const amount = int({ min: 0, max: Number.MAX_SAFE_INTEGER });
/** A signed amount (a hand's net result). */
export const signedAmount = int({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER });
/** A card code 0..51 (R-CARDCODE). */
export const card = int({ min: 0, max: 51 });
/** A seat index (R-SEATS: at most 10 seats). */
export const seatIndex = int({ min: 0, max: 9 });
/** Milliseconds since the epoch, or a duration in milliseconds. */
export const millis = int({ min: 0, max: Number.MAX_SAFE_INTEGER });
