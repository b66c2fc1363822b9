import { WithdrawFlow } from '@/components/billing/withdraw-flow';
import { clientPage } from '@/components/ui/client-page';
import { titled } from '@/lib/page-title';

/**
 * `/withdraw`: the withdrawal function ("Withdraw from contract here", Directive 2011/83/EU Art. 11a), separate from
 * cancelling; signed in or by a link e-mailed to the account's address.
 */
export default clientPage(WithdrawFlow, ['Withdraw']);

/**
 * Its own tab title, and the canonical URL and hreflang of an indexed page: like `/cancel/`, it needs no sign-in and
 * should be easy to find (Art. 11a(1): "easily accessible").
 */
export const generateMetadata = titled('withdraw', '/withdraw/');
