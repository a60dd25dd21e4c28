import type { MailMessage } from '../mail/mailer.port.js';
import { CODE_TTL_MS } from './auth.constants.js';
import type { CodePurpose } from './one-time-code.js';

const MINUTES = CODE_TTL_MS / 60_000;

const SUBJECTS: Readonly<Record<CodePurpose, (product: string, code: string) => string>> = {
  signup: (p, c) => `${c} is your ${p} confirmation code`,
  magiclink: (p, c) => `${c} is your ${p} sign-in code`,
  recovery: (p, c) => `${c} is your ${p} password reset code`,
  email_change: (p, c) => `${c} is your ${p} code to confirm your new email address`,
};

const PURPOSE_LINES: Readonly<Record<CodePurpose, (product: string) => string>> = {
  signup: (p) => `Enter this code to confirm your email address and finish signing up for ${p}:`,
  magiclink: (p) => `Enter this code to sign in to ${p}:`,
  recovery: (p) => `Enter this code to reset your ${p} password:`,
  email_change: (p) => `Enter this code to confirm this address as the new email of your ${p} account:`,
};

/** The mail that carries a one-time code: the code is in the subject and the text. */
export function codeMail(input: { to: string; purpose: CodePurpose; code: string; productName: string }): MailMessage {
  const { to, purpose, code, productName } = input;
  const text = [
    PURPOSE_LINES[purpose](productName),
    '',
    `    ${code}`,
    '',
    `The code works once and expires in ${MINUTES} minutes.`,
    "If you did not ask for it, ignore this email: nothing happens without the code. Never share it with anyone.",
  ].join('\n');
  return { to, subject: SUBJECTS[purpose](productName, code), text };
}

/** Tells the current address that a change to another one was requested (no code in it). */
export function emailChangeNotice(input: { to: string; newEmail: string; productName: string }): MailMessage {
  return {
    to: input.to,
    subject: `Your ${input.productName} email address is being changed`,
    text: [
      `Someone signed in to your ${input.productName} account asked to change its email address to ${input.newEmail}.`,
      'The change happens only when the code sent to the new address is entered.',
      'If this was not you, reset your password now.',
    ].join('\n'),
  };
}
