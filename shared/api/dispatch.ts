/**
 * The transport-independent half of both adapters: validate a call by name and arguments, run its
 * handler, validate the result, and turn every failure into an `ApiReply` error. An adapter adds only
 * its own checks (IPC: the sender frame; browser host: token and Origin) and its framing.
 */
import { type Schema, validate } from '../validate';
import { type ApiReply, calls, type Handlers, isCallName } from './contract';

export async function dispatchCall(handlers: Handlers, name: unknown, args: unknown): Promise<ApiReply<unknown>> {
  if (!isCallName(name)) return { ok: false, error: { code: 'UNKNOWN_CALL', message: `unknown call ${String(name).slice(0, 80)}` } };
  const spec: { args: Schema<unknown>; result: Schema<unknown> } = calls[name];
  const input = validate(spec.args, args, name);
  if (!input.ok) return { ok: false, error: { code: 'BAD_REQUEST', message: input.error } };
  let value: unknown;
  try {
    value = await (handlers[name] as (a: unknown) => Promise<unknown>)(input.value);
  } catch (e) {
    return { ok: false, error: { code: 'INTERNAL', message: e instanceof Error ? e.message : String(e) } };
  }
  // A handler bug must not leak an unexpected shape to the renderer.
  const output = validate(spec.result, value, `${name}.result`);
  if (!output.ok) return { ok: false, error: { code: 'INTERNAL', message: output.error } };
  return { ok: true, value: output.value };
}
