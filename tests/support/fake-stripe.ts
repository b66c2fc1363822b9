import { createServer, type Server } from 'node:http';

type Json = Record<string, unknown>;

/**
 * A fake of the few Stripe API endpoints we call (a test double, in the spirit of stripe-mock), listening on
 * `port`. The SDK reaches it through STRIPE_API_URL. Tests set the remote state (`sessions`, `subscriptions`) and read
 * what we sent (`requests`, with the Idempotency-Key header). `failNext` answers the next N requests with 500.
 */
export class FakeStripe {
  sessions = new Map<string, Json>();
  subscriptions = new Map<string, Json>();
  invoices = new Map<string, Json>();
  requests: { method: string; path: string; body: string; idempotencyKey: string | undefined }[] = [];
  failNext = 0;
  /** Answers 500 to the next `times` requests whose path and body pass `test` (other requests are served). */
  failMatching: { test: (path: string, body: string) => boolean; times: number } | null = null;
  /** While set, every request is recorded (with the state it reads) at once but answered only when this settles. */
  hold: Promise<void> | null = null;
  /** While set with `hold`, only the requests it accepts are held; the others are answered at once. */
  holdOnly: ((request: FakeStripe['requests'][number]) => boolean) | null = null;
  private server: Server | undefined;
  private counter = 0;

  constructor(readonly port: number) {}

  /** A Stripe subscription object in `status`, its period ending at `periodEnd` (ms). */
  subscription(id: string, status: string, periodEnd: number, extra: Json = {}): Json {
    const sub = {
      id,
      object: 'subscription',
      status,
      created: Math.floor(Date.now() / 1000),
      trial_end: null,
      cancel_at: null,
      cancel_at_period_end: false,
      items: { object: 'list', data: [{ id: `si_${id}`, current_period_end: Math.floor(periodEnd / 1000) }] },
      ...extra,
    };
    this.subscriptions.set(id, sub);
    return sub;
  }

  /** A paid invoice `id` of subscription `subId`: `amountPaid` minor units, for Stripe's `billing_reason` `reason`. */
  invoice(id: string, subId: string, amountPaid: number, reason = 'subscription_cycle', extra: Json = {}): Json {
    const invoice = {
      id,
      object: 'invoice',
      status: 'paid',
      billing_reason: reason,
      amount_paid: amountPaid,
      currency: 'usd',
      status_transitions: { paid_at: Math.floor(Date.now() / 1000) },
      parent: { type: 'subscription_details', subscription_details: { subscription: subId } },
      ...extra,
    };
    this.invoices.set(id, invoice);
    return invoice;
  }

  start(): Promise<void> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        const path = (req.url ?? '').split('?')[0];
        const request = {
          method: req.method ?? '',
          path,
          body: decodeURIComponent(body),
          idempotencyKey: req.headers['idempotency-key'] as string | undefined,
        };
        this.requests.push(request);
        const held = this.hold && (!this.holdOnly || this.holdOnly(request)) ? this.hold : null;
        const send = (status: number, json: Json) => {
          const text = JSON.stringify(json);
          void (held ?? Promise.resolve()).then(() => {
            res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${++this.counter}` });
            res.end(text);
          });
        };
        if (this.failNext > 0) {
          this.failNext -= 1;
          return send(500, { error: { type: 'api_error', message: 'fake failure' } });
        }
        const fail = this.failMatching;
        if (fail && fail.times > 0 && fail.test(path, decodeURIComponent(body))) {
          fail.times -= 1;
          return send(500, { error: { type: 'api_error', message: 'fake failure' } });
        }
        const params = new URLSearchParams(body);
        let m: RegExpExecArray | null;
        if (req.method === 'POST' && path === '/v1/checkout/sessions') {
          const id = `cs_test_${this.port}_${++this.counter}`; // unique across the fakes of one test run (one database)
          // An embedded session has a client secret and no page of its own (Stripe's Checkout Session object).
          const embedded = params.get('ui_mode') === 'embedded_page';
          const session = {
            id,
            object: 'checkout.session',
            ui_mode: params.get('ui_mode') ?? 'hosted_page',
            url: embedded ? null : `https://checkout.stripe.test/c/pay/${id}`,
            client_secret: embedded ? `${id}_secret_fake` : null,
            return_url: params.get('return_url'),
            status: 'open',
            payment_status: 'unpaid',
            client_reference_id: params.get('client_reference_id'),
            subscription: null,
            invoice: null,
          };
          this.sessions.set(id, session);
          return send(200, session);
        }
        if ((m = /^\/v1\/checkout\/sessions\/([\w-]+)$/.exec(path))) {
          const session = this.sessions.get(m[1]);
          if (!session) return send(404, { error: { type: 'invalid_request_error', code: 'resource_missing' } });
          const sub = typeof session.subscription === 'string' ? this.subscriptions.get(session.subscription) : null;
          return send(200, { ...session, subscription: sub ?? session.subscription });
        }
        if ((m = /^\/v1\/subscriptions\/([\w-]+)$/.exec(path))) {
          const sub = this.subscriptions.get(m[1]);
          if (!sub) return send(404, { error: { type: 'invalid_request_error', code: 'resource_missing' } });
          if (req.method === 'POST' && params.get('cancel_at_period_end') === 'true') sub.cancel_at_period_end = true;
          if (req.method === 'DELETE') sub.status = 'canceled';
          return send(200, sub);
        }
        if (req.method === 'GET' && (m = /^\/v1\/invoices\/([\w-]+)$/.exec(path))) {
          const invoice = this.invoices.get(m[1]);
          if (!invoice) return send(404, { error: { type: 'invalid_request_error', code: 'resource_missing' } });
          return send(200, invoice);
        }
        if (req.method === 'POST' && path === '/v1/refunds') {
          return send(200, { id: `re_${++this.counter}`, object: 'refund', status: 'succeeded' });
        }
        send(404, { error: { type: 'invalid_request_error', message: `fake has no ${req.method} ${path}` } });
      });
    });
    return new Promise((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
  }

  stop(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** Marks session `id` paid: complete, with subscription `subId` and an invoice paid by `paymentIntent`. */
  pay(id: string, subId: string, paymentIntent = 'pi_test_1') {
    const session = this.sessions.get(id)!;
    Object.assign(session, {
      status: 'complete',
      payment_status: 'paid',
      subscription: subId,
      invoice: {
        id: `in_${id}`,
        object: 'invoice',
        payments: { data: [{ payment: { payment_intent: paymentIntent } }] },
      },
    });
  }
}
