/**
 * Absent players (T 2-14, 2-15): dealt in and blinded; in a freeroll ("un tournoi sans frais de
 * participation"), past the organisers' delay "leurs jetons sont retirés du tournoi". A tournament
 * whose entry is paid in advance blinds them until their stack is gone or they come back.
 */
import type { Draft } from './draft';
import type { Entrant, MachineSpec } from './types';

/** T 2-15's first branch: no entry fee (online every other entry is paid in advance, at registration). */
export const isFreeroll = (spec: MachineSpec): boolean => spec.buyIn + spec.fee === 0;

/** The organisers' delay (ms): the spec's, else one level of the structure (time to arrive for the first hand of the next). */
export const absenceDelay = (spec: MachineSpec): number => spec.absenceDelay ?? spec.structure.levelMinutes * 60_000;

/** A player goes absent or comes back; the delay counts from when they went (from the start for one absent at it). */
export function setAbsent(d: Draft, id: number, absent: boolean): void {
  const e = d.entrant(id);
  if (e.absent === absent) return;
  d.set(id, { absent, absentAt: absent ? d.s.elapsed : null });
}

/** A freeroll's absent player whose delay has run out: their chips leave the tournament (T 2-15). */
export function absenceOver(d: Draft, e: Entrant): boolean {
  const s = d.s;
  if (!e.absent || e.status !== 'in' || e.excluded !== null || s.phase !== 'running' || !isFreeroll(s.spec)) return false;
  return s.elapsed - (e.absentAt ?? 0) >= absenceDelay(s.spec);
}
