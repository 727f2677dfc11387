import { describe, expect, it } from 'vitest';
import { intentOf } from './shortcuts';

describe('shortcuts', () => {
  it('maps the action keys, either case', () => {
    expect(intentOf({ key: 'f' })).toEqual({ type: 'fold' });
    expect(intentOf({ key: 'F', shiftKey: true })).toEqual({ type: 'fold' });
    expect(intentOf({ key: 'c' })).toEqual({ type: 'checkCall' });
    expect(intentOf({ key: 'r' })).toEqual({ type: 'betRaise' });
    expect(intentOf({ key: 'a' })).toEqual({ type: 'allIn' });
    expect(intentOf({ key: 'd' })).toEqual({ type: 'draw' });
    expect(intentOf({ key: 's' })).toEqual({ type: 'show' });
    expect(intentOf({ key: 'm' })).toEqual({ type: 'muck' });
    expect(intentOf({ key: 'Enter' })).toEqual({ type: 'confirm' });
    expect(intentOf({ key: 'Escape' })).toEqual({ type: 'cancel' });
  });

  it('nudges the slider', () => {
    expect(intentOf({ key: 'ArrowUp' })).toEqual({ type: 'nudge', steps: 1 });
    expect(intentOf({ key: 'ArrowRight' })).toEqual({ type: 'nudge', steps: 1 });
    expect(intentOf({ key: '+' })).toEqual({ type: 'nudge', steps: 1 });
    expect(intentOf({ key: '-' })).toEqual({ type: 'nudge', steps: -1 });
    expect(intentOf({ key: 'ArrowLeft' })).toEqual({ type: 'nudge', steps: -1 });
    expect(intentOf({ key: 'PageDown' })).toEqual({ type: 'nudge', steps: -5 });
    expect(intentOf({ key: 'ArrowUp', repeat: true })).toEqual({ type: 'nudge', steps: 1 });
  });

  it('1-5 choose the presets', () => {
    expect(intentOf({ key: '1' })).toEqual({ type: 'preset', index: 0 });
    expect(intentOf({ key: '5' })).toEqual({ type: 'preset', index: 4 });
    expect(intentOf({ key: '6' })).toBeNull();
  });

  it('ignores modified keys, held keys and typing in the amount field', () => {
    expect(intentOf({ key: 'c', ctrlKey: true })).toBeNull();
    expect(intentOf({ key: 'f', metaKey: true })).toBeNull();
    expect(intentOf({ key: 'f', altKey: true })).toBeNull();
    expect(intentOf({ key: 'c', repeat: true })).toBeNull();
    expect(intentOf({ key: 'Enter', repeat: true })).toBeNull();
    expect(intentOf({ key: '1', inTextField: true })).toBeNull();
    expect(intentOf({ key: 'f', inTextField: true })).toBeNull();
    expect(intentOf({ key: 'ArrowLeft', inTextField: true })).toBeNull();
    expect(intentOf({ key: 'ArrowUp', inTextField: true })).toEqual({ type: 'nudge', steps: 1 });
    expect(intentOf({ key: 'Enter', inTextField: true })).toEqual({ type: 'confirm' });
    expect(intentOf({ key: 'x' })).toBeNull();
  });
});
