import { describe, expect, it } from 'vitest';
import en from '@/messages/en.json';
import { LOCATE_VALIDATION, locateBoxSchema, ownerNoteField } from '@/lib/validation/schemas';

// The home page hands the browser only the Validation messages of LOCATE_VALIDATION. Every message the
// locate box's rules can give must be among them, or the visitor would see a message key instead of a sentence.

/** Whether `key` (`Validation.x`) is a message the locate box's page sends to the browser. */
const sent = (key: string) =>
  key.startsWith('Validation.') &&
  key.slice(11) in en.Validation &&
  LOCATE_VALIDATION.some((prefix) => key.slice(11).startsWith(prefix));

const bad = [
  {},
  { phone: '', requesterName: '', email: '', terms: false },
  { phone: ' ', requesterName: ' ', email: ' ', terms: 'yes' },
  { phone: '1'.repeat(251), requesterName: 'x'.repeat(41), email: `${'a'.repeat(250)}@x.io`, terms: true },
  { phone: '+1', requesterName: 'see https://x.io', email: 'not-an-email', terms: true },
  { phone: '+1', requesterName: 'call +1 415 555 2671', email: 'a@b', terms: true },
  { phone: '+1', requesterName: 'Anna\u0007', email: 'a@example.com', terms: true },
  { phone: '+1', requesterName: '\u2465\u2464\u24EA', email: 'a@example.com', terms: true },
  { phone: 1, requesterName: 2, email: 3, terms: 4 },
];
const notes = ['x'.repeat(141), 'see www.evil.example', 'call 0812-3456-7890', 'a\u202Eb', 'bit.ly/x'];

/** The message keys a rule gives for each of `inputs`, every one of which it must refuse. */
async function messagesOf(
  rule: {
    safeParseAsync: (input: unknown) => Promise<{ success: boolean; error?: { issues: { message: string }[] } }>;
  },
  inputs: unknown[],
) {
  const keys = new Set<string>();
  for (const input of inputs) {
    const result = await rule.safeParseAsync(input);
    expect(result.success).toBe(false);
    for (const issue of result.error!.issues) keys.add(issue.message);
  }
  return keys;
}

describe('the locate box page sends every Validation message its rules give', () => {
  it('for the locate box fields', async () => {
    const keys = await messagesOf(locateBoxSchema, bad);
    expect(keys.size).toBeGreaterThan(8);
    expect([...keys].filter((key) => !sent(key))).toEqual([]);
  });

  it('for the note to the owner', async () => {
    const keys = await messagesOf(ownerNoteField, notes);
    expect(keys.size).toBeGreaterThanOrEqual(4);
    expect([...keys].filter((key) => !sent(key))).toEqual([]);
  });

  it('and not the messages of other forms', () => {
    const other = Object.keys(en.Validation).filter((key) => !sent(`Validation.${key}`));
    expect(other).toEqual(expect.arrayContaining(['cardNumber', 'passwordRequired', 'usernameChars']));
  });
});
