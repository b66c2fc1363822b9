import 'server-only';
import { randomUUID } from 'node:crypto';

/**
 * The round trip that tells a LISTEN connection whether it hears what the app's pool notifies (PostgreSQL docs,
 * "NOTIFY"; behind PgBouncer in transaction mode, or on a standby, it hears nothing, silently). One per listener:
 * `send` notifies a fresh nonce through the pool, the listener calls `arrived` with each probe nonce it hears, and
 * `run` answers whether it came back in time (and rejects when `send` does). Used by the live hub
 * (services/locate/live-hub.ts) and the outbox listener (jobs/outbox-listener.ts).
 */
export class NotifyProbes {
  private waiting = new Map<string, () => void>();

  /** The listener heard probe `nonce`. */
  arrived(nonce: string): void {
    this.waiting.get(nonce)?.();
  }

  /** Sends one probe with `send(nonce)` and waits up to `timeoutMs` (ms) for it to arrive. Rejects as `send` does. */
  async run(send: (nonce: string) => Promise<unknown>, timeoutMs: number): Promise<boolean> {
    const nonce = randomUUID();
    const heard = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      timer.unref();
      this.waiting.set(nonce, () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    try {
      await send(nonce);
      return await heard;
    } finally {
      this.waiting.delete(nonce);
    }
  }
}
