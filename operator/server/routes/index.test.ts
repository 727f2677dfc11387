import { describe, expect, it } from 'vitest';
import { CLIENT_TYPES } from '../../../shared/protocol/messages';
import { DOMAINS, ROUTES } from '.';

describe('the route map', () => {
  it('routes every client message type, each in exactly one domain, and nothing else', () => {
    for (const type of CLIENT_TYPES) {
      const domains = Object.entries(DOMAINS).filter(([, routes]) => type in routes).map(([name]) => name);
      expect({ type, domains: domains.length }).toEqual({ type, domains: 1 });
    }
    expect(Object.keys(ROUTES).sort()).toEqual([...CLIENT_TYPES].sort());
  });

  it('asks for a signed-in account everywhere but hello, ping and the four ways to sign in', () => {
    const open = CLIENT_TYPES.filter((t) => ROUTES[t].when === 'open').sort();
    const anon = CLIENT_TYPES.filter((t) => ROUTES[t].when === 'anon').sort();
    expect(open).toEqual(['hello', 'ping']);
    expect(anon).toEqual(['guest', 'login', 'register', 'resume']);
  });
});
