import { z } from 'zod';

/*
 * The staff second factor (issue 21): one schema per input, shared by the back office's
 * pages and the API, and the texts both show.
 */

export const SECOND_FACTOR_MESSAGES = {
  staffOnly: 'Only staff accounts can turn on a second factor',
  alreadyOn: 'Two-step sign-in is already on',
  notOn: 'Two-step sign-in is not on',
  setupFirst: 'Start setting up two-step sign-in first',
  wrongCode: 'That code is not right. Enter the 6-digit code your app shows now, or a recovery code.',
  challengeOver: 'Your sign-in timed out or took too many codes. Please sign in again.',
  codeNeeded: 'Enter the 6-digit code from your authenticator app',
  tooManyCodes: 'Too many wrong codes. Please wait an hour, or ask another member of staff for help.',
} as const;

/** A six-digit code (spaces allowed) or a recovery code such as `abcde-fghjk`. */
export const secondFactorCodeSchema = z
  .string({ error: SECOND_FACTOR_MESSAGES.codeNeeded })
  .trim()
  .min(6, SECOND_FACTOR_MESSAGES.codeNeeded)
  .max(20, SECOND_FACTOR_MESSAGES.wrongCode)
  .regex(/^[0-9a-zA-Z\s-]+$/, SECOND_FACTOR_MESSAGES.wrongCode);

export const secondFactorCodeBodySchema = z.object({ code: secondFactorCodeSchema }).meta({ id: 'SecondFactorCode' });

export const secondFactorChallengeBodySchema = z
  .object({
    challenge: z.string({ error: SECOND_FACTOR_MESSAGES.challengeOver }).min(20).max(200),
    code: secondFactorCodeSchema,
  })
  .meta({ id: 'SecondFactorAnswer' });

/** What `POST /auth/login` answers (202) when the password was right and a code is still needed. */
export const secondFactorRequiredSchema = z
  .object({
    message: z.string(),
    secondFactorRequired: z.literal(true),
    challenge: z.string(),
    expiresAt: z.string(),
  })
  .meta({ id: 'SecondFactorRequired' });

export const secondFactorStatusSchema = z
  .object({ enabled: z.boolean(), recoveryCodesLeft: z.number().int() })
  .meta({ id: 'SecondFactorStatus' });

export const secondFactorSetupSchema = z
  .object({ secret: z.string(), otpauthUrl: z.string(), qrSvg: z.string() })
  .meta({ id: 'SecondFactorSetup' });

export const recoveryCodesSchema = z
  .object({ message: z.string(), recoveryCodes: z.array(z.string()) })
  .meta({ id: 'RecoveryCodes' });
