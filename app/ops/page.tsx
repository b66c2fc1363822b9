import { OpsConsole } from '@/components/ops/console';

/**
 * `/ops/`: the operator console. Signs in with password and TOTP through `/api_f/v1/ops/session`,
 * then shows orders, abuse reports and opt-outs, undelivered messages, support messages, the funnel and the audit log.
 */
export default function OpsPage() {
  return <OpsConsole />;
}
