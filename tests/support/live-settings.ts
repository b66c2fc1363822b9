/**
 * Settings of a live deployment for `parseEnv` tests (lib/settings): real payment and SMS providers
 * (fake-looking keys) with the demo identity left in place, which live mode refuses.
 */
export const LIVE_PROVIDERS = {
  PAYMENT_PROVIDER: 'stripe',
  STRIPE_SECRET_KEY: 'sk_live_abc123',
  STRIPE_WEBHOOK_SECRET: 'whsec_abc123',
  STRIPE_PUBLISHABLE_KEY: 'pk_live_abc123',
  SMS_PROVIDER: 'twilio',
  TWILIO_ACCOUNT_SID: 'AC0123456789abcdef0123456789abcdef',
  TWILIO_AUTH_TOKEN: 'token-0123456789',
  TWILIO_FROM: '+15005550006',
};

/** The same with a real identity (company, support address, descriptor, public https origin): live mode starts. */
export const LIVE_SETTINGS = {
  ...LIVE_PROVIDERS,
  NEXT_PUBLIC_COMPANY_NAME: 'Chamspy Ltd',
  SUPPORT_EMAIL: 'help@chamspy.example',
  BILLING_DESCRIPTOR: 'CHAMSPY',
  APP_ORIGIN: 'https://chamspy.example',
};
