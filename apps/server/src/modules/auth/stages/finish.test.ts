import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/helpers.js';
import { createTestApp, createUser, DIALECTS, messagesTo } from '../../../test/helpers.js';
import { findSessionById } from '../../sessions/service.js';
import { openSession } from '../../sessions/service.js';
import { loadSettings } from '../../settings/service.js';
import { findUserById } from '../../users/repository.js';
import { finishStage } from './finish.js';
import type { StageDefinition } from './registry.js';
import {
  emailVerificationStage,
  nextStage,
  passwordCreationStage,
  phoneVerificationStage,
  secondFactorStage,
  termsStage,
} from './registry.js';

const REQUEST = {
  ip: '192.0.2.1',
  userAgent: 'Firefox/140',
  browserToken: null,
  language: 'fr',
  brand: 'hygie',
} as const;

describe.each(DIALECTS)('finishing post-login stages on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  async function stageAfter<I, O>(
    sessionId: string,
    userId: string,
    stage: StageDefinition<I, O>,
    input: I,
  ) {
    const { progress } = await finishStage(t.ctx, { ...REQUEST, userId, sessionId }, stage, input);
    const [user, session, settings] = await Promise.all([
      findUserById(t.ctx.db, userId),
      findSessionById(t.ctx.db, sessionId),
      loadSettings(t.ctx),
    ]);
    if (!user || !session) throw new Error('vanished');
    // What is stored agrees with what the registry computes from the facts.
    expect(session.stage).toBe(nextStage(user, session, settings, t.clock.now()));
    return progress.complete ? 'complete' : progress.stage;
  }

  it('walks a new account through every stage, each completion moving to the next', async () => {
    const email = 'walk@hygie.test';
    const userId = await createUser(t, {
      email,
      password: 'Walk-Passw0rd!',
      phone: '+33611223344',
      emailVerified: false,
      phoneVerified: false,
      cguVersion: null,
      mustCreatePassword: true,
    });
    const { id } = await openSession(t.ctx, userId, 'two_factor_authentication_required', REQUEST, {
      amr: ['pwd'],
    });
    const sms = { provider: 'sms', trustDevice: false } as const;
    expect(await stageAfter(id, userId, secondFactorStage, sms)).toBe('email_not_verified');
    expect(await stageAfter(id, userId, emailVerificationStage, undefined)).toBe(
      'mobile_phone_not_verified',
    );
    expect(await stageAfter(id, userId, phoneVerificationStage, { phone: '+33611223344' })).toBe(
      'cgu_not_accepted',
    );
    expect(await stageAfter(id, userId, termsStage, { version: '2026-01' })).toBe(
      'password_creation_required',
    );
    const password = { passwordHash: 'x', action: 'password_renewed' } as const;
    expect(await stageAfter(id, userId, passwordCreationStage, password)).toBe('complete');
    expect((await messagesTo(t, email)).map((m) => m.template)).toContain('sign_in_notice');
  });

  it('lets an e-mailed second-factor code prove the address, and trusts the device when asked', async () => {
    const userId = await createUser(t, {
      email: 'both@hygie.test',
      password: 'Both-Passw0rd!',
      phone: '+33611223355',
      emailVerified: false,
    });
    const { id } = await openSession(t.ctx, userId, 'two_factor_authentication_required', REQUEST, {
      amr: ['pwd'],
    });
    const { progress, outcome } = await finishStage(
      t.ctx,
      { ...REQUEST, userId, sessionId: id },
      secondFactorStage,
      { provider: 'email', trustDevice: true },
    );
    expect(progress.complete).toBe(true);
    expect(outcome.device?.token).toEqual(expect.any(String));
    expect((await findSessionById(t.ctx.db, id))?.trusted_device_id).not.toBeNull();
  });

  it('verifies only the number the code was sent to', async () => {
    const userId = await createUser(t, {
      email: 'moved@hygie.test',
      password: 'Moved-Passw0rd!',
      phone: '+33611223366',
      phoneVerified: false,
    });
    const { id } = await openSession(t.ctx, userId, 'mobile_phone_not_verified', REQUEST, {
      amr: ['pwd', 'otp'],
      mfaVerifiedAt: t.clock.now(),
    });
    expect(await stageAfter(id, userId, phoneVerificationStage, { phone: '+33699999999' })).toBe(
      'mobile_phone_not_verified',
    );
  });
});
