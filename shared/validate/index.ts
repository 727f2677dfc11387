/**
 * Small, allocation-light validators for data crossing a boundary (IPC, the browser host's socket, the
 * wire, files). Every value from outside is `unknown` until a schema accepts it; a refusal says where
 * and why (`settings.language: expected one of fr, en`). Pure: used by main, renderer and operator.
 */

export interface Schema<T> {
  /** Returns null when `v` is acceptable, else a message naming the failing path. */
  readonly check: (v: unknown, path: string) => string | null;
  /** Phantom field carrying the type; never set. */
  readonly _type?: T;
}

export type Infer<S> = S extends Schema<infer T> ? T : never;

export type Validation<T> = { ok: true; value: T } | { ok: false; error: string };

export function validate<T>(schema: Schema<T>, v: unknown, path = 'value'): Validation<T> {
  const error = schema.check(v, path);
  return error === null ? { ok: true, value: v as T } : { ok: false, error };
}

function schema<T>(check: (v: unknown, path: string) => string | null): Schema<T> {
  return { check };
}

export function str(opts: { min?: number; max: number; pattern?: RegExp }): Schema<string> {
  return schema((v, p) => {
    if (typeof v !== 'string') return `${p}: expected a string`;
    if (v.length < (opts.min ?? 0)) return `${p}: shorter than ${opts.min ?? 0}`;
    if (v.length > opts.max) return `${p}: longer than ${opts.max}`;
    if (opts.pattern && !opts.pattern.test(v)) return `${p}: does not match ${String(opts.pattern)}`;
    return null;
  });
}

/** A safe integer in [min, max]: money and counts are integers (DESIGN.md §3). */
export function int(opts: { min: number; max: number }): Schema<number> {
  return schema((v, p) => {
    if (typeof v !== 'number' || !Number.isSafeInteger(v)) return `${p}: expected an integer`;
    if (v < opts.min || v > opts.max) return `${p}: outside ${opts.min}..${opts.max}`;
    return null;
  });
}

export const bool: Schema<boolean> = schema((v, p) => (typeof v === 'boolean' ? null : `${p}: expected a boolean`));

export function oneOf<const T extends readonly (string | number | boolean | null)[]>(...values: T): Schema<T[number]> {
  return schema((v, p) => (values.includes(v as T[number]) ? null : `${p}: expected one of ${values.join(', ')}`));
}

export function nullable<T>(inner: Schema<T>): Schema<T | null> {
  return schema((v, p) => (v === null ? null : inner.check(v, p)));
}

export function arr<T>(item: Schema<T>, opts: { max: number; min?: number }): Schema<T[]> {
  return schema((v, p) => {
    if (!Array.isArray(v)) return `${p}: expected an array`;
    if (v.length > opts.max) return `${p}: more than ${opts.max} items`;
    if (v.length < (opts.min ?? 0)) return `${p}: fewer than ${opts.min ?? 0} items`;
    for (let i = 0; i < v.length; i++) {
      const e = item.check(v[i], `${p}[${i}]`);
      if (e !== null) return e;
    }
    return null;
  });
}

type Shape = Record<string, Schema<unknown>>;
type OptionalKeys<S extends Shape, O extends readonly string[]> = O[number] & keyof S;
export type ObjOf<S extends Shape, O extends readonly string[] = []> = {
  [K in Exclude<keyof S, OptionalKeys<S, O>>]: Infer<S[K]>;
} & { [K in OptionalKeys<S, O>]?: Infer<S[K]> };

/**
 * A plain object with exactly these keys (unknown keys are refused, so nothing unexpected is carried
 * through); keys listed in `optional` may be absent.
 */
export function obj<S extends Shape, const O extends readonly (keyof S & string)[] = []>(
  shape: S,
  optional?: O,
): Schema<ObjOf<S, O>> {
  const keys = Object.keys(shape);
  const opt = new Set<string>(optional ?? []);
  return schema((v, p) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return `${p}: expected an object`;
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) return `${p}: expected a plain object`;
    for (const k of Object.keys(v)) if (!hasOwn(shape, k)) return `${p}: unexpected field ${JSON.stringify(k)}`;
    const rec = v as Record<string, unknown>;
    for (const k of keys) {
      if (!hasOwn(rec, k) || rec[k] === undefined) {
        if (opt.has(k)) continue;
        return `${p}.${k}: missing`;
      }
      const e = shape[k].check(rec[k], `${p}.${k}`);
      if (e !== null) return e;
    }
    return null;
  });
}

function hasOwn(o: object, k: string): boolean {
  return Object.prototype.hasOwnProperty.call(o, k);
}
