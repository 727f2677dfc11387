/**
 * Reading a frame on either side: size first, then JSON, then the message schema. Nothing from the
 * wire is trusted before it passes here; a refusal is a value with a stable code (codes.ts) and, when
 * the frame carried a usable `rid`, that rid, so the peer can match the error to its request.
 */
import { validate } from '../validate';
import type { ErrorCode } from './codes';
import { CLIENT_TYPES, clientMessageSchema, SERVER_TYPES, serverMessageSchema, type ClientMessage, type ServerMessage } from './messages';
import { MAX_CLIENT_FRAME_BYTES, MAX_SERVER_FRAME_BYTES } from './version';

export type ParseRefusal = { ok: false; code: Extract<ErrorCode, 'BAD_MESSAGE' | 'UNKNOWN_TYPE' | 'FRAME_TOO_LARGE'>; message: string; rid: number | null };
export type Parsed<T> = { ok: true; message: T } | ParseRefusal;

/** Bytes of `s` in UTF-8, stopping early once past `limit`. */
export function utf8Length(s: string, limit = Infinity): number {
  let n = 0;
  for (let i = 0; i < s.length && n <= limit; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

function ridOf(v: unknown): number | null {
  if (typeof v !== 'object' || v === null) return null;
  const r = (v as Record<string, unknown>).rid;
  return typeof r === 'number' && Number.isSafeInteger(r) && r >= 0 && r < 2 ** 31 ? r : null;
}

function parse<T>(
  frame: string,
  maxBytes: number,
  types: readonly string[],
  check: (v: unknown) => { ok: true; value: T } | { ok: false; error: string },
): Parsed<T> {
  if (typeof frame !== 'string') return { ok: false, code: 'BAD_MESSAGE', message: 'a message is a text frame', rid: null };
  if (frame.length > maxBytes || utf8Length(frame, maxBytes) > maxBytes) {
    return { ok: false, code: 'FRAME_TOO_LARGE', message: `a frame is at most ${maxBytes} bytes`, rid: null };
  }
  let v: unknown;
  try {
    v = JSON.parse(frame);
  } catch {
    return { ok: false, code: 'BAD_MESSAGE', message: 'not JSON', rid: null };
  }
  const rid = ridOf(v);
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return { ok: false, code: 'BAD_MESSAGE', message: 'a message is a JSON object', rid };
  const type = (v as Record<string, unknown>).type;
  if (typeof type !== 'string' || !types.includes(type)) {
    return { ok: false, code: 'UNKNOWN_TYPE', message: `unknown message type ${JSON.stringify(type)?.slice(0, 80) ?? 'undefined'}`, rid };
  }
  const r = check(v);
  return r.ok ? { ok: true, message: r.value } : { ok: false, code: 'BAD_MESSAGE', message: r.error.slice(0, 500), rid };
}

/**
 * The `rid` of a client frame that is refused unread (over the message rate), so that its request is
 * still answered: a client's action waiting for its answer would otherwise wait for ever (met with a
 * bot acting 50 times a second). Null for a frame that is too large, not JSON or without a rid.
 */
export function requestRid(frame: string): number | null {
  if (frame.length > MAX_CLIENT_FRAME_BYTES || utf8Length(frame, MAX_CLIENT_FRAME_BYTES) > MAX_CLIENT_FRAME_BYTES) return null;
  try {
    return ridOf(JSON.parse(frame));
  } catch {
    return null;
  }
}

/** The operator reads a client frame. */
export function parseClientMessage(frame: string): Parsed<ClientMessage> {
  return parse(frame, MAX_CLIENT_FRAME_BYTES, CLIENT_TYPES, (v) => validate(clientMessageSchema, v, 'message'));
}

/** The client reads an operator frame. */
export function parseServerMessage(frame: string, maxBytes = MAX_SERVER_FRAME_BYTES): Parsed<ServerMessage> {
  return parse(frame, maxBytes, SERVER_TYPES, (v) => validate(serverMessageSchema, v, 'message'));
}
