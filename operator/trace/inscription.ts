/**
 * The trace's `Inscription` code (A 1.3.6.b: "un code unique généré lors de l'inscription d'un joueur
 * à un jeu de cercle", present in every event of that inscription; each inscription of a player to the
 * same game has its own). One maker for every inscription the operator opens: a seat at a cash table,
 * a tournament registration.
 *
 * `<Tech>.<time in base 36>.<8 hex digits>`: the game's Tech first, so an inscription names its game
 * when read alone (the vault and the crosscheck key records by it); the time and 32 random bits keep
 * it unique across restarts of the operator without a counter to persist.
 */
import { randomBytes } from 'node:crypto';

export function newInscription(tech: string, now: number = Date.now()): string {
  return `${tech}.${now.toString(36)}.${randomBytes(4).toString('hex')}`;
}

/** The parts of an inscription made by {@link newInscription}; null for any other text. */
export function inscriptionParts(inscription: string): { tech: string; at: number } | null {
  const m = /^(.+)\.([0-9a-z]+)\.[0-9a-f]{8}$/.exec(inscription);
  return m ? { tech: m[1], at: parseInt(m[2], 36) } : null;
}
