import { describe, expect, it } from 'vitest';
import { SESSION_WARNING_SECONDS } from '@hygie/domain';
import { secondsLeft, sessionPhase } from './session-timer';

const EXPIRY = Date.parse('2030-01-01T12:00:00Z');
const seconds = (n: number) => n * 1000;

describe('session timer', () => {
  it.each([
    ['an hour before', EXPIRY - seconds(3600), 'ok'],
    ['just before the warning', EXPIRY - seconds(SESSION_WARNING_SECONDS) - 1, 'ok'],
    ['exactly at the warning time (300 s)', EXPIRY - seconds(SESSION_WARNING_SECONDS), 'warn'],
    ['one second before expiry', EXPIRY - seconds(1), 'warn'],
    ['at expiry', EXPIRY, 'expired'],
    ['after expiry', EXPIRY + seconds(10), 'expired'],
  ] as const)('%s → %s', (_label, now, phase) => {
    expect(sessionPhase(now, EXPIRY, SESSION_WARNING_SECONDS)).toBe(phase);
  });

  it('never warns for an unreadable expiry', () => {
    expect(sessionPhase(EXPIRY, Number.NaN, SESSION_WARNING_SECONDS)).toBe('ok');
  });

  it('counts whole seconds left, never below zero', () => {
    expect(secondsLeft(EXPIRY - 1500, EXPIRY)).toBe(2);
    expect(secondsLeft(EXPIRY + 5000, EXPIRY)).toBe(0);
  });
});
