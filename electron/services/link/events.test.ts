import { describe, expect, it } from 'vitest';
import { Emitter } from './events';

describe('the link’s events', () => {
  it('tells every listener in turn, logs one that throws without stopping the others, and stops on unsubscribe', () => {
    const lines: string[] = [];
    const events = new Emitter<{ state: string; lobby: number }>((line) => lines.push(line));
    const told: string[] = [];
    events.on('state', () => {
      throw new Error('a caller’s fault');
    });
    const stop = events.on('state', (s) => told.push(`second ${s}`));
    events.on('lobby', (n) => told.push(`lobby ${n}`));
    events.emit('state', 'connected');
    stop();
    events.emit('state', 'offline');
    events.emit('lobby', 3);
    expect(told).toEqual(['second connected', 'lobby 3']);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^a state listener failed: Error: a caller’s fault/);
  });
});
