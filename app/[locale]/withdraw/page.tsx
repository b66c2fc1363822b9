import { WithdrawFlow } from '@/components/billing/withdraw-flow';
import { clientPage } from '@/components/ui/client-page';

/**
 * `/withdraw`: the withdrawal function ("Withdraw from contract here", Directive 2011/83/EU Art. 11a), separate from
 * cancelling; signed in or by a link e-mailed to the account's address.
 */
export default clientPage(WithdrawFlow, ['Withdraw']);
