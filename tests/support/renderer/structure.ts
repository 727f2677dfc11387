/**
 * A ready tournament structure (shared/rules/tournament/structure.ts) as the page receives it over
 * IPC (`TournamentDetails['structure']`: the wire schema's mutable arrays), for the renderer's tests
 * of what the page does with it.
 */
import type { TournamentDetails } from '../../../shared/protocol/tournament';
import { readyStructure, type TournamentStructure } from '../../../shared/rules/tournament/structure';

export type WireStructure = TournamentDetails['structure'];

/** The structure as sent: the same values, its levels a plain array. */
export const wire = (s: TournamentStructure): WireStructure => ({ ...s, levels: [...s.levels] });

/** `readyStructure`, as sent. */
export const readyWire = (...args: Parameters<typeof readyStructure>): WireStructure => wire(readyStructure(...args));
