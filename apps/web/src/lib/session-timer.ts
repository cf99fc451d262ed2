export type SessionPhase = 'ok' | 'warn' | 'expired';

/** Where a session ending at `expiresAtMs` stands at `nowMs`, warning `warningSeconds` before. */
export function sessionPhase(
  nowMs: number,
  expiresAtMs: number,
  warningSeconds: number,
): SessionPhase {
  if (!Number.isFinite(expiresAtMs)) return 'ok';
  const leftMs = expiresAtMs - nowMs;
  if (leftMs <= 0) return 'expired';
  if (leftMs <= warningSeconds * 1000) return 'warn';
  return 'ok';
}

/** Whole seconds left before expiry, never negative. */
export function secondsLeft(nowMs: number, expiresAtMs: number): number {
  return Math.max(0, Math.ceil((expiresAtMs - nowMs) / 1000));
}
