import net, { type AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A message the sink accepted: its recipients (comma-separated), Message-ID, Subject and the whole raw message. */
export type Received = { to: string; messageId: string; subject: string; raw: string };

/**
 * A local SMTP server for tests (smtp-server, no TLS, no authentication) that records every message it accepts. It
 * listens on 127.0.0.1 at `port` (0: a free port, kept for later restarts), and makes the failures an outbox must
 * survive:
 * - `stop()` then `start()`: an outage, connections refused, then up again on the same port;
 * - `refuse = n`: the next n messages are answered 451 (a temporary failure, RFC 5321, section 4.2.3);
 * - `hang()` then `recover()`: a server that accepts the connection and never answers, then the sink again.
 */
export class SmtpSink {
  received: Received[] = [];
  refuse = 0;
  private server: SMTPServer | null = null;
  private hung: net.Server | null = null;
  private sockets = new Set<net.Socket>();
  constructor(public port = 0) {}

  async start(): Promise<void> {
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData: (stream, session, callback) => {
        let raw = '';
        stream.on('data', (chunk: Buffer) => (raw += chunk.toString()));
        stream.on('end', () => {
          if (this.refuse > 0) {
            this.refuse -= 1;
            return callback(Object.assign(new Error('451 temporary failure, try later'), { responseCode: 451 }));
          }
          const header = (name: string) => new RegExp(`^${name}: *(.*?)\\r?$`, 'mi').exec(raw)?.[1]?.trim() ?? '';
          this.received.push({
            to: session.envelope.rcptTo.map((r) => r.address).join(','),
            messageId: header('Message-ID'),
            subject: header('Subject'),
            raw,
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.server = server;
    this.port = (server.server.address() as AddressInfo).port;
  }

  /** Stops accepting connections (an outage: connection refused), whether it records or hangs. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    const hung = this.hung;
    this.hung = null;
    if (hung) await new Promise<void>((resolve) => hung.close(() => resolve()));
  }

  /** Replaces the sink by a server that accepts the TCP connection and never says a word. */
  async hang(): Promise<void> {
    await this.stop();
    this.hung = net.createServer((socket) => this.sockets.add(socket));
    await new Promise<void>((resolve) => this.hung!.listen(this.port, '127.0.0.1', resolve));
  }

  /** Ends the hung server and starts the recording sink again. */
  async recover(): Promise<void> {
    await this.stop();
    await this.start();
  }
}
