import 'server-only';
import { and, eq, gt, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { outboundMessages } from '../../db/schema';
import type { EmailProvider } from '../../providers/email';
import type { SmsProvider } from '../../providers/sms';
import { log } from '../../observability/log';
import { describeError } from '../../observability/describe-error';

// Recovery of the outbox after a provider outage. A failed delivery waits for its next slot of the retry schedule
// (services/outbox.ts), which grows to an hour; without this, a message that failed during an outage would leave at
// that slot, up to an hour after the provider came back. Here, the moment the provider is seen answering again (a
// delivery succeeds, or the probe that runs while messages wait gets an answer), every message waiting for it becomes
// due and is enqueued: after an outage of any length up to the 24-hour horizon, what waits leaves within about
// PROBE_INTERVAL_MS of the provider's return. Each message still goes out once: a delivery claims its row with a
// conditional UPDATE and a lease (services/outbox.ts), however many jobs run for it.

/** How often the job worker probes the provider of a channel while messages of it wait for a retry (ms). */
export const PROBE_INTERVAL_MS = 10_000;

/** An outbox channel; each has one configured provider (EMAIL_PROVIDER, SMS_PROVIDER). */
export type Channel = 'email' | 'sms';

/** What the worker knows of a provider: not seen yet (a new process), answering, or out of service. */
export type ProviderState = 'unknown' | 'up' | 'down';

/**
 * One process's view of whether each channel's provider answers (a circuit breaker's state). `down` is set by a failed
 * probe or by a delivery error the provider calls an outage (connection refused, timeout, 421); a refusal of one
 * message (a rejected recipient) does not set it, so a message that a working provider keeps refusing never makes the
 * others due again and again. When the provider answers while `down` or `unknown`, `onReturn(channel)` runs once
 * (the worker passes: make every waiting message of the channel due and enqueue it). `unknown` counts as down so that
 * a worker that starts after an outage also releases what waits. Per process: each job runner probes and recovers on
 * its own, which is harmless (making rows due twice changes nothing, and a row is claimed by one delivery).
 */
export class ProviderHealth {
  private readonly states: Record<Channel, ProviderState> = { email: 'unknown', sms: 'unknown' };

  /** `onReturn(channel)`: run when the provider of `channel` answers after being down or unknown; may reject. */
  constructor(private readonly onReturn: (channel: Channel) => Promise<unknown>) {}

  /** The current state of `channel`'s provider. */
  state(channel: Channel): ProviderState {
    return this.states[channel];
  }

  /** Records that `channel`'s provider did not answer (or cannot be used). */
  down(channel: Channel): void {
    this.states[channel] = 'down';
  }

  /**
   * Records that `channel`'s provider answered. Resolves to true when that is a return (it was down or unknown) and
   * `onReturn` has run; false when it was already up. The state changes before anything is awaited, so of many
   * deliveries succeeding together only one runs `onReturn`. If `onReturn` rejects, the previous state is put back
   * (the next answer tries again) and the rejection is passed on.
   */
  async answered(channel: Channel): Promise<boolean> {
    const before = this.states[channel];
    if (before === 'up') return false;
    this.states[channel] = 'up';
    try {
      await this.onReturn(channel);
    } catch (error) {
      if (this.states[channel] === 'up') this.states[channel] = before;
      throw error;
    }
    return true;
  }
}

/**
 * Makes every message of `channel` that waits in the outbox (`queued`: a retry not yet due, or a first attempt)
 * due at `now`, in one UPDATE, and returns their ids to enqueue. Rows being sent or already sent or failed are left
 * alone. Rows that failed keep their attempt count; a failure after this goes on with the schedule from there.
 */
export async function wakeWaiting(db: Db, channel: Channel, now = new Date()): Promise<string[]> {
  const rows = await db
    .update(outboundMessages)
    .set({ nextAttemptAt: now })
    .where(and(eq(outboundMessages.channel, channel), eq(outboundMessages.status, 'queued')))
    .returning({ id: outboundMessages.id });
  if (rows.length)
    log().info({ component: 'outbox', channel, due: rows.length }, 'provider answers: waiting messages due now');
  return rows.map((r) => r.id);
}

/** The channels that have a message waiting for a retry at `now` (`queued` with its next attempt later than `now`). */
export async function waitingChannels(db: Db, now = new Date()): Promise<Channel[]> {
  const rows = await db
    .selectDistinct({ channel: outboundMessages.channel })
    .from(outboundMessages)
    .where(
      and(
        eq(outboundMessages.status, 'queued'),
        gt(outboundMessages.nextAttemptAt, now),
        // Push goes to many push services, one per browser vendor: no single provider to probe.
        inArray(outboundMessages.channel, ['email', 'sms']),
      ),
    );
  return rows.map((r) => r.channel as Channel);
}

/** What a probe round found for a channel: nothing waits, no probe, it answered again, it is up, it is down. */
export type ProbeOutcome = 'idle' | 'unprobed' | 'returned' | 'up' | 'down';

/**
 * One probe round (the job worker runs it every PROBE_INTERVAL_MS): for each channel with messages waiting for a
 * retry, asks its provider whether it answers (`probe()`: SMTP connect, EHLO, QUIT; Twilio reads the account), and
 * records the answer in `health`; an answer after `down` or `unknown` runs the recovery (ProviderHealth). A channel
 * with nothing waiting is not probed, so an idle service makes no connection. Resolves to each channel's outcome;
 * rejects only when the database query or the recovery fails.
 */
export async function probeWaitingProviders(
  db: Db,
  health: ProviderHealth,
  providers: { email: EmailProvider; sms: SmsProvider },
  now = new Date(),
): Promise<Record<Channel, ProbeOutcome>> {
  const outcome: Record<Channel, ProbeOutcome> = { email: 'idle', sms: 'idle' };
  for (const channel of await waitingChannels(db, now)) {
    const provider = providers[channel];
    if (!provider.probe) {
      outcome[channel] = 'unprobed';
      continue;
    }
    try {
      await provider.probe();
    } catch (error) {
      if (health.state(channel) !== 'down') {
        log().warn({ component: 'outbox', channel, err: describeError(error) }, 'provider does not answer');
      }
      health.down(channel);
      outcome[channel] = 'down';
      continue;
    }
    outcome[channel] = (await health.answered(channel)) ? 'returned' : 'up';
  }
  return outcome;
}
