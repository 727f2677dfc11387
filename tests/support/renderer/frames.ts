/**
 * Animation frames run by hand in the renderer's store tests: the tables store applies pushes once a
 * frame (stores/tables.ts, the frame pacer), so a test stubs `requestAnimationFrame` and runs the
 * frames it asked for (`flush`), each one a second after the last.
 */
import { afterEach, beforeEach, vi } from 'vitest';

/** A frame's callback (the DOM's FrameRequestCallback; this file is also read without the DOM's types). */
type Frame = (time: number) => void;

export function handFrames(): { flush: () => void } {
  let frames: Frame[] = [];
  beforeEach(() => {
    frames = [];
    vi.stubGlobal('requestAnimationFrame', (cb: Frame) => frames.push(cb));
  });
  afterEach(() => vi.unstubAllGlobals());
  return {
    flush: () => {
      for (let i = 0; i < 10 && frames.length > 0; i++) {
        const run = frames;
        frames = [];
        for (const cb of run) cb(performance.now() + i * 1000);
      }
    },
  };
}
